/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the marker registry, shared by the registry and the loader.
 * Not to be included by annotated or probe modules: use <linux/marker.h>.
 */
#ifndef _KERNEL_MARKER_INTERNAL_H
#define _KERNEL_MARKER_INTERNAL_H

#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/marker.h>
#include <linux/mutex.h>
#include <linux/percpu-defs.h>

/* The registry's hash table of entries has 1 << MARKER_HASH_BITS buckets. */
#define MARKER_HASH_BITS	10

/*
 * marker_mutex protects marker_entries, every entry's sites and probes
 * lists, every probe's bookkeeping, every site record (struct marker_rec)
 * and the arming state of every known site (key, jump, call, funcs). It
 * nests inside event_mutex (see marker_events_lock()) and
 * marker_offer_mutex, outside cpus_read_lock(), jump_label_mutex,
 * static_call_mutex and text_mutex, which the static-key and static-call
 * updates take.
 */
extern struct mutex marker_mutex;
extern struct list_head marker_entries;
extern struct list_head marker_globs;

#ifndef MODULE
/* Built in: the sites of vmlinux and their copies of code (linker script). */
extern struct marker_site __start___markers[], __stop___markers[];
extern const struct marker_loc __start___markers_loc[], __stop___markers_loc[];
#endif

/**
 * struct marker_stats - what arming and disarming cost, in events that do
 *	not depend on how fast the machine is (markers/stats)
 * @key_updates: static-key enables and disables (near-zero sites)
 * @jump_updates: jump-target stores (portable sites)
 * @call_updates: trampoline retargets (__static_call_update())
 * @grace_periods: synchronize_rcu() calls
 * @sites_section: sites of modules learnt from the module loader's record
 *	of their __markers section (in a kernel tree that carries the markers)
 * @sites_symtab: sites of modules learnt from their symbol table (out of
 *	tree); a site is counted once, however many times its module is
 *	scanned (at its COMING and LIVE notifications)
 *
 * Each key or trampoline update is one text_poke_bp() batch, but in a tree
 * that carries the markers: there, the keys that one probe's registration
 * enables, or one marker_probe_unregister_many() disables, share batches
 * of up to 256 jump entries (include/wrapper/jump-label.h).
 */
struct marker_stats {
	unsigned long key_updates;
	unsigned long jump_updates;
	unsigned long call_updates;
	unsigned long grace_periods;
	unsigned long sites_section;
	unsigned long sites_symtab;
};

extern struct marker_stats marker_stats;

/**
 * struct marker_entry - everything the registry knows about one name
 * @list: link in marker_entries
 * @hlist: link in the registry's hash table of entries, by name
 * @sites: the known sites of this name (struct marker_rec.node)
 * @probes: registered probes naming it exactly, connected or pending
 *	(struct marker_probe.node); pattern probes are on marker_globs
 * @fired: times "fire" ran its probes (marker_fire.c), apart from the hits
 * @name: the marker's name
 *
 * An entry lives while it has a site or a probe. All fields under
 * marker_mutex.
 */
struct marker_entry {
	struct list_head list;
	struct hlist_node hlist;
	struct list_head sites;
	struct list_head probes;
	unsigned long fired;
	char name[];
};

/**
 * struct marker_rec - the registry's record of one site it knows
 * @site: the site, in its module's memory (or vmlinux's); the registry
 *	writes only its arming state (jump, call, funcs)
 * @mod: the module @site lives in; NULL for vmlinux
 * @entry: the entry of @site's name
 * @node: link in @entry's sites
 * @hnode: link in the registry's table of records, by @site's address:
 *	a site found twice (a module's COMING and LIVE notifications, the
 *	walk of the loaded modules) is known once
 * @hits: what the count, print and stack actions counted at @site; they
 *	reach it through the site's array (struct marker_funcs.hits)
 * @retry: probes want @site armed, and the registry could not arm it when
 *	it arrived (no memory, or away from its defaults): it retries
 * @rcu: freed after a grace period: an action may still count in @hits
 *
 * Allocated when the registry learns the site, freed when it forgets it
 * (its module goes, or the registry does). Under marker_mutex, but @hits,
 * which the actions increment at a hit.
 */
struct marker_rec {
	struct marker_site *site;
	struct module *mod;
	struct marker_entry *entry;
	struct list_head node;
	struct hlist_node hnode;
	atomic_long_t hits;
	bool retry;
	struct rcu_head rcu;
};

/* The probes of @site, for the registry, which holds marker_mutex. */
static inline struct marker_funcs *
__marker_site_funcs(const struct marker_site *site)
{
	return __marker_funcs_untag(rcu_dereference_protected(site->funcs,
					lockdep_is_held(&marker_mutex)));
}

/* Does @site call its one typed probe through its trampoline? */
static inline bool marker_site_direct(const struct marker_site *site)
{
	return (unsigned long)rcu_access_pointer(site->funcs) &
	       MARKER_FUNCS_DIRECT;
}

/* The longest marker name: MARK() makes symbols of it (__marker_site_...). */
#define MARKER_NAME_MAX		KSYM_NAME_LEN

/* The longest name of an argument: its event's field (marker_field_names()) */
#define MARKER_FIELD_MAX	32

struct seq_file;

const char *marker_type_name(char type);
int marker_sig_print(char *buf, size_t size, const char *sig);
bool marker_is_glob(const char *name);
bool marker_valid_name(const char *name);
struct marker_rec *marker_rec_find(const struct marker_site *site);
struct marker_rec *marker_rec_alloc(struct marker_site *site,
				    struct module *mod);
int marker_sites_add(struct list_head *found);
void marker_rec_forget(struct marker_rec *rec);
bool marker_retry(void);
struct marker_entry *marker_entry_find(const char *name);
unsigned long marker_probe_hits(const struct marker_probe *probe);
bool marker_site_at_defaults(const struct marker_rec *rec);
const char *marker_site_state(const struct marker_rec *rec);
int marker_site_code(const struct marker_rec *rec, struct seq_file *m);
struct jump_entry *marker_jump_entries(const struct marker_rec *rec,
				       struct jump_entry **stop);

/* marker_locs.c: the copies of each site's code, under marker_mutex */
void marker_locs_add(struct module *mod);
void marker_locs_add_vmlinux(void);
void marker_locs_remove(struct module *mod);
void marker_locs_remove_all(void);
void marker_site_show_locs(const struct marker_rec *rec,
			   struct seq_file *m, bool ksyms);

bool marker_funcs_has(const struct marker_funcs *funcs,
		      const struct marker_probe *probe);
unsigned int marker_probe_sites(const struct marker_probe *probe);

/* What the files that show the registry walk, without its lists. */
typedef void (*marker_site_walk_fn)(const struct marker_rec *rec, void *priv);
typedef void (*marker_probe_walk_fn)(const struct marker_probe *probe,
				     void *priv);
void marker_walk_sites(marker_site_walk_fn fn, void *priv);
void marker_walk_probes(marker_probe_walk_fn fn, void *priv);
bool marker_pattern_has_sites(const char *pattern, marker_generic_fn fn);
void marker_stats_read(struct marker_stats *stats);

/* marker_actions.c */
const char *marker_copy_str(char *pool, size_t *used, size_t size,
			    const char *src);
bool marker_action_formats(const void *func);
struct marker_probe *marker_action_attach_sig(const char *pattern, void *fn,
					      bool generic, void *data,
					      const char *sig);
bool marker_action_inline(const void *func);
const char *marker_consumer_kind(const void *func, bool generic);
int marker_format_check(const struct marker_site *site, char *why,
			size_t len);

/* marker_fire.c */
DECLARE_PER_CPU(bool, marker_firing);
int marker_fire_command(const char *name, char *args);

/* marker_pred.c: a probe's predicate, struct marker_probe.filter compiled */
struct marker_pred *marker_pred_compile(const struct marker_probe *probe,
					const struct marker_rec *rec);
bool marker_pred_fits(const struct marker_pred *pred,
		      const struct marker_site *site, char *why, size_t len);
bool marker_pred_run(const struct marker_pred *pred,
		     const struct marker_site *site, const u64 *args);
void marker_pred_call(void *data, struct marker_site *site, const u64 *args);
const char *marker_pred_text(const struct marker_pred *pred);
void marker_pred_free(struct marker_pred *pred);

/*
 * The consumer a site's entry calls: the probe behind a predicate's
 * marker_pred_call(), or the entry's own function.
 */
static inline void *marker_func_fn(const struct marker_func *f,
				   bool *generic)
{
	const struct marker_probe *probe = f->data;

	if (f->func == (void *)marker_pred_call) {
		*generic = probe->generic;
		return probe->func;
	}
	*generic = f->generic;
	return f->func;
}

/* marker_core.c: what marker_main.c starts and stops */
int marker_registry_start(void);
void marker_registry_stop(void);

void marker_debugfs_init(void);
void marker_debugfs_exit(void);

/* Offered probes (marker_offer.c), connected by name. */
void marker_offers_forget(struct module *mod);
void marker_offers_show(struct seq_file *m);
int marker_actions_init(void);
void marker_actions_exit(void);

/*
 * The trace events of the markers (marker_events.c). event_mutex, which
 * marker_events_lock() takes, nests outside marker_offer_mutex and
 * marker_mutex.
 */
void marker_events_init(void);
void marker_events_exit(void);
void marker_events_lock(void);
void marker_events_unlock(void);
void marker_events_update(void);
void marker_events_sync(void);
bool marker_event_print(struct marker_site *site, const u64 *args);
void marker_field_names(const char *format, unsigned int nargs,
			char names[][MARKER_FIELD_MAX]);
bool marker_event_func(const void *func);

/* The ftrace instance print and stack write to (marker_actions.c). */
#define MARKER_INSTANCE		"markers"

#endif /* _KERNEL_MARKER_INTERNAL_H */
