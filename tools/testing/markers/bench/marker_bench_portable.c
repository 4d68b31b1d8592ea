// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_bench_portable.c - the benchmark's portable-mode sites. The mode is
 * chosen per file: this one is built with MARKERS_FORCE_PORTABLE, the rest
 * of the module in the near-zero mode. See marker_bench.c.
 */
#ifndef MARKERS_FORCE_PORTABLE
#define MARKERS_FORCE_PORTABLE
#endif

#include <linux/compiler.h>
#include <linux/marker.h>

#include "marker_bench.h"

noinline void marker_bench_pt(int i)
{
	MARK(bench_pt, "%d", i);
	WRITE_ONCE(marker_bench_sink, i);
}

noinline void marker_bench_pt_tail(int i)
{
	WRITE_ONCE(marker_bench_sink, i);
	MARK(bench_pt_tail, "%d", i);
}

noinline void marker_bench_pt3(int i, int j, int k)
{
	MARK(bench_pt3, "%d", i);
	WRITE_ONCE(marker_bench_sink, i);
	WRITE_ONCE(marker_bench_sink, j);
	WRITE_ONCE(marker_bench_sink, k);
}
