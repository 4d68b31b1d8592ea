/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The marker_registry KUnit suite's handle on its sites: one table per
 * copy of the sites (see marker_kunit_sites.h); and its fault injection
 * (marker_kunit_fail.c). Not for probe modules.
 */
#ifndef _KERNEL_MARKER_KUNIT_H
#define _KERNEL_MARKER_KUNIT_H

#include <linux/marker.h>
#include <linux/types.h>

/**
 * struct mkt_targets - one copy of the suite's sites
 * @desc: the KUnit parameter name of this copy
 * @mode: the mode its sites were compiled in (enum marker_mode)
 * @m_int: marker name of the site in @fire_int, and so on
 * @m_types: a marker with nine arguments of different types
 * @m_none: a marker without arguments
 * @m_multi: a marker with two sites, both fired by @fire_multi
 * @m_spin: a marker fired in a loop by a kthread
 * @m_check: an inline marker (MARK_INLINE())
 * @m_absent: a marker name without any site
 * @fire_int: run the site of @m_int, and so on
 * @fire_types: run @m_types
 * @fire_none: run @m_none
 * @fire_multi: run both sites of @m_multi
 * @fire_spin: run @m_spin
 * @fire_check: run @m_check, whose block counts its runs in @ran
 */
struct mkt_targets {
	const char *desc;
	int mode;
	const char *m_int;
	const char *m_types;
	const char *m_none;
	const char *m_multi;
	const char *m_spin;
	const char *m_check;
	const char *m_absent;
	void (*fire_int)(int v);
	void (*fire_types)(bool b, char c, unsigned short h, int i,
			   unsigned int u, long l, u64 q, void *p,
			   const char *s);
	void (*fire_none)(void);
	void (*fire_multi)(int v);
	void (*fire_spin)(int v);
	void (*fire_check)(atomic_t *ran);
};

extern const struct mkt_targets mkt_default_targets;
extern const struct mkt_targets mkt_portable_targets;

struct kunit;

/* marker_kunit_fail.c: failing the allocations of the test's task */
int mkt_fail_init(void);
void mkt_fail_exit(void);
bool mkt_fail_ready(void);
void mkt_fail_start(int skip, int times);
int mkt_fail_stop(struct kunit *test, int *leaked);
void mkt_fail_cancel(void);

#endif /* _KERNEL_MARKER_KUNIT_H */
