/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marker_bench.h - shared by the files of the benchmark module and by the
 * scaling modules that "make bench" generates.
 * See Documentation/markers-bench.rst.
 */
#ifndef _MARKER_BENCH_H
#define _MARKER_BENCH_H

/**
 * struct marker_bench_scale - the sites of a scaling module
 * @fns: one function per site, each running its MARK() once
 * @name: the module's name
 * @nr: the number of functions in @fns
 */
struct marker_bench_scale {
	void (*const *fns)(int v);
	const char *name;
	unsigned int nr;
};

int marker_bench_scale_attach(const struct marker_bench_scale *scale);
void marker_bench_scale_detach(const struct marker_bench_scale *scale);

/* The portable-mode cases, in marker_bench_portable.c. */
void marker_bench_pt(int i);
void marker_bench_pt_tail(int i);
void marker_bench_pt3(int i, int j, int k);

/* Every case function stores its argument here, the baseline too. */
extern int marker_bench_sink;

#endif /* _MARKER_BENCH_H */
