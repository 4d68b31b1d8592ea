/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The sites of the marker_registry KUnit suite (marker_kunit.c). Included
 * once by marker_kunit.c, whose sites are in the mode the architecture
 * picks, and once by marker_kunit_portable.c, which defines
 * MARKERS_FORCE_PORTABLE first: the suite runs every case on both.
 *
 * The includer defines MKT_SUFFIX (a marker name suffix), MKT_TARGETS
 * (the name of the table to define) and MKT_DESC (its description). The
 * sites live in noinline functions, which the suite calls through the
 * table.
 */
#ifndef MKT_SUFFIX
#error "define MKT_SUFFIX and MKT_TARGETS before including marker_kunit_sites.h"
#endif

#define __MKT_CAT(a, b)		a##_##b
#define __MKT_NAME(a, b)	__MKT_CAT(a, b)
#define MKT_NAME(base)		__MKT_NAME(base, MKT_SUFFIX)

static noinline void mkt_site_int(int v)
{
	MARK(MKT_NAME(mkt_int), "%d", v);
}

static noinline void mkt_site_types(bool b, char c, unsigned short h, int i,
				    unsigned int u, long l, u64 q, void *p,
				    const char *s)
{
	MARK(MKT_NAME(mkt_types), "%d %c %hu %d %u %ld %llu %p %s",
	     b, c, h, i, u, l, q, p, s);
}

static noinline void mkt_site_none(void)
{
	MARK(MKT_NAME(mkt_none), "no arguments");
}

/* Two sites of one marker, in two functions. */
static noinline void mkt_site_multi_a(int v)
{
	MARK(MKT_NAME(mkt_multi), "%d", v);
}

static noinline void mkt_site_multi(int v)
{
	mkt_site_multi_a(v);
	MARK(MKT_NAME(mkt_multi), "%d", v);
}

static noinline void mkt_site_spin(int v)
{
	MARK(MKT_NAME(mkt_spin), "%d", v);
}

/* An inline marker: its block runs while armed. */
static noinline void mkt_site_check(atomic_t *ran)
{
	MARK_INLINE(MKT_NAME(mkt_check), {
		atomic_inc(ran);
	});
}

const struct mkt_targets MKT_TARGETS = {
	.desc		= MKT_DESC,
	.mode		= __MARKER_MODE,
	.m_int		= __stringify(MKT_NAME(mkt_int)),
	.m_types	= __stringify(MKT_NAME(mkt_types)),
	.m_none		= __stringify(MKT_NAME(mkt_none)),
	.m_multi	= __stringify(MKT_NAME(mkt_multi)),
	.m_spin		= __stringify(MKT_NAME(mkt_spin)),
	.m_check	= __stringify(MKT_NAME(mkt_check)),
	.m_absent	= __stringify(MKT_NAME(mkt_absent)),
	.fire_int	= mkt_site_int,
	.fire_types	= mkt_site_types,
	.fire_none	= mkt_site_none,
	.fire_multi	= mkt_site_multi,
	.fire_spin	= mkt_site_spin,
	.fire_check	= mkt_site_check,
};
