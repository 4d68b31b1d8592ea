// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "marker_registry": the registry's state machine, checked from
 * inside, in the shape of lib/test_kprobes.c: noinline targets called
 * through function pointers, random arguments, probes that check their
 * context, and a matching unregister in every case.
 * See Documentation/markers-intree.rst.
 *
 * The suite is built into the registry (CONFIG_MARKERS_KUNIT_TEST) so that
 * it can read the registry's own view of each site (marker-internal.h). Its
 * sites come in two copies: this file's, in the mode the architecture picks,
 * and marker_kunit_portable.c's, forced to portable mode; every case that
 * takes a parameter runs on both.
 *
 * Probes run with preemption disabled, where a failing KUNIT_EXPECT_*()
 * would allocate with GFP_KERNEL: they record what they saw in counters,
 * and the cases check the counters.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/stringify.h>
#include <linux/timekeeping.h>
#include <wrapper/jump-label.h>

#include "marker-internal.h"
#include "marker_kunit.h"

#define MKT_SUFFIX	default
#define MKT_TARGETS	mkt_default_targets
#ifdef CONFIG_JUMP_LABEL
#define MKT_DESC	"near-zero"
#else
#define MKT_DESC	"portable (no jump labels)"
#endif
#include "marker_kunit_sites.h"

#define MKT_MAX_SITES	4
#define MKT_FIRES	8

/* -- Probes ----------------------------------------------------------------- */

/* A probe's private data: which probe it is, and how often it ran. */
struct mkt_data {
	atomic_t hits;
};

static struct mkt_data mkt_d1, mkt_d2, mkt_d3;

static atomic_t mkt_bad_context;	/* a probe ran preemptible */
static atomic_t mkt_bad_args;		/* a probe saw other arguments than fired */
static atomic_t mkt_fn1_hits, mkt_fn2_hits;	/* which function ran */
static int mkt_int_arg;			/* what fire_int passes now */

/* The arguments mkt_fire_types() is passing now. */
static struct {
	bool b;
	char c;
	unsigned short h;
	int i;
	unsigned int u;
	long l;
	u64 q;
	void *p;
	const char *s;
} mkt_types_args;

static void mkt_check_context(void)
{
	/* probes run under preempt_disable_notrace() */
	if (preemptible())
		atomic_inc(&mkt_bad_context);
}

static void mkt_probe_int(void *data, int v)
{
	struct mkt_data *d = data;

	mkt_check_context();
	if (v != READ_ONCE(mkt_int_arg))
		atomic_inc(&mkt_bad_args);
	atomic_inc(&mkt_fn1_hits);
	atomic_inc(&d->hits);
}

/* The same as mkt_probe_int(), but another function. */
static void mkt_probe_int2(void *data, int v)
{
	struct mkt_data *d = data;

	mkt_check_context();
	if (v != READ_ONCE(mkt_int_arg))
		atomic_inc(&mkt_bad_args);
	atomic_inc(&mkt_fn2_hits);
	atomic_inc(&d->hits);
}

static void mkt_probe_types(void *data, bool b, char c, unsigned short h,
			    int i, unsigned int u, long l, u64 q, void *p,
			    const char *s)
{
	struct mkt_data *d = data;

	mkt_check_context();
	if (b != mkt_types_args.b || c != mkt_types_args.c ||
	    h != mkt_types_args.h || i != mkt_types_args.i ||
	    u != mkt_types_args.u || l != mkt_types_args.l ||
	    q != mkt_types_args.q || p != mkt_types_args.p ||
	    s != mkt_types_args.s)
		atomic_inc(&mkt_bad_args);
	atomic_inc(&d->hits);
}

static void mkt_probe_none(void *data)
{
	struct mkt_data *d = data;

	mkt_check_context();
	atomic_inc(&d->hits);
}

/* The arguments a generic probe must see for mkt_types_args, as u64. */
static void mkt_types_u64(u64 *v)
{
	v[0] = (u64)mkt_types_args.b;
	v[1] = (u64)mkt_types_args.c;		/* char is signed on x86 */
	v[2] = (u64)mkt_types_args.h;
	v[3] = (u64)mkt_types_args.i;		/* sign-extended */
	v[4] = (u64)mkt_types_args.u;
	v[5] = (u64)mkt_types_args.l;
	v[6] = mkt_types_args.q;
	v[7] = (u64)mkt_types_args.p;
	v[8] = (u64)mkt_types_args.s;
}

static const char *mkt_generic_expect_name;

static void mkt_probe_generic(void *data, struct marker_site *site,
			      const u64 *args)
{
	struct mkt_data *d = data;
	u64 want[9];

	mkt_check_context();
	mkt_types_u64(want);
	if (strcmp(site->name, mkt_generic_expect_name) ||
	    strcmp(site->sig, "bcHiIlQps") || memcmp(args, want, sizeof(want)))
		atomic_inc(&mkt_bad_args);
	atomic_inc(&d->hits);
}

/* Never connected: the registry must refuse them. Running counts as bad. */
static void mkt_probe_long(void *data, long v)
{
	atomic_inc(&mkt_bad_args);
}

static void mkt_probe_uint(void *data, unsigned int v)
{
	atomic_inc(&mkt_bad_args);
}

static void mkt_probe_types_swapped(void *data, bool b, char c,
				    unsigned short h, int i, unsigned int u,
				    long l, u64 q, const char *s, void *p)
{
	atomic_inc(&mkt_bad_args);
}

static void mkt_probe_types_fewer(void *data, bool b, char c,
				  unsigned short h, int i, unsigned int u,
				  long l, u64 q, void *p)
{
	atomic_inc(&mkt_bad_args);
}

static void mkt_probe_types_more(void *data, bool b, char c,
				 unsigned short h, int i, unsigned int u,
				 long l, u64 q, void *p, const char *s, int x)
{
	atomic_inc(&mkt_bad_args);
}

static void mkt_probe_types_signed(void *data, bool b, char c, short h,
				   int i, unsigned int u, long l, u64 q,
				   void *p, const char *s)
{
	atomic_inc(&mkt_bad_args);
}

/*
 * Templates: MARKER_PROBE() checks each function's type against the types
 * listed. The marker name is set per case, to the copy being tested.
 */
static const struct marker_probe mkt_int_tmpl =
	MARKER_PROBE(mkt, mkt_probe_int, NULL, int);
static const struct marker_probe mkt_int2_tmpl =
	MARKER_PROBE(mkt, mkt_probe_int2, NULL, int);
static const struct marker_probe mkt_long_tmpl =
	MARKER_PROBE(mkt, mkt_probe_long, NULL, long);
static const struct marker_probe mkt_uint_tmpl =
	MARKER_PROBE(mkt, mkt_probe_uint, NULL, unsigned int);
static const struct marker_probe mkt_none_tmpl =
	MARKER_PROBE(mkt, mkt_probe_none, NULL);
static const struct marker_probe mkt_types_tmpl =
	MARKER_PROBE(mkt, mkt_probe_types, NULL, bool, char, unsigned short,
		     int, unsigned int, long, u64, void *, const char *);
static const struct marker_probe mkt_types_swapped_tmpl =
	MARKER_PROBE(mkt, mkt_probe_types_swapped, NULL, bool, char,
		     unsigned short, int, unsigned int, long, u64,
		     const char *, void *);
static const struct marker_probe mkt_types_fewer_tmpl =
	MARKER_PROBE(mkt, mkt_probe_types_fewer, NULL, bool, char,
		     unsigned short, int, unsigned int, long, u64, void *);
static const struct marker_probe mkt_types_more_tmpl =
	MARKER_PROBE(mkt, mkt_probe_types_more, NULL, bool, char,
		     unsigned short, int, unsigned int, long, u64, void *,
		     const char *, int);
static const struct marker_probe mkt_types_signed_tmpl =
	MARKER_PROBE(mkt, mkt_probe_types_signed, NULL, bool, char, short,
		     int, unsigned int, long, u64, void *, const char *);
static const struct marker_probe mkt_generic_tmpl =
	MARKER_PROBE_GENERIC(mkt, mkt_probe_generic, NULL);

/* The cases' probes; static, so that the exit hook can always clean up. */
static struct marker_probe mkt_p1, mkt_p2, mkt_p3;

static void mkt_probe_set(struct marker_probe *p,
			  const struct marker_probe *tmpl, const char *marker,
			  struct mkt_data *data)
{
	if (p->registered)	/* never overwrite the registry's links */
		marker_probe_unregister(p);
	*p = *tmpl;
	p->marker = marker;
	p->data = data;
}

/* -- The registry's view ----------------------------------------------------- */

static const struct mkt_targets *mkt_param(struct kunit *test)
{
	return *(const struct mkt_targets * const *)test->param_value;
}

/* The sites the registry knows for @name, at most MKT_MAX_SITES. */
static int mkt_sites(const char *name, struct marker_site **sites)
{
	struct marker_entry *e;
	struct marker_rec *rec;
	int n = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list) {
		if (strcmp(e->name, name))
			continue;
		list_for_each_entry(rec, &e->sites, node)
			if (n < MKT_MAX_SITES)
				sites[n++] = rec->site;
	}
	mutex_unlock(&marker_mutex);
	return n;
}

/* Does the registry have an entry for @name, and with how many probes? */
static int mkt_entry_probes(const char *name)
{
	struct marker_probe *probe;
	struct marker_entry *e;
	int n = -1;

	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list) {
		if (strcmp(e->name, name))
			continue;
		n = 0;
		list_for_each_entry(probe, &e->probes, node)
			n++;
	}
	mutex_unlock(&marker_mutex);
	return n;
}

static unsigned int mkt_nr_entries(void)
{
	struct marker_entry *e;
	unsigned int n = 0;

	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list)
		n++;
	mutex_unlock(&marker_mutex);
	return n;
}

/* The listing's state of @site; under marker_mutex. */
static const char *mkt_state_locked(struct marker_site *site)
{
	return marker_site_state(marker_rec_find(site));
}

/* Is the site itself patched: the static key, or the jump target? */
static bool mkt_site_patched(struct marker_site *site)
{
	if (site->key)
		return static_key_enabled(site->key);
	return READ_ONCE(site->jump) != MARKER_JUMP_OVER;
}

/*
 * Every site of @name has the probes of @data connected, in that order, and
 * is armed; with @nr == 0, every site is disarmed and back at its defaults.
 */
static void mkt_expect_connected(struct kunit *test, const char *name,
				 struct mkt_data *const *data, unsigned int nr)
{
	struct marker_site *sites[MKT_MAX_SITES];
	int n = mkt_sites(name, sites), i;
	unsigned int j;
	bool generic;

	KUNIT_EXPECT_GT_MSG(test, n, 0, "%s: no site", name);
	mutex_lock(&marker_mutex);
	for (i = 0; i < n; i++) {
		struct marker_site *site = sites[i];
		struct marker_rec *rec = marker_rec_find(site);
		struct marker_funcs *funcs = __marker_site_funcs(site);
		int code = marker_site_code(rec, NULL);

		if (!nr) {
			KUNIT_EXPECT_NULL_MSG(test, funcs, "%s", name);
			KUNIT_EXPECT_STREQ(test, marker_site_state(rec),
					   "disarmed");
			KUNIT_EXPECT_TRUE(test, marker_site_at_defaults(rec));
			KUNIT_EXPECT_FALSE(test, mkt_site_patched(site));
			KUNIT_EXPECT_NULL(test, READ_ONCE(site->call.func));
			/* near-zero: every jump entry of the site is a NOP */
			if (site->mode == MARKER_MODE_NEARZERO)
				KUNIT_EXPECT_GE_MSG(test, code, 1, "%s", name);
			continue;
		}
		KUNIT_EXPECT_STREQ(test, marker_site_state(rec), "armed");
		KUNIT_EXPECT_TRUE(test, mkt_site_patched(site));
		if (site->mode == MARKER_MODE_NEARZERO)
			KUNIT_EXPECT_EQ_MSG(test, code, -1,
					    "%s: armed, but its code is NOPs", name);
		KUNIT_EXPECT_NOT_NULL(test, funcs);
		if (!funcs)
			continue;
		KUNIT_EXPECT_EQ(test, funcs->nr, nr);
		generic = false;
		for (j = 0; j < funcs->nr; j++) {
			if (j < nr)
				KUNIT_EXPECT_PTR_EQ(test, funcs->f[j].data,
						    (void *)data[j]);
			generic |= funcs->f[j].generic;
		}
		/* only typed probes: the helper calls them without an array */
		KUNIT_EXPECT_EQ_MSG(test, funcs->generic, generic, "%s", name);
		/* the entry after the last ends the typed probes' loop */
		KUNIT_EXPECT_NULL_MSG(test, funcs->f[funcs->nr].func, "%s", name);
	}
	mutex_unlock(&marker_mutex);
}

/*
 * One typed probe: the site calls it directly, through its trampoline
 * retargeted at @func (where the architecture has static calls).
 */
static void mkt_expect_direct(struct kunit *test, const char *name, void *func)
{
	struct marker_site *sites[MKT_MAX_SITES];
	int n = mkt_sites(name, sites), i;

	mutex_lock(&marker_mutex);
	for (i = 0; i < n; i++) {
		struct marker_funcs *funcs = __marker_site_funcs(sites[i]);

		if (!sites[i]->tramp)
			continue;
		KUNIT_EXPECT_TRUE(test, funcs && marker_site_direct(sites[i]));
		KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(sites[i]->call.func), func);
	}
	mutex_unlock(&marker_mutex);
}

/* @probe's count, as the probes file shows it */
static unsigned long mkt_probe_hits(const struct marker_probe *probe)
{
	unsigned long hits;

	mutex_lock(&marker_mutex);
	hits = marker_probe_hits(probe);
	mutex_unlock(&marker_mutex);
	return hits;
}

static void mkt_reset_hits(void)
{
	atomic_set(&mkt_d1.hits, 0);
	atomic_set(&mkt_d2.hits, 0);
	atomic_set(&mkt_d3.hits, 0);
	atomic_set(&mkt_fn1_hits, 0);
	atomic_set(&mkt_fn2_hits, 0);
}

/* Run the int site @n times with a random value; check who saw it. */
static void mkt_fire_int(struct kunit *test, const struct mkt_targets *t,
			 int d1, int d2, int d3)
{
	int i;

	mkt_reset_hits();
	WRITE_ONCE(mkt_int_arg, (int)get_random_u32());
	for (i = 0; i < MKT_FIRES; i++)
		t->fire_int(READ_ONCE(mkt_int_arg));
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), d1 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d2.hits), d2 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d3.hits), d3 * MKT_FIRES);
}

static void mkt_random_types(void)
{
	u32 r = get_random_u32();

	mkt_types_args.b = r & 1;
	mkt_types_args.c = -(char)(r % 100) - 1;
	mkt_types_args.h = 40000 + r % 20000;
	mkt_types_args.i = -(int)(r >> 1) - 1;
	mkt_types_args.u = 0x80000000u | r;
	mkt_types_args.l = -((long)r << 20);
	mkt_types_args.q = ((u64)r << 32) | 0xdeadbeef;
	mkt_types_args.p = &mkt_types_args;
	mkt_types_args.s = "mkt";
}

static void mkt_fire_types(const struct mkt_targets *t)
{
	mkt_random_types();
	t->fire_types(mkt_types_args.b, mkt_types_args.c, mkt_types_args.h,
		      mkt_types_args.i, mkt_types_args.u, mkt_types_args.l,
		      mkt_types_args.q, mkt_types_args.p, mkt_types_args.s);
}

/* No probe ran in the wrong context or saw the wrong arguments. */
static void mkt_expect_clean(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_bad_context), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_bad_args), 0);
}

/* -- Allocation failures (marker_kunit_fail.c) ------------------------------ */

/* What a failed call must leave as it found it. */
struct mkt_snapshot {
	unsigned int entries;
	int probes;
	int nr;
	struct {
		void *funcs;
		void *call;
		bool patched;
	} site[MKT_MAX_SITES];
};

static void mkt_snapshot(struct mkt_snapshot *s, const char *name)
{
	struct marker_site *sites[MKT_MAX_SITES];
	int i;

	memset(s, 0, sizeof(*s));
	s->entries = mkt_nr_entries();
	s->probes = mkt_entry_probes(name);
	s->nr = mkt_sites(name, sites);
	mutex_lock(&marker_mutex);
	for (i = 0; i < s->nr; i++) {
		s->site[i].funcs = __marker_site_funcs(sites[i]);
		s->site[i].call = READ_ONCE(sites[i]->call.func);
		s->site[i].patched = mkt_site_patched(sites[i]);
	}
	mutex_unlock(&marker_mutex);
}

static void mkt_expect_unchanged(struct kunit *test, const char *name,
				 const struct mkt_snapshot *before, int n)
{
	struct mkt_snapshot after;
	int i;

	mkt_snapshot(&after, name);
	KUNIT_EXPECT_EQ_MSG(test, after.entries, before->entries,
			    "%s: allocation %d failed", name, n);
	KUNIT_EXPECT_EQ_MSG(test, after.probes, before->probes,
			    "%s: allocation %d failed", name, n);
	KUNIT_EXPECT_EQ(test, after.nr, before->nr);
	for (i = 0; i < before->nr && i < after.nr; i++) {
		KUNIT_EXPECT_PTR_EQ_MSG(test, after.site[i].funcs,
					before->site[i].funcs,
					"%s: allocation %d failed", name, n);
		KUNIT_EXPECT_PTR_EQ(test, after.site[i].call,
				    before->site[i].call);
		KUNIT_EXPECT_EQ(test, after.site[i].patched,
				before->site[i].patched);
	}
}

/*
 * A registration that succeeded although allocation @n failed: @p is
 * registered and connected to every site of its name, each patched.
 */
static void mkt_expect_armed(struct kunit *test, struct marker_probe *p, int n)
{
	struct marker_site *sites[MKT_MAX_SITES];
	int i, nr;

	KUNIT_EXPECT_TRUE(test, p->registered);
	nr = mkt_sites(p->marker, sites);
	mutex_lock(&marker_mutex);
	for (i = 0; i < nr; i++) {
		KUNIT_EXPECT_TRUE_MSG(test,
				      marker_funcs_has(__marker_site_funcs(sites[i]), p),
				      "%s: allocation %d failed: not connected",
				      p->marker, n);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_site_patched(sites[i]),
				      "%s: allocation %d failed: not patched",
				      p->marker, n);
	}
	mutex_unlock(&marker_mutex);
}

/*
 * Register @p while one slab allocation fails: the first, then the second,
 * and so on until the call needs no more than it got. Every failure must
 * return -ENOMEM and leave the registry as it was: the same entries, every
 * site as it was (nothing half-armed), the probe not registered, nothing
 * that the call allocated left behind. The one exception, in a tree that
 * carries the markers: static_key_slow_inc_many() absorbs the failure of
 * its own allocation (it then patches the keys one by one), after the
 * registry has published everything; the call succeeds, fully armed.
 */
static void mkt_register_failing(struct kunit *test, struct marker_probe *p)
{
	struct mkt_snapshot before;
	int n, ret = -ENOMEM, failed, leaked, failures = 0;

	for (n = 0; n < 16; n++) {
		mkt_snapshot(&before, p->marker);
		mkt_fail_start(n, 1);
		ret = marker_probe_register(p);
		failed = mkt_fail_stop(test, &leaked);
		if (!ret && failed && MARKER_KEYS_BATCHED) {
			/* absorbed by static_key_slow_inc_many(): armed */
			mkt_expect_armed(test, p, n);
			marker_probe_unregister(p);
			continue;
		}
		if (!ret) {
			KUNIT_EXPECT_EQ_MSG(test, failed, 0,
					    "allocation %d failed, but register succeeded",
					    n);
			break;
		}
		failures++;
		KUNIT_EXPECT_EQ(test, ret, -ENOMEM);
		KUNIT_EXPECT_EQ(test, failed, 1);
		KUNIT_EXPECT_FALSE(test, p->registered);
		KUNIT_EXPECT_EQ_MSG(test, leaked, 0,
				    "%s: allocation %d failed, %d objects leaked",
				    p->marker, n, leaked);
		mkt_expect_unchanged(test, p->marker, &before, n);
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	/* the registry allocates when it connects: the injection reached it */
	KUNIT_EXPECT_GT(test, failures, 0);
}

/* -- Cases ------------------------------------------------------------------- */

/* The registry knows every site of the copy, as MARK() left it. */
static void mkt_sites_found(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	static const struct {
		int off;	/* of the name in struct mkt_targets */
		int sites;
		const char *sig;
	} want[] = {
		{ offsetof(struct mkt_targets, m_int), 1, "i" },
		{ offsetof(struct mkt_targets, m_types), 1, "bcHiIlQps" },
		{ offsetof(struct mkt_targets, m_none), 1, "" },
		{ offsetof(struct mkt_targets, m_multi), 2, "i" },
		{ offsetof(struct mkt_targets, m_spin), 1, "i" },
		{ offsetof(struct mkt_targets, m_absent), 0, NULL },
	};
	struct marker_site *sites[MKT_MAX_SITES];
	unsigned int w;
	int n, i;

	for (w = 0; w < ARRAY_SIZE(want); w++) {
		const char *name =
			*(const char * const *)((const void *)t + want[w].off);

		n = mkt_sites(name, sites);
		KUNIT_EXPECT_EQ_MSG(test, n, want[w].sites, "%s", name);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ(test, sites[i]->abi, MARKER_SITE_ABI);
			KUNIT_EXPECT_EQ(test, sites[i]->mode, t->mode);
			/* NULL, vmlinux, when the registry is built in */
			mutex_lock(&marker_mutex);
			KUNIT_EXPECT_PTR_EQ(test,
					    marker_rec_find(sites[i])->mod,
					    THIS_MODULE);
			mutex_unlock(&marker_mutex);
			KUNIT_EXPECT_STREQ(test, sites[i]->sig, want[w].sig);
			KUNIT_EXPECT_EQ(test, (int)sites[i]->nargs,
					(int)strlen(want[w].sig));
		}
		if (n)
			mkt_expect_connected(test, name, NULL, 0);
	}
	/* disarmed: nothing happens */
	mkt_fire_int(test, t, 0, 0, 0);
}

/*
 * Each probe's own count, exact through arrays of typed probes that count
 * their fires and are replaced (1 -> 2 -> 3 -> 2 -> 0 probes): read while
 * the retired arrays wait for their grace period, after a probe of them is
 * released, and once they are folded into the counts (rcu_barrier()).
 */
static void mkt_typed_counts(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct marker_probe *both[] = { &mkt_p1, &mkt_p3 };

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_probe_set(&mkt_p2, &mkt_int_tmpl, t->m_int, &mkt_d2);
	mkt_probe_set(&mkt_p3, &mkt_int_tmpl, t->m_int, &mkt_d3);

	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_fire_int(test, t, 1, 0, 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_fire_int(test, t, 1, 1, 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p3), 0);
	/* {p1, p2} retired: folded or not yet, the counts read the same */
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), 2 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p2), MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p3), 0);
	mkt_fire_int(test, t, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), 3 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p2), 2 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p3), MKT_FIRES);

	/* p2's count freed while arrays that hold it may wait to be folded */
	marker_probe_unregister(&mkt_p2);
	KUNIT_EXPECT_NULL(test, mkt_p2.hits);
	mkt_fire_int(test, t, 1, 0, 1);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), 4 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p3), 2 * MKT_FIRES);
	rcu_barrier();		/* every retired array folded */
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), 4 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p3), 2 * MKT_FIRES);

	marker_probe_unregister_many(both, ARRAY_SIZE(both));
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);
	mkt_expect_clean(test);
}

/*
 * Probe counts 0 -> 1 -> 2 -> 1 -> 0 on one site, then again after the
 * disarm, with the private data of each probe checked at every step.
 */
static void mkt_transitions(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct mkt_data *const d2[] = { &mkt_d2 };
	struct mkt_data *const d12[] = { &mkt_d1, &mkt_d2 };

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_probe_set(&mkt_p2, &mkt_int_tmpl, t->m_int, &mkt_d2);

	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);

	/* 0 -> 1: one typed probe, called directly */
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_EXPECT_TRUE(test, mkt_p1.registered);
	mkt_expect_connected(test, t->m_int, d1, 1);
	mkt_expect_direct(test, t->m_int, mkt_probe_int);
	mkt_fire_int(test, t, 1, 0, 0);

	/* 1 -> 2: the same function with other data */
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_expect_connected(test, t->m_int, d12, 2);
	mkt_fire_int(test, t, 1, 1, 0);
	/* each consumer's own count: direct, then through the helper */
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), 2 * MKT_FIRES);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p2), MKT_FIRES);

	/* 2 -> 1: the first one leaves, its count freed */
	marker_probe_unregister(&mkt_p1);
	KUNIT_EXPECT_FALSE(test, mkt_p1.registered);
	KUNIT_EXPECT_NULL(test, mkt_p1.hits);
	mkt_expect_connected(test, t->m_int, d2, 1);
	mkt_fire_int(test, t, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p2), 2 * MKT_FIRES);

	/* 1 -> 0: site and trampoline back at their defaults */
	marker_probe_unregister(&mkt_p2);
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);

	/* re-arm after the disarm: 0 -> 1 -> 0, counting from 0 again */
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_int, d1, 1);
	mkt_expect_direct(test, t->m_int, mkt_probe_int);
	mkt_fire_int(test, t, 1, 0, 0);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(&mkt_p1), MKT_FIRES);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);
	mkt_expect_clean(test);
}

/*
 * Two different functions: when the first leaves, the one left must not be
 * reached through the trampoline, which still targets the first.
 */
static void mkt_transitions_two_functions(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d3[] = { &mkt_d3 };
	struct mkt_data *const d13[] = { &mkt_d1, &mkt_d3 };

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_probe_set(&mkt_p3, &mkt_int2_tmpl, t->m_int, &mkt_d3);

	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p3), 0);
	mkt_expect_connected(test, t->m_int, d13, 2);
	mkt_fire_int(test, t, 1, 0, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn1_hits), MKT_FIRES);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn2_hits), MKT_FIRES);

	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_int, d3, 1);
	mkt_fire_int(test, t, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn1_hits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn2_hits), MKT_FIRES);

	marker_probe_unregister(&mkt_p3);
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);
	mkt_expect_clean(test);
}

/* Every site of a marker arms and disarms together. */
static void mkt_all_sites(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_multi, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_multi, d1, 1);
	mkt_reset_hits();
	WRITE_ONCE(mkt_int_arg, (int)get_random_u32());
	t->fire_multi(mkt_int_arg);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), 2);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_multi, NULL, 0);
	mkt_reset_hits();
	t->fire_multi(mkt_int_arg);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), 0);
	mkt_expect_clean(test);
}

/* Refuse @tmpl on @marker as a signature mismatch, changing nothing. */
static void mkt_expect_mismatch(struct kunit *test, const char *marker,
				const struct marker_probe *tmpl)
{
	struct mkt_snapshot before;

	mkt_snapshot(&before, marker);
	mkt_probe_set(&mkt_p3, tmpl, marker, &mkt_d3);
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_register(&mkt_p3), -EINVAL,
			    "%ps on %s", tmpl->func, marker);
	KUNIT_EXPECT_FALSE(test, mkt_p3.registered);
	mkt_expect_unchanged(test, marker, &before, -1);
}

/*
 * marker_action_attach(): the probe it returns keeps copies of the
 * pattern and the predicate, is connected to what the pattern names and
 * counts its hits; marker_action_detach() puts the sites back. A
 * predicate the marker refuses leaves nothing connected.
 */
static void mkt_action_attach(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	char pattern[64], filter[] = "arg1 < 0 || arg1 >= 0";
	struct marker_probe *probe;
	int i;

	strscpy(pattern, t->m_int, sizeof(pattern));
	probe = marker_action_attach(pattern, marker_action("count"), &mkt_d1,
				     filter);
	KUNIT_ASSERT_FALSE(test, IS_ERR(probe));
	pattern[0] = 'x';
	filter[0] = 'x';
	KUNIT_EXPECT_STREQ(test, probe->marker, t->m_int);
	KUNIT_EXPECT_STREQ(test, probe->filter, "arg1 < 0 || arg1 >= 0");
	KUNIT_EXPECT_TRUE(test, probe->generic && probe->registered);
	KUNIT_EXPECT_PTR_EQ(test, probe->data, (void *)&mkt_d1);
	{
		/* with a predicate, the site calls its wrapper on the probe */
		struct mkt_data *const dp[] = { (struct mkt_data *)probe };

		mkt_expect_connected(test, t->m_int, dp, 1);
	}
	for (i = 0; i < MKT_FIRES; i++)
		t->fire_int(i - MKT_FIRES / 2);
	KUNIT_EXPECT_EQ(test, mkt_probe_hits(probe), MKT_FIRES);
	marker_action_detach(probe);
	mkt_expect_connected(test, t->m_int, NULL, 0);

	probe = marker_action_attach(t->m_int, marker_action("count"), NULL,
				     "arg2 == 1");
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(probe), -EINVAL);
	mkt_expect_connected(test, t->m_int, NULL, 0);

	/* no name, an unknown action's NULL: refused, nothing kept */
	probe = marker_action_attach(NULL, marker_action("count"), NULL, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(probe), -EINVAL);
	probe = marker_action_attach(t->m_int, marker_action("dance"), NULL,
				     NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(probe), -EINVAL);
	mkt_expect_connected(test, t->m_int, NULL, 0);
}

/*
 * An inline marker: the action inline alone arms it, and arms nothing
 * else; its block runs while armed; a pattern probe passes over the
 * markers of the other kind.
 */
static void mkt_inline(struct kunit *test)
{
	struct marker_probe inline_tmpl = mkt_generic_tmpl;
	struct marker_probe count_tmpl = mkt_generic_tmpl;
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct mkt_data *const d2[] = { &mkt_d2 };
	char pattern[64];
	atomic_t ran;
	int i;

	inline_tmpl.func = marker_action("inline");
	count_tmpl.func = marker_action("count");

	atomic_set(&ran, 0);
	for (i = 0; i < MKT_FIRES; i++)
		t->fire_check(&ran);
	KUNIT_EXPECT_EQ(test, atomic_read(&ran), 0);
	mkt_expect_connected(test, t->m_check, NULL, 0);

	mkt_probe_set(&mkt_p1, &inline_tmpl, t->m_check, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_check, d1, 1);
	for (i = 0; i < MKT_FIRES; i++)
		t->fire_check(&ran);
	KUNIT_EXPECT_EQ(test, atomic_read(&ran), MKT_FIRES);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_check, NULL, 0);
	t->fire_check(&ran);
	KUNIT_EXPECT_EQ(test, atomic_read(&ran), MKT_FIRES);

	/* no probe but inline on an inline marker, inline on no other */
	mkt_expect_mismatch(test, t->m_check, &count_tmpl);
	mkt_expect_mismatch(test, t->m_check, &mkt_generic_tmpl);
	mkt_expect_mismatch(test, t->m_check, &mkt_none_tmpl);
	mkt_expect_mismatch(test, t->m_none, &inline_tmpl);
	mkt_expect_mismatch(test, t->m_int, &inline_tmpl);

	/* a pattern naming both kinds: each action takes its own kind */
	snprintf(pattern, sizeof(pattern), "mkt_[cn][ho]*_%s",
		 t->m_check + strlen("mkt_check_"));
	mkt_probe_set(&mkt_p1, &count_tmpl, pattern, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_probe_set(&mkt_p2, &inline_tmpl, pattern, &mkt_d2);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_expect_connected(test, t->m_none, d1, 1);
	mkt_expect_connected(test, t->m_check, d2, 1);
	t->fire_check(&ran);
	KUNIT_EXPECT_EQ(test, atomic_read(&ran), MKT_FIRES + 1);
	marker_probe_unregister(&mkt_p2);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_none, NULL, 0);
	mkt_expect_connected(test, t->m_check, NULL, 0);
}

/* The int marker with @filter: is its probe called for @v? */
static void mkt_pred_int(struct kunit *test, const struct mkt_targets *t,
			 const char *filter, int v, bool pass)
{
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_p1.filter = filter;
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_reset_hits();
	WRITE_ONCE(mkt_int_arg, v);
	t->fire_int(v);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&mkt_d1.hits), pass,
			    "%s with %d", filter, v);
	KUNIT_EXPECT_EQ_MSG(test, mkt_probe_hits(&mkt_p1), pass,
			    "%s with %d", filter, v);
	marker_probe_unregister(&mkt_p1);
	KUNIT_EXPECT_NULL(test, mkt_p1.pred);
}

/* The types marker with @filter and the string @str: is @tmpl called? */
static void mkt_pred_types(struct kunit *test, const struct mkt_targets *t,
			   const struct marker_probe *tmpl, const char *filter,
			   const char *str, bool pass)
{
	mkt_probe_set(&mkt_p1, tmpl, t->m_types, &mkt_d1);
	mkt_p1.filter = filter;
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_reset_hits();
	mkt_generic_expect_name = t->m_types;
	mkt_random_types();
	mkt_types_args.i = -7;
	mkt_types_args.u = 7;
	mkt_types_args.s = str;
	t->fire_types(mkt_types_args.b, mkt_types_args.c, mkt_types_args.h,
		      mkt_types_args.i, mkt_types_args.u, mkt_types_args.l,
		      mkt_types_args.q, mkt_types_args.p, mkt_types_args.s);
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&mkt_d1.hits), pass,
			    "%s with \"%s\"", filter, str);
	marker_probe_unregister(&mkt_p1);
}

/* A predicate refused with -EINVAL, nothing connected or kept. */
static void mkt_pred_refused(struct kunit *test, const char *marker,
			     const struct marker_probe *tmpl,
			     const char *filter)
{
	mkt_probe_set(&mkt_p1, tmpl, marker, &mkt_d1);
	mkt_p1.filter = filter;
	KUNIT_EXPECT_EQ_MSG(test, marker_probe_register(&mkt_p1), -EINVAL,
			    "%s on %s", filter, marker);
	KUNIT_EXPECT_FALSE(test, mkt_p1.registered);
	KUNIT_EXPECT_NULL(test, mkt_p1.pred);
	KUNIT_EXPECT_NULL(test, mkt_p1.hits);
	if (marker != mkt_param(test)->m_absent)
		mkt_expect_connected(test, marker, NULL, 0);
}

/*
 * Predicates: true and false on ints (signed and unsigned) and strings,
 * equal and glob, for a typed probe (called through the predicate with
 * its C arguments) and a generic one; a wild string pointer reads
 * "(fault)"; what does not parse or fit is refused.
 */
static void mkt_predicates(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);

	mkt_pred_int(test, t, "arg1 == 5", 5, true);
	mkt_pred_int(test, t, "arg1 == 5", 6, false);
	mkt_pred_int(test, t, "arg1 < -2", -3, true);
	mkt_pred_int(test, t, "arg1 < -2", -2, false);
	mkt_pred_int(test, t, "arg1 >= 7 && arg1 <= 0x9", 9, true);
	mkt_pred_int(test, t, "arg1 >= 7 && arg1 <= 0x9", 10, false);
	mkt_pred_int(test, t, "arg1 == 1 || !(arg1 > 0)", -5, true);
	mkt_pred_int(test, t, "arg1 == 1 || !(arg1 > 0)", 2, false);
	mkt_pred_int(test, t, "arg1!=3&&(arg1==4||arg1==5)", 5, true);

	/* arg4 is an int (-7), arg5 an unsigned int (7), arg9 the string */
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 == \"eth0\"", "eth0", true);
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 == \"eth0\"", "eth01", false);
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 != \"eth0\"", "eth1", true);
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 == \"e?h[0-9]*\"", "eth12", true);
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 != \"eth*\"", "eth12", false);
	mkt_pred_types(test, t, &mkt_generic_tmpl,
		       "arg4 < 0 && arg5 > 6 && arg9 == \"a b\"", "a b", true);
	mkt_pred_types(test, t, &mkt_generic_tmpl,
		       "arg4 > 0 || arg9 == \"a\"", "a b", false);
	mkt_pred_types(test, t, &mkt_types_tmpl, "arg9 == \"(fault)\"",
		       (const char *)16, true);
	mkt_expect_clean(test);

	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg1 ==");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg1 == 1 &&");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "(arg1 == 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg1 = 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg1 == 1x");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg0 == 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg11 == 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg2 == 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "len == 1");
	mkt_pred_refused(test, t->m_int, &mkt_int_tmpl, "arg1 == \"1\"");
	mkt_pred_refused(test, t->m_types, &mkt_generic_tmpl, "arg9 == 1");
	mkt_pred_refused(test, t->m_types, &mkt_generic_tmpl, "arg9 < \"b\"");
	mkt_pred_refused(test, t->m_types, &mkt_generic_tmpl, "arg9 == \"b");
	mkt_pred_refused(test, t->m_types, &mkt_generic_tmpl,
			 "!!!!!!!!!!!!!!!!!(arg1 == 1)");
	/* a pending probe: argN waits for its site, a name cannot */
	mkt_pred_refused(test, t->m_absent, &mkt_int_tmpl, "len == 1");
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_absent, &mkt_d1);
	mkt_p1.filter = "arg1 == 1";
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_EXPECT_NOT_NULL(test, mkt_p1.pred);
	marker_probe_unregister(&mkt_p1);
	KUNIT_EXPECT_NULL(test, mkt_p1.pred);
	mkt_expect_clean(test);
}

/* Signatures: matches, mismatches of every kind, several types. */
static void mkt_signatures(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct mkt_data *const d12[] = { &mkt_d1, &mkt_d2 };
	int i;

	/* int: match, then long and unsigned int refused */
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_fire_int(test, t, 1, 0, 0);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_mismatch(test, t->m_int, &mkt_long_tmpl);
	mkt_expect_mismatch(test, t->m_int, &mkt_uint_tmpl);
	mkt_expect_mismatch(test, t->m_int, &mkt_none_tmpl);
	mkt_expect_mismatch(test, t->m_int, &mkt_types_tmpl);

	/* nine types: the exact values arrive; any difference is refused */
	mkt_probe_set(&mkt_p1, &mkt_types_tmpl, t->m_types, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_types, d1, 1);
	mkt_reset_hits();
	for (i = 0; i < MKT_FIRES; i++)
		mkt_fire_types(t);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), MKT_FIRES);
	mkt_expect_mismatch(test, t->m_types, &mkt_types_swapped_tmpl);
	mkt_expect_mismatch(test, t->m_types, &mkt_types_fewer_tmpl);
	mkt_expect_mismatch(test, t->m_types, &mkt_types_more_tmpl);
	mkt_expect_mismatch(test, t->m_types, &mkt_types_signed_tmpl);
	mkt_expect_mismatch(test, t->m_types, &mkt_int_tmpl);

	/* a generic probe takes any marker, with the arguments as u64 */
	WRITE_ONCE(mkt_generic_expect_name, t->m_types);
	mkt_probe_set(&mkt_p2, &mkt_generic_tmpl, t->m_types, &mkt_d2);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_expect_connected(test, t->m_types, d12, 2);
	mkt_reset_hits();
	for (i = 0; i < MKT_FIRES; i++)
		mkt_fire_types(t);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), MKT_FIRES);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d2.hits), MKT_FIRES);
	marker_probe_unregister(&mkt_p2);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_types, NULL, 0);

	/* no arguments */
	mkt_probe_set(&mkt_p1, &mkt_none_tmpl, t->m_none, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_reset_hits();
	t->fire_none();
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), 1);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_mismatch(test, t->m_none, &mkt_int_tmpl);

	/* malformed, duplicate, typed with a pattern */
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_p1.sig = NULL;
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EINVAL);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_p1.func = NULL;
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EINVAL);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, "mkt_int_*", &mkt_d1);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EINVAL);
	KUNIT_EXPECT_FALSE(test, mkt_p1.registered);

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_probe_set(&mkt_p2, &mkt_int_tmpl, t->m_int, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EEXIST);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p2), -EEXIST);
	KUNIT_EXPECT_FALSE(test, mkt_p2.registered);
	mkt_expect_connected(test, t->m_int, d1, 1);
	mkt_fire_int(test, t, 1, 0, 0);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_expect_clean(test);
}

/* Probes for a marker without sites wait, pending, and touch nothing. */
static void mkt_pending(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	unsigned int entries = mkt_nr_entries();
	char *pattern;

	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_absent), -1);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_absent, &mkt_d1);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_EXPECT_TRUE(test, mkt_p1.registered);
	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_absent), 1);
	KUNIT_EXPECT_EQ(test, mkt_nr_entries(), entries + 1);

	/* its types are checked when a site arrives, not now */
	mkt_probe_set(&mkt_p2, &mkt_long_tmpl, t->m_absent, &mkt_d2);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_absent), 2);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EEXIST);

	/* a pattern that matches nothing yet */
	pattern = kasprintf(GFP_KERNEL, "%s*", t->m_absent);
	KUNIT_ASSERT_NOT_NULL(test, pattern);
	mkt_probe_set(&mkt_p3, &mkt_generic_tmpl, pattern, &mkt_d3);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p3), 0);

	/* the markers that exist are unaffected */
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_fire_int(test, t, 0, 0, 0);

	if (mkt_p3.registered)
		marker_probe_unregister(&mkt_p3);
	kfree(pattern);
	marker_probe_unregister(&mkt_p2);
	marker_probe_unregister(&mkt_p1);
	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_absent), -1);
	KUNIT_EXPECT_EQ(test, mkt_nr_entries(), entries);
	mkt_expect_clean(test);
}

/*
 * Patch @site's jump behind the registry's back: in near-zero mode its
 * static key (which every site of the name in the file shares), in
 * portable mode its own jump target.
 */
static void mkt_tamper(struct marker_site *site, bool on)
{
	if (site->key) {
		if (on)
			static_branch_enable(site->key);
		else
			static_branch_disable(site->key);
	} else {
		WRITE_ONCE(site->jump, on ? MARKER_JUMP_CALL : MARKER_JUMP_OVER);
	}
}

/* Register @mkt_p1 while a site is not at its defaults: -EBUSY, no change. */
static void mkt_expect_busy(struct kunit *test, const char *name)
{
	struct mkt_snapshot before;

	mkt_snapshot(&before, name);
	KUNIT_EXPECT_EQ(test, marker_probe_register(&mkt_p1), -EBUSY);
	KUNIT_EXPECT_FALSE(test, mkt_p1.registered);
	mkt_expect_unchanged(test, name, &before, -1);
}

/* A site found away from its defaults is left alone, and refused. */
static void mkt_defaults(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct marker_site *sites[MKT_MAX_SITES];
	struct marker_rec *rec;
	int n;

	/* the jump: static key or jump target */
	KUNIT_ASSERT_EQ(test, mkt_sites(t->m_int, sites), 1);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_tamper(sites[0], true);
	mutex_lock(&marker_mutex);
	KUNIT_EXPECT_STREQ(test, mkt_state_locked(sites[0]), "busy");
	mutex_unlock(&marker_mutex);
	mkt_expect_busy(test, t->m_int);
	KUNIT_EXPECT_TRUE(test, mkt_site_patched(sites[0]));
	/* taken, the jump finds no probe: nothing runs */
	mkt_fire_int(test, t, 0, 0, 0);
	mkt_tamper(sites[0], false);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_int, d1, 1);
	marker_probe_unregister(&mkt_p1);

#ifdef CONFIG_HAVE_STATIC_CALL
	/* the call target: the trampoline, retargeted */
	if (sites[0]->tramp) {
		__static_call_update(&sites[0]->call, sites[0]->tramp,
				     mkt_probe_int2);
		mkt_expect_busy(test, t->m_int);
		__static_call_update(&sites[0]->call, sites[0]->tramp, NULL);
		KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
		marker_probe_unregister(&mkt_p1);
	}
#endif

	/* one site of two (or their shared key): neither is armed */
	n = mkt_sites(t->m_multi, sites);
	KUNIT_ASSERT_EQ(test, n, 2);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_multi, &mkt_d1);
	mkt_tamper(sites[1], true);
	mkt_expect_busy(test, t->m_multi);
	mutex_lock(&marker_mutex);
	if (sites[0]->key && sites[0]->key == sites[1]->key) {
		KUNIT_EXPECT_STREQ(test, mkt_state_locked(sites[0]), "busy");
	} else {
		KUNIT_EXPECT_STREQ(test, mkt_state_locked(sites[0]),
				   "disarmed");
		rec = marker_rec_find(sites[0]);
		KUNIT_EXPECT_TRUE(test, marker_site_at_defaults(rec));
	}
	mutex_unlock(&marker_mutex);
	mkt_tamper(sites[1], false);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_expect_connected(test, t->m_multi, d1, 1);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_multi, NULL, 0);
	mkt_expect_clean(test);
}

/*
 * Make the registry forget @site, as if its module had not come yet (it
 * has no probe); return the record its arrival brings, not yet known.
 */
static struct marker_rec *mkt_site_leave(struct marker_site *site)
{
	struct marker_rec *rec;

	mutex_lock(&marker_mutex);
	marker_rec_forget(marker_rec_find(site));
	rec = marker_rec_alloc(site, THIS_MODULE);
	mutex_unlock(&marker_mutex);
	return rec;
}

/* ... and let it arrive, as marker_module_add() does. */
static void mkt_site_arrive(struct marker_rec *rec)
{
	LIST_HEAD(found);

	mutex_lock(&marker_mutex);
	list_add_tail(&rec->node, &found);
	marker_sites_add(&found);
	mutex_unlock(&marker_mutex);
}

static const char *mkt_site_state(struct marker_site *site)
{
	const char *state;

	mutex_lock(&marker_mutex);
	state = mkt_state_locked(site);
	mutex_unlock(&marker_mutex);
	return state;
}

static bool mkt_retry(void)
{
	bool again;

	mutex_lock(&marker_mutex);
	again = marker_retry();
	mutex_unlock(&marker_mutex);
	return again;
}

/*
 * A site that arrives while its probe is pending but cannot be armed then,
 * away from its defaults or with no memory, is armed when it can be: the
 * listing says "busy", then "retrying", and the retry arms it. (Before, it
 * stayed disarmed until another registration.)
 */
static void mkt_arrival_retried(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct marker_site *sites[MKT_MAX_SITES];
	struct marker_rec *rec;
	int failed, leaked;

	KUNIT_ASSERT_EQ(test, mkt_sites(t->m_int, sites), 1);
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);

	/* away from its defaults when it arrives */
	rec = mkt_site_leave(sites[0]);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rec);
	mkt_tamper(sites[0], true);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	mkt_site_arrive(rec);
	KUNIT_EXPECT_STREQ(test, mkt_site_state(sites[0]), "busy");
	KUNIT_EXPECT_TRUE(test, mkt_retry());		/* still away */
	mkt_tamper(sites[0], false);
	KUNIT_EXPECT_STREQ(test, mkt_site_state(sites[0]), "retrying");
	KUNIT_EXPECT_FALSE(test, mkt_retry());
	KUNIT_EXPECT_STREQ(test, mkt_site_state(sites[0]), "armed");
	mkt_expect_connected(test, t->m_int, d1, 1);
	mkt_fire_int(test, t, 1, 0, 0);
	marker_probe_unregister(&mkt_p1);

	/* no memory when it arrives */
	if (!mkt_fail_ready())
		KUNIT_FAIL(test, "no kprobe on should_failslab (CONFIG_KPROBES?)");
	if (mkt_fail_ready()) {
		rec = mkt_site_leave(sites[0]);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, rec);
		KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
		mkt_fail_start(0, -1);
		mkt_site_arrive(rec);
		failed = mkt_fail_stop(test, &leaked);
		KUNIT_EXPECT_GT(test, failed, 0);
		KUNIT_EXPECT_EQ(test, leaked, 0);
		KUNIT_EXPECT_STREQ(test, mkt_site_state(sites[0]), "retrying");
		mkt_fire_int(test, t, 0, 0, 0);
		KUNIT_EXPECT_FALSE(test, mkt_retry());
		mkt_expect_connected(test, t->m_int, d1, 1);
		mkt_fire_int(test, t, 1, 0, 0);
		marker_probe_unregister(&mkt_p1);
	}

	/* nothing left flagged: the listing says "disarmed" again */
	KUNIT_EXPECT_STREQ(test, mkt_site_state(sites[0]), "disarmed");
	mkt_expect_connected(test, t->m_int, NULL, 0);
	mkt_expect_clean(test);
}

static atomic_t mkt_spin_inside, mkt_spin_hits, mkt_spin_late, mkt_spin_loops;
static bool mkt_spin_unregistered, mkt_spin_hold;

#define MKT_HOLD_NS	(20 * NSEC_PER_MSEC)

static void mkt_probe_spin(void *data, int v)
{
	u64 until;

	mkt_check_context();
	atomic_inc(&mkt_spin_inside);
	if (READ_ONCE(mkt_spin_unregistered))
		atomic_inc(&mkt_spin_late);
	/*
	 * While the test unregisters, stay in the probe for much longer than
	 * unregistering takes without its grace period: it must wait.
	 */
	if (READ_ONCE(mkt_spin_hold)) {
		until = ktime_get_ns() + MKT_HOLD_NS;
		while (ktime_get_ns() < until)
			cpu_relax();
	}
	atomic_inc(&mkt_spin_hits);
	atomic_dec(&mkt_spin_inside);
}

static const struct marker_probe mkt_spin_tmpl =
	MARKER_PROBE(mkt, mkt_probe_spin, NULL, int);

static int mkt_spin_fn(void *arg)
{
	const struct mkt_targets *t = arg;
	int i = 0;

	while (!kthread_should_stop()) {
		t->fire_spin(i++);
		atomic_inc(&mkt_spin_loops);
		cond_resched();
	}
	return 0;
}

/* Wait up to a second for @v to pass @min; false if it does not. */
static bool mkt_wait_above(atomic_t *v, int min)
{
	unsigned long end = jiffies + HZ;

	while (atomic_read(v) <= min) {
		if (time_after(jiffies, end))
			return false;
		usleep_range(100, 200);
	}
	return true;
}

/*
 * A kthread on one CPU runs the marker in a loop while the test, on another,
 * registers and unregisters the probe: unregister returns only once the
 * probe has returned, and it never runs again, while the marker keeps being
 * hit.
 */
static void mkt_unregister_while_firing(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct task_struct *task;
	int round, cpu, ret;

	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs (qemu -smp 2)");
	atomic_set(&mkt_spin_hits, 0);
	atomic_set(&mkt_spin_late, 0);
	atomic_set(&mkt_spin_loops, 0);
	WRITE_ONCE(mkt_spin_unregistered, false);
	WRITE_ONCE(mkt_spin_hold, false);
	/* the case runs in a kthread of its own: no affinity to restore */
	cpu = cpumask_last(cpu_online_mask);
	ret = set_cpus_allowed_ptr(current,
				   cpumask_of(cpumask_first(cpu_online_mask)));
	KUNIT_ASSERT_EQ(test, ret, 0);
	task = kthread_create(mkt_spin_fn, (void *)t, "mkt_spin");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	kthread_bind(task, cpu);
	wake_up_process(task);

	for (round = 0; round < 10; round++) {
		mkt_probe_set(&mkt_p1, &mkt_spin_tmpl, t->m_spin, &mkt_d1);
		WRITE_ONCE(mkt_spin_unregistered, false);
		if (marker_probe_register(&mkt_p1)) {
			KUNIT_FAIL(test, "round %d: register failed", round);
			break;
		}
		KUNIT_EXPECT_TRUE_MSG(test,
				      mkt_wait_above(&mkt_spin_hits,
						     atomic_read(&mkt_spin_hits) + 10),
				      "round %d: the probe does not run", round);
		/* unregister while the kthread is inside the probe */
		WRITE_ONCE(mkt_spin_hold, true);
		KUNIT_EXPECT_TRUE_MSG(test, mkt_wait_above(&mkt_spin_inside, 0),
				      "round %d: the probe is not entered", round);
		marker_probe_unregister(&mkt_p1);
		/* no CPU is in the probe now, and none enters it again */
		KUNIT_EXPECT_EQ(test, atomic_read(&mkt_spin_inside), 0);
		WRITE_ONCE(mkt_spin_unregistered, true);
		WRITE_ONCE(mkt_spin_hold, false);
		KUNIT_EXPECT_TRUE_MSG(test,
				      mkt_wait_above(&mkt_spin_loops,
						     atomic_read(&mkt_spin_loops) + 10),
				      "round %d: the marker is not hit", round);
	}
	kthread_stop(task);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_spin_late), 0);
	mkt_expect_connected(test, t->m_spin, NULL, 0);
	mkt_expect_clean(test);
}

/* Arming while allocations fail: refused cleanly at every failure point. */
static void mkt_register_alloc_failure(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d1[] = { &mkt_d1 };
	struct mkt_data *const d12[] = { &mkt_d1, &mkt_d2 };

	if (!mkt_fail_ready())
		KUNIT_FAIL(test, "no kprobe on should_failslab (CONFIG_KPROBES?)");
	if (!mkt_fail_ready())
		return;

	/* 0 -> 1, one site */
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_int, &mkt_d1);
	mkt_register_failing(test, &mkt_p1);
	mkt_expect_connected(test, t->m_int, d1, 1);
	mkt_fire_int(test, t, 1, 0, 0);

	/* 1 -> 2, one site */
	mkt_probe_set(&mkt_p2, &mkt_int_tmpl, t->m_int, &mkt_d2);
	mkt_register_failing(test, &mkt_p2);
	mkt_expect_connected(test, t->m_int, d12, 2);
	mkt_fire_int(test, t, 1, 1, 0);
	marker_probe_unregister(&mkt_p2);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_int, NULL, 0);

	/* 0 -> 1, two sites: all arrays are allocated before any is published */
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_multi, &mkt_d1);
	mkt_register_failing(test, &mkt_p1);
	mkt_expect_connected(test, t->m_multi, d1, 1);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_multi, NULL, 0);

	/* pending: the registry's entry for the name */
	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_absent, &mkt_d1);
	mkt_register_failing(test, &mkt_p1);
	marker_probe_unregister(&mkt_p1);
	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_absent), -1);
	mkt_expect_clean(test);
}

/*
 * Disarming while every allocation fails: unregister still succeeds, the
 * probe that left never runs again, the one that stays still gets its own
 * data, on every site, even when it is the same function with the same
 * data; then 1 -> 0 restores the defaults.
 */
static void mkt_unregister_alloc_failure(struct kunit *test)
{
	const struct mkt_targets *t = mkt_param(test);
	struct mkt_data *const d12[] = { &mkt_d1, &mkt_d2 };
	int failed, leaked, i;
	char *pattern;

	if (!mkt_fail_ready())
		KUNIT_FAIL(test, "no kprobe on should_failslab (CONFIG_KPROBES?)");
	if (!mkt_fail_ready())
		return;

	mkt_probe_set(&mkt_p1, &mkt_int_tmpl, t->m_multi, &mkt_d1);
	mkt_probe_set(&mkt_p2, &mkt_int2_tmpl, t->m_multi, &mkt_d2);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_expect_connected(test, t->m_multi, d12, 2);

	/* 2 -> 1 with no memory for the smaller arrays */
	mkt_fail_start(0, -1);
	marker_probe_unregister(&mkt_p1);
	failed = mkt_fail_stop(test, &leaked);
	KUNIT_EXPECT_GT(test, failed, 0);
	KUNIT_EXPECT_EQ(test, leaked, 0);
	KUNIT_EXPECT_FALSE(test, mkt_p1.registered);
	KUNIT_EXPECT_EQ(test, mkt_entry_probes(t->m_multi), 1);

	mkt_reset_hits();
	WRITE_ONCE(mkt_int_arg, 6);
	t->fire_multi(6);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d1.hits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn1_hits), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d2.hits), 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_fn2_hits), 2);

	/* 1 -> 0, still without memory */
	mkt_fail_start(0, -1);
	marker_probe_unregister(&mkt_p2);
	mkt_fail_stop(test, &leaked);
	KUNIT_EXPECT_EQ(test, leaked, 0);
	mkt_expect_connected(test, t->m_multi, NULL, 0);
	mkt_reset_hits();
	t->fire_multi(6);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d2.hits), 0);

	/* and nothing is left half-done: the same probes connect again */
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_expect_connected(test, t->m_multi, d12, 2);
	marker_probe_unregister(&mkt_p2);
	marker_probe_unregister(&mkt_p1);
	mkt_expect_connected(test, t->m_multi, NULL, 0);

	/*
	 * The same function with the same data, connected twice to one site
	 * (by name and by pattern): when one leaves without memory, only its
	 * own entry becomes the stub. (Before, both did.)
	 */
	pattern = kasprintf(GFP_KERNEL, "%.*s?", (int)strlen(t->m_types) - 1,
			    t->m_types);
	KUNIT_ASSERT_NOT_NULL(test, pattern);
	WRITE_ONCE(mkt_generic_expect_name, t->m_types);
	mkt_probe_set(&mkt_p1, &mkt_generic_tmpl, t->m_types, &mkt_d2);
	mkt_probe_set(&mkt_p2, &mkt_generic_tmpl, pattern, &mkt_d2);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p1), 0);
	KUNIT_ASSERT_EQ(test, marker_probe_register(&mkt_p2), 0);
	mkt_fail_start(0, -1);
	marker_probe_unregister(&mkt_p1);
	failed = mkt_fail_stop(test, &leaked);
	KUNIT_EXPECT_GT(test, failed, 0);
	KUNIT_EXPECT_EQ(test, leaked, 0);
	mkt_reset_hits();
	for (i = 0; i < MKT_FIRES; i++)
		mkt_fire_types(t);
	KUNIT_EXPECT_EQ(test, atomic_read(&mkt_d2.hits), MKT_FIRES);
	marker_probe_unregister(&mkt_p2);
	kfree(pattern);
	mkt_expect_connected(test, t->m_types, NULL, 0);
	mkt_expect_clean(test);
}

/* Built in, the registry knows every site of vmlinux's __markers section. */
static void mkt_vmlinux_sites(struct kunit *test)
{
#ifdef MODULE
	kunit_skip(test, "the registry is a module: it finds module sites only");
#else
	struct marker_site *site;
	struct marker_rec *rec;
	unsigned int n = 0, ours = 0;

	mutex_lock(&marker_mutex);
	for (site = __start___markers; site < __stop___markers; site++) {
		KUNIT_EXPECT_EQ(test, site->abi, MARKER_SITE_ABI);
		rec = marker_rec_find(site);
		KUNIT_EXPECT_NOT_NULL_MSG(test, rec, "%s", site->name);
		if (rec)
			KUNIT_EXPECT_NULL(test, rec->mod);
		n++;
		ours += !strncmp(site->name, "mkt_", 4);
	}
	mutex_unlock(&marker_mutex);
	/* this suite's seven sites (marker_kunit_sites.h), in two copies */
	KUNIT_EXPECT_EQ(test, ours, 14);
	kunit_info(test, "%u sites in vmlinux", n);
#endif
}

/* -- Suite -------------------------------------------------------------------- */

static const struct mkt_targets * const mkt_modes[] = {
	&mkt_default_targets,
	&mkt_portable_targets,
};

static void mkt_mode_desc(const struct mkt_targets * const *t, char *desc)
{
	strscpy(desc, (*t)->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mkt_mode, mkt_modes, mkt_mode_desc);

static int mkt_init(struct kunit *test)
{
	atomic_set(&mkt_bad_context, 0);
	atomic_set(&mkt_bad_args, 0);
	mkt_reset_hits();
	return 0;
}

/* Whatever a case left registered, even when it stopped half-way. */
static void mkt_exit(struct kunit *test)
{
	struct marker_probe *probes[] = { &mkt_p1, &mkt_p2, &mkt_p3 };
	unsigned int i;

	mkt_fail_cancel();
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (probes[i]->registered) {
			KUNIT_FAIL(test, "probe %u left registered", i + 1);
			marker_probe_unregister(probes[i]);
		}
	}
}

static int mkt_suite_init(struct kunit_suite *suite)
{
	return mkt_fail_init();
}

static void mkt_suite_exit(struct kunit_suite *suite)
{
	mkt_fail_exit();
}

static struct kunit_case mkt_cases[] = {
	KUNIT_CASE_PARAM(mkt_sites_found, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_transitions, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_typed_counts, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_transitions_two_functions, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_all_sites, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_signatures, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_inline, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_action_attach, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_predicates, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_pending, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_defaults, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_arrival_retried, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_unregister_while_firing, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_register_alloc_failure, mkt_mode_gen_params),
	KUNIT_CASE_PARAM(mkt_unregister_alloc_failure, mkt_mode_gen_params),
	KUNIT_CASE(mkt_vmlinux_sites),
	{}
};

static struct kunit_suite mkt_suite = {
	.name		= "marker_registry",
	.suite_init	= mkt_suite_init,
	.suite_exit	= mkt_suite_exit,
	.init		= mkt_init,
	.exit		= mkt_exit,
	.test_cases	= mkt_cases,
};

kunit_test_suite(mkt_suite);
