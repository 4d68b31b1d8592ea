// SPDX-License-Identifier: GPL-2.0-only
/*
 * The marker registry: knows every MARK() site in every loaded module,
 * connects typed probes to them and arms and disarms the sites.
 * See Documentation/markers.rst.
 *
 * Discovery. Every site is a static struct marker_site in the __markers
 * section of its module; marker_module_sites() finds a module's, with one
 * of two backends (below): in a kernel tree that carries the markers, the
 * section as the module loader records it; out of tree, the module's
 * symbol table. Modules that load later are seen by a module notifier;
 * modules loaded before the registry are found through the module kset
 * that every module's kobject belongs to.
 */
#include <linux/ctype.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/glob.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/static_call.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include <wrapper/jump-label.h>

#include "marker-internal.h"

#if !defined(CONFIG_KALLSYMS_ALL) || !defined(CONFIG_MODULES)
#error "markers are found through module kallsyms: CONFIG_KALLSYMS_ALL and CONFIG_MODULES needed"
#endif

/* See marker-internal.h for what marker_mutex protects and its nesting. */
DEFINE_MUTEX(marker_mutex);
LIST_HEAD(marker_entries);		/* of struct marker_entry, under marker_mutex */
static DEFINE_HASHTABLE(marker_table, MARKER_HASH_BITS); /* the same, by name */
/* struct marker_rec by site address, under marker_mutex */
static DEFINE_HASHTABLE(marker_recs, MARKER_HASH_BITS);
LIST_HEAD(marker_globs);		/* pattern probes, under marker_mutex */
struct marker_stats marker_stats;	/* under marker_mutex */
/*
 * Set under marker_mutex once the registry has forgotten every site, before
 * it unregisters its module notifier (exit, or a failed init): from then on
 * the notifier, its reader, learns no site and forgets none.
 */
static bool marker_closing;

#ifdef CONFIG_MARKERS_DEBUG
/*
 * The race tests' window: milliseconds the registry sleeps where another
 * module's arrival or departure races with it, between pinning the modules
 * already loaded and learning their sites, and between forgetting every
 * site and unregistering the notifier at exit.
 */
static unsigned int race_delay_ms;
module_param(race_delay_ms, uint, 0444);
MODULE_PARM_DESC(race_delay_ms, "test only: widen the registry's start and exit windows (ms)");

static void marker_race_window(void)
{
	if (race_delay_ms)
		msleep(race_delay_ms);
}
#else
static inline void marker_race_window(void)
{
}
#endif

/* -- Signatures ------------------------------------------------------------ */

const char *marker_type_name(char type)
{
	switch (type) {
	case MARKER_TYPE_BOOL:		return "bool";
	case MARKER_TYPE_CHAR:		return "char";
	case MARKER_TYPE_UCHAR:		return "unsigned char";
	case MARKER_TYPE_SHORT:		return "short";
	case MARKER_TYPE_USHORT:	return "unsigned short";
	case MARKER_TYPE_INT:		return "int";
	case MARKER_TYPE_UINT:		return "unsigned int";
	case MARKER_TYPE_LONG:		return "long";
	case MARKER_TYPE_ULONG:		return "unsigned long";
	case MARKER_TYPE_LLONG:		return "long long";
	case MARKER_TYPE_ULLONG:	return "unsigned long long";
	case MARKER_TYPE_STRING:	return "char *";
	case MARKER_TYPE_PTR:		return "void *";
	}
	return "?";
}

/* "(int, char *)" for "is"; "()" for a marker without arguments. */
int marker_sig_print(char *buf, size_t size, const char *sig)
{
	int len = scnprintf(buf, size, "(");

	for (; *sig; sig++)
		len += scnprintf(buf + len, size - len, "%s%s",
				 marker_type_name(*sig), sig[1] ? ", " : "");
	return len + scnprintf(buf + len, size - len, ")");
}

static bool marker_site_inline(const struct marker_site *site)
{
	return site->kind == MARKER_KIND_INLINE;
}

/* Is @probe the action "inline", the one that arms inline sites? */
static bool marker_probe_inline(const struct marker_probe *probe)
{
	return probe->generic && marker_action_inline(probe->func);
}

/*
 * Does @probe, generic or a trace event's, name a signature other than
 * @site's? Then it passes over the site (marker_probe_skips()). A typed
 * probe of a module's is refused there instead (marker_probe_fits()): its
 * signature is its function's; an event's typed probes are for the sites
 * of the event's signature, whichever others its name has.
 */
static bool marker_probe_other_sig(const struct marker_probe *probe,
				   const struct marker_site *site)
{
	return (probe->generic || marker_event_func(probe->func)) &&
	       probe->sig && strcmp(probe->sig, site->sig);
}

/*
 * An inline site takes the action "inline" and nothing else, which takes
 * nothing else. Otherwise a typed probe fits a site of its signature; a
 * generic one, any site (of its signature, if it names one), except that
 * the actions that print need a format fit for the signature. Then its
 * predicate, if any, must fit the site's arguments (marker_pred_fits()).
 */
static bool marker_probe_fits_sig(const struct marker_probe *probe,
				  const struct marker_site *site)
{
	if (marker_probe_inline(probe) != marker_site_inline(site))
		return false;
	if (probe->generic)
		return !marker_probe_other_sig(probe, site) &&
		       (!marker_action_formats(probe->func) ||
			!marker_format_check(site, NULL, 0));
	return !strcmp(probe->sig, site->sig);
}

static bool marker_probe_fits(const struct marker_probe *probe,
			      const struct marker_site *site)
{
	return marker_probe_fits_sig(probe, site) &&
	       (!probe->pred || marker_pred_fits(probe->pred, site, NULL, 0));
}

bool marker_is_glob(const char *name)
{
	return strpbrk(name, "*?[");
}

/*
 * A marker name is a C identifier (MARK() pastes it into symbol names); a
 * pattern adds glob_match()'s "*?[]!-". Nothing else, so that no name can
 * forge a line in the listings or the log.
 */
bool marker_valid_name(const char *name)
{
	const char *p;

	if (!*name || strlen(name) > MARKER_NAME_MAX)
		return false;
	for (p = name; *p; p++)
		if (!isalnum(*p) && !strchr("_*?[]!-", *p))
			return false;
	return true;
}

/*
 * A pattern names markers of both kinds: a pattern probe passes over the
 * sites of the kind it does not fit, where a probe naming the marker is
 * refused (marker_probe_fits()). A generic probe that names a signature
 * passes over the sites of any other, by name or by pattern: the
 * signature is checked once, here, not at each hit.
 */
static bool marker_probe_skips(const struct marker_probe *probe,
			       const struct marker_site *site)
{
	if (marker_probe_other_sig(probe, site))
		return true;
	return marker_is_glob(probe->marker) &&
	       marker_probe_inline(probe) != marker_site_inline(site);
}

/* One dmesg line naming both sides of a mismatch. */
static void marker_report_mismatch(const struct marker_probe *probe,
				   const struct marker_rec *rec)
{
	const struct marker_site *site = rec->site;
	const char *mod = module_name(rec->mod);
	char want[128], have[128];

	if (marker_site_inline(site)) {
		pr_err("%s: the marker in %s is inline, it runs its own code: only the action inline arms it, not %ps\n",
		       site->name, mod, probe->func);
		return;
	}
	if (marker_probe_inline(probe)) {
		pr_err("%s: the action inline arms inline markers (MARK_INLINE()), and the marker in %s calls probes\n",
		       site->name, mod);
		return;
	}
	if (marker_probe_fits_sig(probe, site) &&
	    !WARN_ON_ONCE(!probe->pred)) {
		marker_pred_fits(probe->pred, site, want, sizeof(want));
		pr_err("%s: predicate \"%s\" of %ps does not fit the marker in %s: %s\n",
		       site->name, marker_pred_text(probe->pred), probe->func,
		       mod, want);
		return;
	}
	if (probe->generic) {
		marker_format_check(site, want, sizeof(want));
		marker_sig_print(have, sizeof(have), site->sig);
		pr_err("%s: format \"%s\" of the marker in %s does not fit its arguments %s (%s): %ps cannot print it\n",
		       site->name, site->format, mod, have,
		       want, probe->func);
		return;
	}
	marker_sig_print(want, sizeof(want), probe->sig);
	marker_sig_print(have, sizeof(have), site->sig);
	pr_err("%s: signature mismatch: probe %ps takes %s, marker in %s passes %s\n",
	       site->name, probe->func, want, mod, have);
}

/* -- Entries ---------------------------------------------------------------- */

static u32 marker_hash(const char *name)
{
	return jhash(name, strlen(name), 0);
}

/* The entry of @name, or NULL; under marker_mutex. */
struct marker_entry *marker_entry_find(const char *name)
{
	struct marker_entry *e;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_table, e, hlist, marker_hash(name))
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/*
 * The entries @probe names, one after the other (start with @e NULL): the
 * entry of its name, or every entry its pattern matches.
 */
static struct marker_entry *marker_probe_next(const struct marker_probe *probe,
					      struct marker_entry *e)
{
	if (!marker_is_glob(probe->marker))
		return e ? NULL : marker_entry_find(probe->marker);
	e = list_prepare_entry(e, &marker_entries, list);
	list_for_each_entry_continue(e, &marker_entries, list)
		if (glob_match(probe->marker, e->name))
			return e;
	return NULL;
}

static struct marker_entry *marker_entry_get(const char *name)
{
	struct marker_entry *e = marker_entry_find(name);

	if (e)
		return e;
	e = kzalloc(struct_size(e, name, strlen(name) + 1), GFP_KERNEL);
	if (!e)
		return ERR_PTR(-ENOMEM);
	strscpy(e->name, name, strlen(name) + 1);
	INIT_LIST_HEAD(&e->sites);
	INIT_LIST_HEAD(&e->probes);
	list_add_tail(&e->list, &marker_entries);
	hash_add(marker_table, &e->hlist, marker_hash(name));
	return e;
}

/* Forget @e once nothing refers to it. */
static void marker_entry_put(struct marker_entry *e)
{
	lockdep_assert_held(&marker_mutex);
	if (!list_empty(&e->sites) || !list_empty(&e->probes))
		return;
	hash_del(&e->hlist);
	list_del(&e->list);
	kfree(e);
}

/* -- Site state ------------------------------------------------------------- */

/* The jump entries that may patch @site's code: its module's or vmlinux's. */
struct jump_entry *marker_jump_entries(const struct marker_rec *rec,
				       struct jump_entry **stop)
{
	if (rec->mod) {
		*stop = rec->mod->jump_entries + rec->mod->num_jump_entries;
		return rec->mod->jump_entries;
	}
#ifndef MODULE
	/* built in, a site without a module is vmlinux's */
	*stop = __stop___jump_table;
	return __start___jump_table;
#else
	*stop = NULL;
	return NULL;
#endif
}

/*
 * Look at the code of every jump-table entry of @site's key, printing its
 * bytes to @m if given. Returns the number of entries, or -1 when any of
 * them is not a NOP.
 */
int marker_site_code(const struct marker_rec *rec, struct seq_file *m)
{
	const struct marker_site *site = rec->site;
	struct jump_entry *iter, *stop;
	int n = 0, len, i;
	bool all_nops = true, nop;

	if (!site->key)
		return 0;
	for (iter = marker_jump_entries(rec, &stop); iter < stop; iter++) {
		const u8 *code = (const u8 *)jump_entry_code(iter);

		/* init text may be gone already: only the core's sites are read */
		if (jump_entry_key(iter) != &site->key->key ||
		    jump_entry_is_init(iter))
			continue;
		len = arch_marker_insn(code, &nop);
		all_nops &= nop;
		if (m) {
			seq_puts(m, n ? "," : "");
			for (i = 0; i < len; i++)
				seq_printf(m, "%02x", code[i]);
		}
		n++;
	}
	if (m && !n)
		seq_puts(m, "-");
	return all_nops ? n : -1;
}

/* How many armed sites share @site's static key: all its enables are theirs. */
static int marker_key_users(const struct marker_rec *rec)
{
	struct marker_rec *iter;
	int users = 0;

	list_for_each_entry(iter, &rec->entry->sites, node)
		users += iter->site->key == rec->site->key &&
			 rcu_access_pointer(iter->site->funcs);
	return users;
}

/*
 * Is @site as MARK() left it: disarmed, the trampoline at its default and,
 * in near-zero mode, its key enabled only by the registry's arming of the
 * other sites of its name, every patched byte a NOP when none is armed?
 */
bool marker_site_at_defaults(const struct marker_rec *rec)
{
	const struct marker_site *site = rec->site;
	int users;

	if (rcu_access_pointer(site->funcs) || READ_ONCE(site->call.func))
		return false;
	if (site->mode == MARKER_MODE_NEARZERO) {
		users = marker_key_users(rec);
		if (static_key_count(&site->key->key) != users)
			return false;
		return users || marker_site_code(rec, NULL) >= 0;
	}
	return READ_ONCE(site->jump) == MARKER_JUMP_OVER;
}

/*
 * "armed"; "busy": not armed and not at its defaults; "retrying": at its
 * defaults, wanted by probes, not armed yet (see marker_retry());
 * "disarmed".
 */
const char *marker_site_state(const struct marker_rec *rec)
{
	if (rcu_access_pointer(rec->site->funcs))
		return "armed";
	if (!marker_site_at_defaults(rec))
		return "busy";
	return rec->retry ? "retrying" : "disarmed";
}

/*
 * The keys of the near-zero sites that marker_probe_attach() arms, or
 * marker_probe_unregister_many() disarms, patched together when it is done
 * (marker_keys_flush()): in a tree that carries the markers, their jump
 * entries in shared text_poke_bp() batches (include/wrapper/jump-label.h).
 * A key may be there once for each of its sites. Under marker_mutex; in
 * use between marker_keys_begin() and marker_keys_flush(), which leaves
 * it empty.
 */
static struct marker_keys {
	struct static_key **keys;
	unsigned int nr, max;
	bool on;		/* the users are added, not taken */
	bool open;
} marker_keys;

/*
 * Open the set, with room for @nr keys; more are added as they come, or
 * updated at once when no room can be made. Return: -ENOMEM, the set not
 * opened, when the room for @nr could not be allocated.
 */
static int marker_keys_begin(bool on, unsigned int nr)
{
	lockdep_assert_held(&marker_mutex);
	WARN_ON_ONCE(marker_keys.open || marker_keys.keys);
	if (nr) {
		marker_keys.keys = kmalloc_array(nr, sizeof(*marker_keys.keys),
						 GFP_KERNEL);
		if (!marker_keys.keys)
			return -ENOMEM;
		marker_keys.max = nr;
	}
	marker_keys.on = on;
	marker_keys.open = true;
	return 0;
}

/* Keep @key for marker_keys_flush(): false if it must be updated now. */
static bool marker_keys_add(struct static_key *key, bool on)
{
	struct static_key **more;
	unsigned int size;

	lockdep_assert_held(&marker_mutex);
	if (!marker_keys.open || marker_keys.on != on)
		return false;
	if (marker_keys.nr == marker_keys.max) {
		size = max(2 * marker_keys.max, 64U);
		more = krealloc_array(marker_keys.keys, size, sizeof(*more),
				      GFP_KERNEL);
		if (!more)
			return false;
		marker_keys.keys = more;
		marker_keys.max = size;
	}
	marker_keys.keys[marker_keys.nr++] = key;
	return true;
}

/*
 * Update the keys kept since marker_keys_begin(): the sites go live (or
 * stop calling) here, after their arrays were published (or unpublished).
 */
static void marker_keys_flush(void)
{
	lockdep_assert_held(&marker_mutex);
	if (marker_keys.nr) {
		marker_stats.key_updates += marker_keys_update(marker_keys.keys,
							       marker_keys.nr,
							       marker_keys.on);
	}
	kfree(marker_keys.keys);
	marker_keys = (struct marker_keys){ };
}

/*
 * Patch the site itself: the last step of arming, the first of disarming;
 * between marker_keys_begin() and marker_keys_flush(), in the flush.
 */
static void marker_site_patch(struct marker_site *site, bool on)
{
	if (site->mode == MARKER_MODE_NEARZERO) {
		if (marker_keys_add(&site->key->key, on))
			return;
		/* The key is shared: only its first and last users patch. */
		if (on) {
			marker_stats.key_updates += !static_key_count(&site->key->key);
			static_branch_inc(site->key);
		} else {
			static_branch_dec(site->key);
			marker_stats.key_updates += !static_key_count(&site->key->key);
		}
	} else {
		marker_stats.jump_updates++;
		/* read by __MARKER_ARMED(), an aligned word-sized load */
		WRITE_ONCE(site->jump, on ? MARKER_JUMP_CALL : MARKER_JUMP_OVER);
	}
}

static void marker_site_retarget(struct marker_site *site, void *func)
{
#ifdef CONFIG_HAVE_STATIC_CALL
	marker_stats.call_updates++;
	__static_call_update(&site->call, site->tramp, func);
#endif
}

/*
 * What the calls of a stub (marker_funcs_stub()) and of a predicate's
 * wrapper are counted in: nobody's. The wrapper counts the calls of its
 * probe in the probe's count itself. Also the fires of an array that its
 * site never loops over (it calls its one typed probe directly): nothing
 * counts them there.
 */
static DEFINE_PER_CPU(unsigned long, marker_unowned_hits);

/*
 * Arrays of typed probes that the sites no longer read, or will not once
 * a grace period has passed, with the fires they counted (struct
 * marker_funcs.fires) not yet added to their probes' counts:
 * marker_funcs_fold_rcu() does it after the grace period. The lock makes
 * that one step for marker_probe_hits(), which counts an array here
 * until it is folded, and for marker_probe_release(), which unhooks a
 * probe's count from them before freeing it. Taken by the RCU callback:
 * _bh elsewhere.
 */
static DEFINE_SPINLOCK(marker_retired_lock);
static LIST_HEAD(marker_retired);	/* under marker_retired_lock */

/* Does @funcs count its fires (struct marker_funcs.fires)? */
static bool marker_funcs_count_fires(const struct marker_funcs *funcs)
{
	return funcs && funcs->fires && funcs->fires != &marker_unowned_hits;
}

/* The fires @funcs counted for @probe, once for each entry of its. */
static unsigned long marker_funcs_fires(const struct marker_funcs *funcs,
					const struct marker_probe *probe)
{
	unsigned long fires = 0;
	unsigned int i, n = 0;
	int cpu;

	if (!marker_funcs_count_fires(funcs))
		return 0;
	for (i = 0; i < funcs->nr; i++)
		n += funcs->f[i].hits == probe->hits;
	if (!n)
		return 0;
	for_each_possible_cpu(cpu)
		fires += READ_ONCE(*per_cpu_ptr(funcs->fires, cpu));
	return n * fires;
}

/*
 * The calls of @probe's function by the sites, on every CPU: exact once
 * no site runs it (a call in progress may be counted or not). Its own
 * count, plus the fires of the arrays of typed probes it is in, published
 * (marker_mutex keeps them so) or retired and not yet folded into it.
 */
unsigned long marker_probe_hits(const struct marker_probe *probe)
{
	const struct marker_funcs *funcs;
	struct marker_entry *e = NULL;
	struct marker_rec *rec;
	unsigned long sum = 0;
	int cpu;

	lockdep_assert_held(&marker_mutex);
	if (!probe->hits)
		return 0;
	while ((e = marker_probe_next(probe, e)))
		list_for_each_entry(rec, &e->sites, node)
			sum += marker_funcs_fires(__marker_site_funcs(rec->site),
						  probe);
	spin_lock_bh(&marker_retired_lock);
	list_for_each_entry(funcs, &marker_retired, retired)
		sum += marker_funcs_fires(funcs, probe);
	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*per_cpu_ptr(probe->hits, cpu));
	spin_unlock_bh(&marker_retired_lock);
	return sum;
}

/*
 * Add @probe to @funcs, if given; count it either way. A probe with a
 * predicate is called through marker_pred_call(), with the probe as data.
 */
static unsigned int marker_funcs_add(struct marker_funcs *funcs,
				     const struct marker_probe *probe)
{
	struct marker_func *f;

	if (!funcs)
		return 1;
	f = &funcs->f[funcs->nr++];
	if (probe->pred) {
		f->func = (void *)marker_pred_call;
		f->data = (void *)probe;
		f->hits = &marker_unowned_hits;
		f->generic = true;
	} else {
		f->func = probe->func;
		f->data = probe->data;
		f->hits = probe->hits;
		f->generic = probe->generic;
	}
	/* the site's helper builds the argument array only for these */
	funcs->generic |= f->generic;
	return 1;
}

/* Is @f the entry marker_funcs_add() made for @probe? */
static bool marker_func_is(const struct marker_func *f,
			   const struct marker_probe *probe)
{
	if (probe->pred)
		return f->func == (void *)marker_pred_call && f->data == probe;
	return f->func == probe->func && f->data == probe->data;
}

/*
 * The probes for @site of @e: the exact ones that fit it, then the pattern
 * probes matching @e. Counted, and added to @funcs when given.
 */
static unsigned int marker_funcs_collect(struct marker_entry *e,
					 const struct marker_site *site,
					 struct marker_funcs *funcs)
{
	struct marker_probe *probe;
	unsigned int nr = 0;

	list_for_each_entry(probe, &e->probes, node)
		if (marker_probe_fits(probe, site))
			nr += marker_funcs_add(funcs, probe);
	list_for_each_entry(probe, &marker_globs, node)
		if (glob_match(probe->marker, e->name) &&
		    marker_probe_fits(probe, site))
			nr += marker_funcs_add(funcs, probe);
	return nr;
}

/*
 * Will @site call the one typed probe of @new directly, through its
 * trampoline, once marker_site_set() publishes @new? From no probe, it
 * retargets the trampoline (at its default: nobody calls it); from some,
 * only if it already targets that probe.
 */
static bool marker_site_calls_direct(const struct marker_site *site,
				     const struct marker_funcs *new)
{
	lockdep_assert_held(&marker_mutex);
	if (!new || !site->tramp || new->nr != 1 || new->f[0].generic)
		return false;
	return !rcu_access_pointer(site->funcs) ||
	       READ_ONCE(site->call.func) == new->f[0].func;
}

/*
 * The probes for the site of @rec as a new array: NULL when there are
 * none, ERR_PTR(-ENOMEM) when it cannot be allocated. An array of typed
 * probes that the site will loop over gets its count of fires; the direct
 * call counts in the probe's own count, and its array's fires, never
 * counted, are the registry's dummy.
 */
static struct marker_funcs *marker_funcs_build(struct marker_rec *rec)
{
	unsigned int nr = marker_funcs_collect(rec->entry, rec->site, NULL);
	struct marker_funcs *funcs;

	if (!nr)
		return NULL;
	/* f[nr], zeroed, ends the array for the site's helper */
	funcs = kzalloc(struct_size(funcs, f, nr + 1), GFP_KERNEL);
	if (!funcs)
		return ERR_PTR(-ENOMEM);
	/* freed after @funcs: both after a grace period (struct marker_rec) */
	funcs->hits = &rec->hits;
	marker_funcs_collect(rec->entry, rec->site, funcs);
	if (marker_site_calls_direct(rec->site, funcs)) {
		funcs->fires = &marker_unowned_hits;
	} else if (!funcs->generic) {
		funcs->fires = alloc_percpu(unsigned long);
		if (!funcs->fires) {
			kfree(funcs);
			return ERR_PTR(-ENOMEM);
		}
	}
	return funcs;
}

/* Free @funcs (or nothing: NULL), which no site reads. */
static void marker_funcs_free(struct marker_funcs *funcs)
{
	if (!funcs)
		return;
	if (marker_funcs_count_fires(funcs))
		free_percpu(funcs->fires);
	kfree(funcs);
}

/*
 * The grace period after @rcu's array was retired has passed: no site
 * counts in its fires any more. Credit each of its probes with them, but
 * a stub's entry or an entry whose probe was released meanwhile (both
 * counted in marker_unowned_hits), then free it.
 */
static void marker_funcs_fold_rcu(struct rcu_head *rcu)
{
	struct marker_funcs *funcs = container_of(rcu, struct marker_funcs, rcu);
	unsigned long fires = 0;
	unsigned int i;
	int cpu;

	for_each_possible_cpu(cpu)
		fires += *per_cpu_ptr(funcs->fires, cpu);
	spin_lock_bh(&marker_retired_lock);
	list_del(&funcs->retired);
	for (i = 0; i < funcs->nr; i++)
		if (funcs->f[i].hits != &marker_unowned_hits)
			this_cpu_add(*funcs->f[i].hits, fires);
	spin_unlock_bh(&marker_retired_lock);
	marker_funcs_free(funcs);
}

/*
 * Free @funcs, just unpublished, after a grace period: the sites that
 * read it before may still run its probes. An array of typed probes is
 * folded into their counts then, and is on marker_retired until.
 */
static void marker_funcs_retire(struct marker_funcs *funcs)
{
	if (!marker_funcs_count_fires(funcs)) {
		kfree_rcu(funcs, rcu);
		return;
	}
	spin_lock_bh(&marker_retired_lock);
	list_add_tail(&funcs->retired, &marker_retired);
	spin_unlock_bh(&marker_retired_lock);
	call_rcu(&funcs->rcu, marker_funcs_fold_rcu);
}

/*
 * @hits, a probe's count, is about to be freed: the retired arrays that
 * hold it, all unpublished before the grace period its caller waited
 * for, must not fold into it.
 */
static void marker_retired_unhook(unsigned long __percpu *hits)
{
	struct marker_funcs *funcs;
	unsigned int i;

	spin_lock_bh(&marker_retired_lock);
	list_for_each_entry(funcs, &marker_retired, retired)
		for (i = 0; i < funcs->nr; i++)
			if (funcs->f[i].hits == hits)
				funcs->f[i].hits = &marker_unowned_hits;
	spin_unlock_bh(&marker_retired_lock);
}

bool marker_funcs_has(const struct marker_funcs *funcs,
		      const struct marker_probe *probe)
{
	unsigned int i;

	for (i = 0; funcs && i < funcs->nr; i++)
		if (marker_func_is(&funcs->f[i], probe))
			return true;
	return false;
}

/*
 * Move @site to @new (NULL: no probes). State transitions:
 *
 *   0 -> N: retarget the trampoline when a single typed probe can be called
 *	     directly (it is at its default: nobody calls it), publish, then
 *	     patch the site.
 *   N -> M: publish; direct only if the trampoline already targets the
 *	     one probe left (it is retargeted only from 0 -> 1).
 *   N -> 0: patch the site back, unpublish; the trampoline is reset by
 *	     marker_sync() after the grace period.
 *
 * Between marker_keys_begin() and marker_keys_flush(), a near-zero site is
 * patched at the flush: it goes live after its array is published, and
 * stops calling after it is unpublished (it reads NULL meanwhile). The old
 * array is freed after a grace period.
 */
static void marker_site_set(struct marker_rec *rec, struct marker_funcs *new)
{
	struct marker_site *site = rec->site;
	struct marker_funcs *old;
	unsigned long direct = 0;

	lockdep_assert_held(&marker_mutex);
	old = __marker_site_funcs(site);
	if (marker_site_calls_direct(site, new))
		direct = MARKER_FUNCS_DIRECT;
	/* built for it (marker_funcs_build()): the loop counts in @fires */
	WARN_ON_ONCE(new && !direct && new->fires == &marker_unowned_hits);
	rec->retry = false;	/* what the probes want, done */

	if (!old && new) {
		if (direct)
			marker_site_retarget(site, new->f[0].func);
		/* read by __MARKER_FIRE() under preempt_disable_notrace() */
		rcu_assign_pointer(site->funcs,
				   (struct marker_funcs *)((unsigned long)new | direct));
		marker_site_patch(site, true);
	} else if (old && new) {
		rcu_assign_pointer(site->funcs,
				   (struct marker_funcs *)((unsigned long)new | direct));
	} else if (old) {
		marker_site_patch(site, false);
		rcu_assign_pointer(site->funcs, NULL);
	}
	if (old)
		marker_funcs_retire(old);
}

/*
 * Wait until no CPU runs a probe that was just disconnected, then put back
 * the trampolines of the sites that lost their last probe. One grace period
 * for the whole batch.
 */
static void marker_sync(void)
{
	struct marker_entry *e;
	struct marker_rec *rec;

	lockdep_assert_held(&marker_mutex);
	marker_stats.grace_periods++;
	synchronize_rcu();
	list_for_each_entry(e, &marker_entries, list)
		list_for_each_entry(rec, &e->sites, node)
			if (!rcu_access_pointer(rec->site->funcs) &&
			    READ_ONCE(rec->site->call.func))
				marker_site_retarget(rec->site, NULL);
}

static void marker_stub_func(void)
{
}

/*
 * Could not allocate the smaller array: leave the old one published with
 * @probe's entry replaced by a stub that ignores its arguments (a typed
 * probe is called with more arguments than the stub takes, as tracepoints'
 * tp_stub_func is). One entry only: another probe with the same function
 * and data (one by name, one by pattern) stays connected.
 */
static void marker_funcs_stub(struct marker_site *site,
			      const struct marker_probe *probe)
{
	struct marker_funcs *funcs;
	unsigned int i;

	funcs = __marker_site_funcs(site);
	for (i = 0; i < funcs->nr; i++) {
		if (marker_func_is(&funcs->f[i], probe)) {
			WRITE_ONCE(funcs->f[i].func, (void *)marker_stub_func);
			/*
			 * @probe's count is freed after the grace period that
			 * follows; a site that read it before still counts in
			 * it until then.
			 */
			WRITE_ONCE(funcs->f[i].hits, &marker_unowned_hits);
			return;
		}
	}
}

/* -- Probes ---------------------------------------------------------------- */

/* Is @probe, or the same function with the same data, on @list already? */
static bool marker_probe_is_dup(const struct marker_probe *probe,
				struct list_head *list)
{
	struct marker_probe *iter;

	list_for_each_entry(iter, list, node)
		if (iter->func == probe->func && iter->data == probe->data &&
		    !strcmp(iter->marker, probe->marker))
			return true;
	return false;
}

/*
 * Can @probe be connected to every site it names? Returns the number of
 * those sites, or -EINVAL (signature) or -EBUSY (a site not at its
 * defaults), having said why.
 */
static int marker_probe_check(const struct marker_probe *probe)
{
	struct marker_rec *rec;
	struct marker_entry *e;
	int nr = 0;

	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e)) {
		list_for_each_entry(rec, &e->sites, node) {
			if (marker_probe_skips(probe, rec->site))
				continue;
			if (!marker_probe_fits(probe, rec->site)) {
				marker_report_mismatch(probe, rec);
				return -EINVAL;
			}
			if (!rcu_access_pointer(rec->site->funcs) &&
			    !marker_site_at_defaults(rec)) {
				pr_err("%s: site in %s is not at its defaults (patched by someone else), refusing to arm it\n",
				       e->name, module_name(rec->mod));
				return -EBUSY;
			}
			nr++;
		}
	}
	return nr;
}

/* Connect @probe, already on its list, to the @nr sites it names. */
static int marker_probe_attach(const struct marker_probe *probe, int nr)
{
	struct marker_funcs **news;
	struct marker_rec *rec;
	struct marker_entry *e;
	int i = 0;

	if (!nr)
		return 0;
	/* Allocate every new array before publishing any. */
	news = kcalloc(nr, sizeof(*news), GFP_KERNEL);
	if (!news)
		return -ENOMEM;
	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e)) {
		list_for_each_entry(rec, &e->sites, node) {
			if (marker_probe_skips(probe, rec->site))
				continue;
			news[i] = marker_funcs_build(rec);
			if (IS_ERR(news[i]))
				goto free_news;
			i++;
		}
	}

	/* room for every key, so that all are patched together */
	if (marker_keys_begin(true, nr))
		goto free_news;
	i = 0;
	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e))
		list_for_each_entry(rec, &e->sites, node)
			if (!marker_probe_skips(probe, rec->site))
				marker_site_set(rec, news[i++]);
	marker_keys_flush();
	kfree(news);
	return 0;

free_news:
	while (i--)
		marker_funcs_free(news[i]);
	kfree(news);
	return -ENOMEM;
}

/* The first site @probe names and does not pass over, or NULL. */
static struct marker_rec *marker_probe_first_site(const struct marker_probe *probe)
{
	struct marker_rec *rec;
	struct marker_entry *e;

	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e))
		list_for_each_entry(rec, &e->sites, node)
			if (!marker_probe_skips(probe, rec->site))
				return rec;
	return NULL;
}

/*
 * Free what the sites' arrays pointed to: @probe's count and predicate.
 * After the grace period that followed its disconnection, or when no
 * array was published with it.
 */
static void marker_probe_release(struct marker_probe *probe)
{
	if (probe->hits)
		marker_retired_unhook(probe->hits);
	free_percpu(probe->hits);
	probe->hits = NULL;
	marker_pred_free(probe->pred);
	probe->pred = NULL;
}

/* Is @probe print or stack, which record their names' events? */
static bool marker_probe_prints(const struct marker_probe *probe)
{
	return probe->generic && marker_action_formats(probe->func);
}

/**
 * marker_probe_register() - connect a probe to every site of its marker
 * @probe: the probe, declared with MARKER_PROBE() or MARKER_PROBE_GENERIC();
 *	it must stay allocated until marker_probe_unregister()
 *
 * Every site @probe->marker names, in every loaded module, is checked
 * first: the probe's signature must match the one MARK() derived, and a
 * site that has no probe yet must be at its defaults (not patched by anyone
 * else). Only then is the probe connected everywhere, so a refusal leaves
 * nothing armed. A marker with no site loaded yet is not an error: the
 * probe stays pending and is connected to the sites of each module that
 * loads later. A generic probe may name a glob pattern instead of a marker:
 * it is connected to every marker the pattern matches, now and later.
 *
 * Context: process context, may sleep (takes marker_mutex, cpus_read_lock;
 * for print and stack, event_mutex after them: not under it).
 * Return: 0 when connected or pending; -EINVAL for a malformed probe (a
 * name that is neither a C identifier nor a glob pattern among them), a
 * typed probe with a pattern, a signature mismatch, or a filter that does
 * not parse or does not fit a site's arguments; -EBUSY when a site
 * is not at its defaults; -EEXIST when the probe, or the same function with
 * the same data, is already registered for this marker; -ENOMEM.
 */
int marker_probe_register(struct marker_probe *probe)
{
	struct marker_entry *e = NULL;
	struct list_head *list;
	int ret;

	if (!probe->marker || !probe->func || (!probe->generic && !probe->sig)) {
		pr_err("refusing a probe without a marker name, function or signature\n");
		return -EINVAL;
	}
	if (!marker_valid_name(probe->marker)) {
		pr_err("refusing probe %ps: '%*pE' is not a marker name or glob pattern\n",
		       probe->func, (int)strnlen(probe->marker, MARKER_NAME_MAX + 1),
		       probe->marker);
		return -EINVAL;
	}
	if (!probe->generic && marker_is_glob(probe->marker)) {
		pr_err("%s: typed probe %ps needs a marker name, not a pattern\n",
		       probe->marker, probe->func);
		return -EINVAL;
	}

	mutex_lock(&marker_mutex);
	if (probe->registered) {
		pr_err("%s: probe %ps is already registered\n", probe->marker,
		       probe->func);
		ret = -EEXIST;
		goto unlock;
	}
	if (marker_is_glob(probe->marker)) {
		list = &marker_globs;
	} else {
		e = marker_entry_get(probe->marker);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			goto unlock;
		}
		list = &e->probes;
	}
	if (marker_probe_is_dup(probe, list)) {
		pr_err("%s: probe %ps with data %p is already registered\n",
		       probe->marker, probe->func, probe->data);
		ret = -EEXIST;
		goto put_entry;
	}
	/* read by the sites through their arrays (marker_funcs_add()) */
	if (probe->filter) {
		probe->pred = marker_pred_compile(probe,
						  marker_probe_first_site(probe));
		if (IS_ERR(probe->pred)) {
			ret = PTR_ERR(probe->pred);
			probe->pred = NULL;
			goto put_entry;
		}
	}
	probe->hits = alloc_percpu(unsigned long);
	if (!probe->hits) {
		ret = -ENOMEM;
		goto release_probe;
	}
	ret = marker_probe_check(probe);
	if (ret < 0)
		goto release_probe;

	list_add_tail(&probe->node, list);
	ret = marker_probe_attach(probe, ret);
	if (ret)
		goto del_probe;
	probe->registered = true;
	mutex_unlock(&marker_mutex);
	/* print and stack record the event of each name they reach */
	if (marker_probe_prints(probe))
		marker_events_sync();
	return 0;

del_probe:
	list_del(&probe->node);
release_probe:
	marker_probe_release(probe);	/* no array was published with it */
put_entry:
	if (e)
		marker_entry_put(e);
unlock:
	mutex_unlock(&marker_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_register);

/*
 * Disconnect @probe everywhere and take it off its list; true when a grace
 * period is needed. The caller puts @probe's entry, if it has one.
 */
static bool marker_probe_detach(struct marker_probe *probe)
{
	struct marker_funcs *new;
	struct marker_rec *rec;
	struct marker_entry *e;
	bool sync = false;

	lockdep_assert_held(&marker_mutex);
	list_del(&probe->node);
	probe->registered = false;

	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e)) {
		list_for_each_entry(rec, &e->sites, node) {
			if (!marker_funcs_has(__marker_site_funcs(rec->site), probe))
				continue;
			sync = true;
			new = marker_funcs_build(rec);
			if (IS_ERR(new))
				marker_funcs_stub(rec->site, probe);
			else
				marker_site_set(rec, new);
		}
	}
	return sync;
}

/**
 * marker_probe_unregister_many() - disconnect probes, with one grace period
 * @probes: probes given to marker_probe_register(); unregistering one that
 *	is not registered warns once and skips it
 * @nr: how many
 *
 * Disconnects every probe of @probes from every site, restores the
 * defaults of the sites left without a probe, then waits for one grace
 * period, so that no CPU is still running any of them when it returns, and
 * resets those sites' trampolines. Never fails, even when memory is short.
 *
 * Context: process context, may sleep (takes marker_mutex, waits for RCU;
 * for print and stack, event_mutex after: not under it).
 */
void marker_probe_unregister_many(struct marker_probe **probes, unsigned int nr)
{
	bool sync = false, prints = false;
	struct marker_entry *e;
	unsigned int i;

	mutex_lock(&marker_mutex);
	/* unregistering never fails: without room, a key at a time */
	marker_keys_begin(false, 0);
	for (i = 0; i < nr; i++) {
		if (WARN_ON_ONCE(!probes[i]->registered))
			continue;
		prints |= marker_probe_prints(probes[i]);
		e = NULL;
		if (!marker_is_glob(probes[i]->marker))
			e = marker_entry_find(probes[i]->marker);
		sync |= marker_probe_detach(probes[i]);
		if (e)
			marker_entry_put(e);
	}
	marker_keys_flush();
	if (sync)
		marker_sync();
	/* no site reads them any more: the grace period, or no array */
	for (i = 0; i < nr; i++)
		if (!probes[i]->registered)
			marker_probe_release(probes[i]);
	mutex_unlock(&marker_mutex);
	if (prints)
		marker_events_sync();
}
EXPORT_SYMBOL_GPL(marker_probe_unregister_many);

/**
 * marker_probe_unregister() - disconnect a probe from every site
 * @probe: a probe given to marker_probe_register(); unregistering one that
 *	is not registered warns once and does nothing
 *
 * Restores the defaults of every site left without a probe, waits for a
 * grace period, so that no CPU is still running @probe when it returns,
 * then resets the sites' trampolines. One grace period however many sites
 * the probe was connected to; marker_probe_unregister_many() disconnects
 * several probes with one. Never fails, even when memory is short.
 *
 * Context: process context, may sleep (takes marker_mutex, waits for RCU).
 * Note: a module must unregister its probes before it exits; it should
 * then call marker_synchronize_unregister().
 */
void marker_probe_unregister(struct marker_probe *probe)
{
	marker_probe_unregister_many(&probe, 1);
}
EXPORT_SYMBOL_GPL(marker_probe_unregister);

/**
 * marker_synchronize_unregister() - wait for probes to finish running
 *
 * Waits until every probe call that started before it has returned; call
 * it after the last marker_probe_unregister() of a module's exit, before
 * freeing what the probes use.
 *
 * Context: process context, may sleep.
 */
void marker_synchronize_unregister(void)
{
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(marker_synchronize_unregister);

/* -- Walks, for the files that show the registry ------------------------------ */

/**
 * marker_walk_sites() - call @fn on every site the registry knows
 * @fn: called with the registry's record of each site, name after name
 * @priv: passed to @fn
 *
 * @fn runs under marker_mutex: it may read the record, its entry and its
 * site's arming state, and call the __marker_ helpers that need the lock;
 * it must not take the lock or sleep for long.
 *
 * Context: process context, takes marker_mutex.
 */
void marker_walk_sites(marker_site_walk_fn fn, void *priv)
{
	struct marker_entry *e;
	struct marker_rec *rec;

	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list)
		list_for_each_entry(rec, &e->sites, node)
			fn(rec, priv);
	mutex_unlock(&marker_mutex);
}

/**
 * marker_walk_probes() - call @fn on every registered probe
 * @fn: called with each probe: those naming a marker, name after name, then
 *	the pattern probes
 * @priv: passed to @fn
 *
 * @fn runs under marker_mutex, as for marker_walk_sites().
 *
 * Context: process context, takes marker_mutex.
 */
void marker_walk_probes(marker_probe_walk_fn fn, void *priv)
{
	struct marker_probe *probe;
	struct marker_entry *e;

	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list)
		list_for_each_entry(probe, &e->probes, node)
			fn(probe, priv);
	list_for_each_entry(probe, &marker_globs, node)
		fn(probe, priv);
	mutex_unlock(&marker_mutex);
}

/* How many sites @probe is connected to; under marker_mutex. */
unsigned int marker_probe_sites(const struct marker_probe *probe)
{
	struct marker_entry *e;
	struct marker_rec *rec;
	unsigned int nr = 0;

	lockdep_assert_held(&marker_mutex);
	for (e = marker_probe_next(probe, NULL); e;
	     e = marker_probe_next(probe, e))
		list_for_each_entry(rec, &e->sites, node)
			nr += marker_funcs_has(__marker_site_funcs(rec->site),
					       probe);
	return nr;
}

/**
 * marker_pattern_has_sites() - would an action reach a site now?
 * @pattern: a marker name or a glob pattern
 * @fn: the action (a generic probe function): a pattern passes over the
 *	sites of the kind @fn does not fit (marker_probe_skips())
 *
 * Context: process context, takes marker_mutex.
 * Return: true when @pattern names a loaded site that @fn would not pass
 * over.
 */
bool marker_pattern_has_sites(const char *pattern, marker_generic_fn fn)
{
	const struct marker_probe probe = {
		.marker = pattern, .func = fn, .generic = true,
	};
	struct marker_entry *e;
	struct marker_rec *rec;
	bool known = false;

	mutex_lock(&marker_mutex);
	for (e = marker_probe_next(&probe, NULL); e && !known;
	     e = marker_probe_next(&probe, e))
		list_for_each_entry(rec, &e->sites, node)
			known |= !marker_probe_skips(&probe, rec->site);
	mutex_unlock(&marker_mutex);
	return known;
}

/* A copy of marker_stats, read under marker_mutex. */
void marker_stats_read(struct marker_stats *stats)
{
	mutex_lock(&marker_mutex);
	*stats = marker_stats;
	mutex_unlock(&marker_mutex);
}

/* -- Modules ----------------------------------------------------------------- */

/* -- Site records ---------------------------------------------------------- */

/* The record of @site, if the registry knows it. */
struct marker_rec *marker_rec_find(const struct marker_site *site)
{
	struct marker_rec *rec;

	lockdep_assert_held(&marker_mutex);
	hash_for_each_possible(marker_recs, rec, hnode, (unsigned long)site)
		if (rec->site == site)
			return rec;
	return NULL;
}

/*
 * A record for @site of @mod (NULL: vmlinux), for marker_sites_add();
 * NULL when the registry knows the site already, ERR_PTR(-ENOMEM).
 */
struct marker_rec *marker_rec_alloc(struct marker_site *site,
				    struct module *mod)
{
	struct marker_rec *rec;

	lockdep_assert_held(&marker_mutex);
	if (marker_rec_find(site))
		return NULL;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return ERR_PTR(-ENOMEM);
	rec->site = site;
	rec->mod = mod;
	INIT_LIST_HEAD(&rec->node);
	return rec;
}

/*
 * Forget the site of @rec, whose arrays are unpublished: an action that
 * read one of them may still count in @rec->hits until a grace period.
 */
void marker_rec_forget(struct marker_rec *rec)
{
	lockdep_assert_held(&marker_mutex);
	list_del(&rec->node);
	hash_del(&rec->hnode);
	kfree_rcu(rec, rcu);
}

/*
 * marker_module_sites() - the sites of @mod: returns how many it has; when
 * @sites has room for them all (@max), those of our ABI are stored there
 * (@nr of them) and the others reported. One of two backends:
 */
#ifdef CONFIG_MARKERS_TREE
#define MARKER_SITES_FOUND	sites_section
/*
 * In a kernel tree that carries the markers, the module loader records
 * each module's __markers section in struct module, as it records
 * __tracepoints_ptrs (the hooks of scripts/integrate.sh in
 * <linux/module.h> and kernel/module/main.c): an array of sites, 8-aligned
 * and a multiple of 8 in size, as in vmlinux (marker_vmlinux_add()). A
 * site of another ABI may have another size: the rest of the array is
 * ignored.
 */
static unsigned int marker_module_sites(struct module *mod,
					struct marker_site **sites,
					unsigned int max, unsigned int *nr)
{
	unsigned int i;

	*nr = 0;
	for (i = 0; i < mod->num_markers && i < max; i++) {
		struct marker_site *site = &mod->markers[i];

		if (site->abi != MARKER_SITE_ABI) {
			pr_err("%s: %#x where a site should be in __markers, expected ABI %#x: ignoring the rest of the section (rebuild %s against this marker.h)\n",
			       mod->name, site->abi, MARKER_SITE_ABI, mod->name);
			break;
		}
		sites[(*nr)++] = site;
	}
	return mod->num_markers;
}
#else
#define MARKER_SITES_FOUND	sites_symtab
/*
 * Out of tree the registry may use only exported symbols and public struct
 * module fields. A site is named __marker_site_<name>, so every annotated
 * module lists its sites in its own symbol table (mod->kallsyms, which
 * keeps data symbols when CONFIG_KALLSYMS_ALL=y); each candidate is checked
 * for lying inside the module and for MARKER_SITE_ABI before it is
 * trusted. The symbol table is read under RCU: the module's init symbols
 * are freed after a grace period once it is live.
 */
static unsigned int marker_module_sites(struct module *mod,
					struct marker_site **sites,
					unsigned int max, unsigned int *nr)
{
	struct mod_kallsyms *ks;
	unsigned int i, n = 0;
	struct marker_site *site;

	*nr = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const char *sym = ks->strtab + ks->symtab[i].st_name;
		unsigned long addr = ks->symtab[i].st_value;

		/* a data symbol: "d", as a function-local static */
		if (tolower(ks->typetab[i]) != 'd' ||
		    !strstr(sym, "__marker_site_") || !within_module(addr, mod))
			continue;
		if (n++ >= max)
			continue;
		site = (void *)addr;
		if (site->abi == MARKER_SITE_ABI)
			sites[(*nr)++] = site;
		else
			pr_err("%s: site %s has ABI %#x, expected %#x: ignoring it (rebuild %s against this marker.h)\n",
			       mod->name, sym, site->abi, MARKER_SITE_ABI,
			       mod->name);
	}
	preempt_enable();
	return n;
}
#endif

/* Free the records on @found, which marker_sites_add() did not take. */
static void marker_recs_free(struct list_head *found)
{
	struct marker_rec *rec, *tmp;

	list_for_each_entry_safe(rec, tmp, found, node) {
		list_del(&rec->node);
		kfree(rec);	/* never published */
	}
}

/*
 * Claim the sites of @mod that the registry does not know yet: a record
 * for each, linked on @found. Return: 0, or -ENOMEM with nothing claimed.
 */
static int marker_module_scan(struct module *mod, struct list_head *found)
{
	unsigned int n, nr, max = 0, i, claimed = 0;
	struct marker_site **sites = NULL;
	struct marker_rec *rec;

	lockdep_assert_held(&marker_mutex);
	/* count, then list; again if the table grew in between */
	while ((n = marker_module_sites(mod, sites, max, &nr)) > max) {
		kvfree(sites);
		max = n;
		sites = kvmalloc_array(max, sizeof(*sites), GFP_KERNEL);
		if (!sites)
			return -ENOMEM;
	}
	for (i = 0; i < nr; i++) {
		rec = marker_rec_alloc(sites[i], mod);
		if (IS_ERR(rec)) {
			kvfree(sites);
			marker_recs_free(found);
			return PTR_ERR(rec);
		}
		if (rec) {
			list_add_tail(&rec->node, found);
			claimed++;
		}
	}
	kvfree(sites);
	marker_stats.MARKER_SITES_FOUND += claimed;
	return 0;
}

/*
 * Sites that probes want armed but that could not be armed when they
 * arrived (struct marker_rec.retry) are tried again from marker_retry_work: after a
 * second, then at doubling intervals up to a minute while some remain. A
 * registration or unregistration that sets the site's probes also clears
 * the flag. marker_retry_delay is under marker_mutex.
 */
#define MARKER_RETRY_MIN	HZ
#define MARKER_RETRY_MAX	(60 * HZ)

static void marker_retry_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(marker_retry_work, marker_retry_fn);
static unsigned long marker_retry_delay = MARKER_RETRY_MIN;

/*
 * Arm the site of @rec with the probes that fit it, if it is at its
 * defaults; otherwise flag it for marker_retry_work. Return: true when
 * flagged.
 */
static bool marker_site_arm(struct marker_rec *rec)
{
	struct marker_funcs *funcs;

	lockdep_assert_held(&marker_mutex);
	funcs = marker_funcs_build(rec);
	if (!funcs) {			/* no probe wants it (any more) */
		rec->retry = false;
		return false;
	}
	if (IS_ERR(funcs)) {
		if (!rec->retry)
			pr_err("%s: no memory to arm site in %s, retrying\n",
			       rec->site->name, module_name(rec->mod));
		rec->retry = true;
		return true;
	}
	if (!marker_site_at_defaults(rec)) {
		if (!rec->retry)
			pr_err("%s: site in %s is not at its defaults (patched by someone else), not arming it until it is\n",
			       rec->site->name, module_name(rec->mod));
		marker_funcs_free(funcs);
		rec->retry = true;
		return true;
	}
	marker_site_set(rec, funcs);
	return false;
}

/* Try the flagged sites again; true if some are still flagged. */
bool marker_retry(void)
{
	struct marker_entry *e;
	struct marker_rec *rec;
	bool again = false;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list)
		list_for_each_entry(rec, &e->sites, node)
			if (rec->retry)
				again |= marker_site_arm(rec);
	return again;
}

static void marker_retry_schedule(bool again)
{
	lockdep_assert_held(&marker_mutex);
	if (!again || marker_closing) {
		marker_retry_delay = MARKER_RETRY_MIN;
		return;
	}
	schedule_delayed_work(&marker_retry_work, marker_retry_delay);
	marker_retry_delay = min(2 * marker_retry_delay, MARKER_RETRY_MAX);
}

static void marker_retry_fn(struct work_struct *work)
{
	mutex_lock(&marker_mutex);
	if (!marker_closing)
		marker_retry_schedule(marker_retry());
	mutex_unlock(&marker_mutex);
}

/*
 * Learn the sites of the records on @found (marker_rec_alloc()) and
 * connect the pending probes that fit. Return: 0, or -ENOMEM when the
 * entry of a site's name could not be allocated: the sites learnt are
 * kept, that one is not.
 */
int marker_sites_add(struct list_head *found)
{
	struct marker_rec *rec, *tmp;
	struct marker_probe *probe;
	struct marker_entry *e;
	bool again = false;
	int ret = 0;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry_safe(rec, tmp, found, node) {
		struct marker_site *site = rec->site;

		list_del(&rec->node);
		e = marker_entry_get(site->name);
		if (IS_ERR(e)) {
			ret = PTR_ERR(e);
			kfree(rec);	/* never published */
			continue;
		}
		rec->entry = e;
		list_add_tail(&rec->node, &e->sites);
		hash_add(marker_recs, &rec->hnode, (unsigned long)site);
		list_for_each_entry(probe, &e->probes, node)
			if (!marker_probe_skips(probe, site) &&
			    !marker_probe_fits(probe, site))
				marker_report_mismatch(probe, rec);
		list_for_each_entry(probe, &marker_globs, node)
			if (glob_match(probe->marker, e->name) &&
			    !marker_probe_skips(probe, site) &&
			    !marker_probe_fits(probe, site))
				marker_report_mismatch(probe, rec);
		again |= marker_site_arm(rec);
	}
	if (again && !delayed_work_pending(&marker_retry_work))
		marker_retry_schedule(true);
	return ret;
}

/*
 * Learn the sites of @mod and connect the pending probes that fit.
 * Return: 0, or -ENOMEM when some sites could not be learnt (none, or
 * not all: see marker_sites_add()).
 */
static int marker_module_add(struct module *mod)
{
	LIST_HEAD(found);
	int ret;

	lockdep_assert_held(&marker_mutex);
	ret = marker_module_scan(mod, &found);
	if (ret)
		return ret;
	ret = marker_sites_add(&found);
	marker_locs_add(mod);
	return ret;
}

#ifndef MODULE
/*
 * Built in, the registry also knows the sites of vmlinux. The linker script
 * (include/asm-generic/vmlinux.lds.h, as scripts/integrate.sh patches it)
 * gathers every __markers input section of vmlinux between
 * __start___markers and __stop___markers: an array, each site being an
 * 8-aligned static struct marker_site whose size is a multiple of 8. Their
 * records have no module (module_name() says "kernel"), their jump entries
 * are vmlinux's, and they are never forgotten: vmlinux does not go away.
 */
static int marker_vmlinux_add(void)
{
	struct marker_site *site;
	struct marker_rec *rec;
	LIST_HEAD(found);
	int ret = 0;

	mutex_lock(&marker_mutex);
	for (site = __start___markers; site < __stop___markers; site++) {
		if (site->abi != MARKER_SITE_ABI) {
			pr_err("vmlinux: %#x where a site should be in __markers, expected ABI %#x: ignoring the rest of the section\n",
			       site->abi, MARKER_SITE_ABI);
			break;
		}
		rec = marker_rec_alloc(site, NULL);
		if (IS_ERR(rec)) {
			marker_recs_free(&found);
			ret = PTR_ERR(rec);
			goto unlock;
		}
		if (rec)
			list_add_tail(&rec->node, &found);
	}
	ret = marker_sites_add(&found);
	marker_locs_add_vmlinux();
unlock:
	mutex_unlock(&marker_mutex);
	if (ret)
		pr_err("vmlinux: no memory to track its markers\n");
	return ret;
}
#else
static inline int marker_vmlinux_add(void)
{
	return 0;
}
#endif

/*
 * The owner of @probe is going and left it registered: detach it, and
 * keep it on @forgotten until its count can be freed, after the grace
 * period (its module's memory stays until the notifier returns).
 */
static bool marker_probe_forget(struct marker_probe *probe,
				struct list_head *forgotten)
{
	bool sync;

	pr_err("%s: module %s is going with probe %ps still registered, detaching it\n",
	       probe->marker, module_name(probe->owner), probe->func);
	sync = marker_probe_detach(probe);
	list_add(&probe->node, forgotten);
	return sync;
}

/* @mod is going: forget its sites, and detach probes it left registered. */
static void marker_module_remove(struct module *mod)
{
	struct marker_probe *probe, *ptmp;
	struct marker_rec *rec, *rtmp;
	struct marker_entry *e, *etmp;
	LIST_HEAD(forgotten);
	bool sync = false;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list)
		list_for_each_entry_safe(probe, ptmp, &e->probes, node)
			if (probe->owner == mod)
				sync |= marker_probe_forget(probe, &forgotten);
	list_for_each_entry_safe(probe, ptmp, &marker_globs, node)
		if (probe->owner == mod)
			sync |= marker_probe_forget(probe, &forgotten);
	list_for_each_entry_safe(e, etmp, &marker_entries, list) {
		list_for_each_entry_safe(rec, rtmp, &e->sites, node) {
			struct marker_funcs *old = __marker_site_funcs(rec->site);

			if (rec->mod != mod)
				continue;
			/*
			 * The code goes with the module: no need to unpatch,
			 * and its site is written for the last time.
			 */
			RCU_INIT_POINTER(rec->site->funcs, NULL);
			if (old)
				marker_funcs_retire(old);
			marker_rec_forget(rec);
		}
		marker_entry_put(e);
	}
	marker_locs_remove(mod);
	if (sync)
		marker_sync();
	list_for_each_entry_safe(probe, ptmp, &forgotten, node) {
		list_del(&probe->node);
		marker_probe_release(probe);
	}
}

/*
 * The registry is going: forget every site (no probe is left, so each is
 * at its defaults and nothing of the registry's stays in it), and stop
 * the notifier from learning or forgetting any. Called before the
 * notifier is unregistered: a module that goes meanwhile is forgotten here
 * while still alive (its GOING notification waits for marker_mutex), and
 * its notification then finds nothing to do.
 */
static void marker_forget_all(void)
{
	struct marker_rec *rec, *rtmp;
	struct marker_entry *e, *etmp;

	lockdep_assert_held(&marker_mutex);
	marker_closing = true;
	list_for_each_entry_safe(e, etmp, &marker_entries, list) {
		/* probe modules depend on marker.ko: they are all gone */
		WARN_ON_ONCE(!list_empty(&e->probes) || !list_empty(&marker_globs));
		list_for_each_entry_safe(rec, rtmp, &e->sites, node) {
			WARN_ON_ONCE(rcu_access_pointer(rec->site->funcs));
			marker_rec_forget(rec);
		}
		hash_del(&e->hlist);
		list_del(&e->list);
		kfree(e);
	}
	marker_locs_remove_all();
}

static int marker_module_notify(struct notifier_block *nb,
				unsigned long action, void *data)
{
	struct module *mod = data;
	int ret = 0;

	/* event_mutex, then marker_offer_mutex, then marker_mutex */
	marker_events_lock();
	if (action == MODULE_STATE_GOING)
		marker_offers_forget(mod);
	mutex_lock(&marker_mutex);
	if (marker_closing) {
		mutex_unlock(&marker_mutex);
		marker_events_unlock();
		return NOTIFY_DONE;
	}
	switch (action) {
	case MODULE_STATE_COMING:
		/*
		 * A module whose sites cannot all be tracked is refused, as
		 * the tracepoint core refuses one: armed, not at all, or
		 * "retrying", never there and unknown. Its GOING call goes to
		 * the notifiers that said yes, not to this one.
		 */
		ret = marker_module_add(mod);
		if (ret) {
			pr_err("%s: no memory to track its markers: refusing the module\n",
			       mod->name);
			marker_module_remove(mod);
		}
		break;
	/*
	 * Again when live, for a module that was coming while the registry
	 * initialised: its COMING call preceded our notifier, and it joined
	 * the module kset after marker_add_loaded_modules() walked it.
	 * Sites already known are skipped.
	 */
	case MODULE_STATE_LIVE:
		if (marker_module_add(mod))
			pr_err("%s: no memory to track its markers, some stay disarmed\n",
			       mod->name);
		break;
	case MODULE_STATE_GOING:
		marker_module_remove(mod);
		break;
	}
	mutex_unlock(&marker_mutex);
	marker_events_update();
	marker_events_unlock();
	return notifier_from_errno(ret);
}

/* After jump_label's notifier (priority 1) has taken the module's keys. */
static struct notifier_block marker_module_nb = {
	.notifier_call = marker_module_notify,
	.priority = 0,
};

static struct kset *marker_module_kset(void)
{
#ifdef MODULE
	return THIS_MODULE->mkobj.kobj.kset;
#else
	return module_kset;
#endif
}

/*
 * Modules loaded before the registry: every module's kobject is in the
 * module kset. Pin each live one, then learn its sites. Runs after the
 * notifier is registered, so a module loading meanwhile is seen by the
 * walk, by its COMING or LIVE notification, or by several:
 * marker_module_scan() skips sites already known.
 *
 * A module still COMING is left to its LIVE notification: try_module_get()
 * would pin it, but a module whose init fails is freed whatever its
 * references, and its sites would be learnt after its GOING notification.
 * Its kobject leaves the kset before it is freed, so under list_lock its
 * state can be read.
 */
static int marker_add_loaded_modules(void)
{
	struct kset *kset = marker_module_kset();
	unsigned int nr = 0, max = 0, i;
	struct module **mods;
	struct kobject *k;
	int ret = 0;

	spin_lock(&kset->list_lock);
	list_for_each_entry(k, &kset->list, entry)
		max++;
	spin_unlock(&kset->list_lock);

	mods = kcalloc(max, sizeof(*mods), GFP_KERNEL);
	if (!mods)
		return -ENOMEM;

	spin_lock(&kset->list_lock);
	list_for_each_entry(k, &kset->list, entry) {
		struct module_kobject *mk = container_of(k, struct module_kobject, kobj);

		if (nr < max && mk->mod &&
		    READ_ONCE(mk->mod->state) == MODULE_STATE_LIVE &&
		    try_module_get(mk->mod))
			mods[nr++] = mk->mod;
	}
	spin_unlock(&kset->list_lock);

	marker_race_window();

	for (i = 0; i < nr; i++) {
		mutex_lock(&marker_mutex);
		if (marker_module_add(mods[i])) {
			pr_err("%s: no memory to track its markers\n",
			       mods[i]->name);
			ret = -ENOMEM;
		}
		mutex_unlock(&marker_mutex);
		module_put(mods[i]);
	}
	kfree(mods);
	return ret;
}

/* -- Start and stop (marker_main.c) ------------------------------------------ */

/**
 * marker_registry_start() - learn every site, and the sites to come
 *
 * Registers the module notifier, then learns the sites of the modules
 * already loaded and, built in, of vmlinux. On failure, undoes it all.
 *
 * Context: process context, at the registry's init, after
 * marker_events_init() (the notifier takes the events' lock).
 * Return: 0, or the notifier's error, or -ENOMEM.
 */
int marker_registry_start(void)
{
	int ret;

	ret = register_module_notifier(&marker_module_nb);
	if (ret)
		return ret;
	ret = marker_add_loaded_modules();
	if (!ret)
		ret = marker_vmlinux_add();
	if (ret)
		marker_registry_stop();
	return ret;
}

/**
 * marker_registry_stop() - forget every site, and stop listening
 *
 * Forgets, then unregisters the notifier: see marker_forget_all().
 * Every probe is unregistered by then (probe modules depend on the
 * registry, and its own consumers go first).
 *
 * Context: process context, at the registry's exit.
 */
void marker_registry_stop(void)
{
	mutex_lock(&marker_mutex);
	marker_forget_all();
	mutex_unlock(&marker_mutex);
	cancel_delayed_work_sync(&marker_retry_work);	/* sees marker_closing */
	marker_race_window();
	unregister_module_notifier(&marker_module_nb);
	rcu_barrier();		/* marker_funcs_fold_rcu() is ours */
}
