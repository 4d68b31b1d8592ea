// SPDX-License-Identifier: GPL-2.0-only
/*
 * The copies of each site's code, for the listing: where each one is, its
 * kprobe symbol, and (near-zero mode) the bytes at its patchable location.
 *
 * MARK() emits one constant struct marker_loc per copy of its code in
 * section __markers_loc, named __marker_loc.<name>.<file>.<n> in the
 * module's symbol table, where they are found, in tree as out of tree:
 * only the sites are recorded in struct module in a tree that carries the
 * markers (marker_module_sites() in marker_core.c). The registry keeps,
 * per module (and for vmlinux), an array of pointers to them sorted by
 * site: struct marker_locs. It never writes into the annotated module.
 */
#include <linux/bsearch.h>
#include <linux/ctype.h>
#include <linux/jump_label.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/overflow.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include "marker-internal.h"

/**
 * struct marker_locs - the copies of code of one module's sites
 * @list: link in marker_locs_list
 * @mod: the module, or NULL for vmlinux
 * @nr: number of entries in @loc
 * @loc: the module's struct marker_loc, sorted by site, then by address
 */
struct marker_locs {
	struct list_head list;
	struct module *mod;
	unsigned int nr;
	const struct marker_loc *loc[];
};

/* Of struct marker_locs, under marker_mutex. */
static LIST_HEAD(marker_locs_list);

#define MARKER_LOC_PREFIX	"__marker_loc."

static int marker_loc_cmp(const void *a, const void *b)
{
	const struct marker_loc *x = *(const struct marker_loc **)a;
	const struct marker_loc *y = *(const struct marker_loc **)b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return 0;
}

/* bsearch(): the copies of one site, in any order */
static int marker_loc_site_cmp(const void *a, const void *b)
{
	const struct marker_loc *x = *(const struct marker_loc **)a;
	const struct marker_loc *y = *(const struct marker_loc **)b;

	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return 0;
}

static struct marker_locs *marker_locs_find(const struct module *mod)
{
	struct marker_locs *set;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry(set, &marker_locs_list, list)
		if (set->mod == mod)
			return set;
	return NULL;
}

/* Is @loc, read from @mod's symbol table, what MARK() emits? */
static bool marker_loc_valid(const struct marker_loc *loc,
			     struct module *mod)
{
	return within_module((unsigned long)loc, mod) &&
	       within_module((unsigned long)loc->site, mod) &&
	       within_module(loc->addr, mod) &&
	       within_module((unsigned long)loc->ksym, mod) &&
	       loc->site->abi == MARKER_SITE_ABI;
}

/*
 * The struct marker_loc listed in @mod's symbol table, into @set->loc if
 * @set is given (at most @set->nr of them). Returns how many there are.
 */
static unsigned int marker_locs_scan(struct module *mod,
				     struct marker_locs *set)
{
	struct mod_kallsyms *ks;
	unsigned int i, nr = 0;

	preempt_disable();
	ks = rcu_dereference_sched(mod->kallsyms);
	for (i = 0; ks && i < ks->num_symtab; i++) {
		const char *sym = ks->strtab + ks->symtab[i].st_name;
		const struct marker_loc *loc = (void *)ks->symtab[i].st_value;

		/* read-only data: "r" */
		if (tolower(ks->typetab[i]) != 'r' ||
		    strncmp(sym, MARKER_LOC_PREFIX, strlen(MARKER_LOC_PREFIX)) ||
		    !marker_loc_valid(loc, mod))
			continue;
		if (set && nr < set->nr)
			set->loc[nr] = loc;
		nr++;
	}
	preempt_enable();
	return nr;
}

static void marker_locs_publish(struct marker_locs *set)
{
	sort(set->loc, set->nr, sizeof(set->loc[0]), marker_loc_cmp, NULL);
	list_add_tail(&set->list, &marker_locs_list);
}

/**
 * marker_locs_add() - learn the copies of code of @mod's sites
 * @mod: a module whose sites the registry is learning
 *
 * Idempotent (called at COMING and again at LIVE). Without memory, the
 * listing shows "-" for the module's code and symbols; nothing else
 * depends on it.
 */
void marker_locs_add(struct module *mod)
{
	struct marker_locs *set;
	unsigned int nr;

	lockdep_assert_held(&marker_mutex);
	if (marker_locs_find(mod))
		return;
	nr = marker_locs_scan(mod, NULL);
	if (!nr)
		return;
	set = kzalloc(struct_size(set, loc, nr), GFP_KERNEL);
	if (!set) {
		pr_err("%s: no memory to list the code of its sites\n",
		       module_name(mod));
		return;
	}
	set->mod = mod;
	set->nr = nr;
	/* the symbol table does not change while the module is known */
	set->nr = min(nr, marker_locs_scan(mod, set));
	marker_locs_publish(set);
}

#ifndef MODULE
/*
 * Built in: the copies of vmlinux's sites, which the linker script gathers
 * between __start___markers_loc and __stop___markers_loc (integrate.sh).
 */
void marker_locs_add_vmlinux(void)
{
	unsigned int nr = __stop___markers_loc - __start___markers_loc, i;
	struct marker_locs *set;

	lockdep_assert_held(&marker_mutex);
	if (!nr || marker_locs_find(NULL))
		return;
	set = kzalloc(struct_size(set, loc, nr), GFP_KERNEL);
	if (!set) {
		pr_err("vmlinux: no memory to list the code of its sites\n");
		return;
	}
	set->nr = nr;
	for (i = 0; i < nr; i++)
		set->loc[i] = &__start___markers_loc[i];
	marker_locs_publish(set);
}
#endif

/**
 * marker_locs_remove() - forget the copies of code of @mod's sites
 * @mod: a module that is going, or NULL for vmlinux
 */
void marker_locs_remove(struct module *mod)
{
	struct marker_locs *set;

	lockdep_assert_held(&marker_mutex);
	set = marker_locs_find(mod);
	if (!set)
		return;
	list_del(&set->list);
	kfree(set);
}

/** marker_locs_remove_all() - forget every module's copies of code */
void marker_locs_remove_all(void)
{
	struct marker_locs *set, *tmp;

	lockdep_assert_held(&marker_mutex);
	list_for_each_entry_safe(set, tmp, &marker_locs_list, list) {
		list_del(&set->list);
		kfree(set);
	}
}

/* Is the copy still there (init code is freed once the module runs)? */
static bool marker_loc_live(const struct marker_locs *set,
			    const struct marker_loc *loc)
{
	if (set->mod)
		return within_module_core(loc->addr, set->mod);
#ifndef MODULE
	return !is_kernel_inittext(loc->addr);
#else
	return false;
#endif
}

/*
 * The patchable location of the copy @loc of the site of @rec: the last
 * jump-table entry of its key before @loc's join point (the NOP precedes
 * the join).
 */
static const u8 *marker_loc_code(const struct marker_rec *rec,
				 const struct marker_loc *loc)
{
	const struct marker_site *site = rec->site;
	struct jump_entry *iter, *stop;
	unsigned long best = 0;

	for (iter = marker_jump_entries(rec, &stop); iter < stop; iter++) {
		unsigned long code = jump_entry_code(iter);

		if (jump_entry_key(iter) == &site->key->key &&
		    code <= loc->addr && code > best)
			best = code;
	}
	return (const u8 *)best;
}

/**
 * marker_site_show_locs() - print a site's copies of code
 * @rec: the registry's record of the site
 * @m: the listing
 * @ksyms: print the copies' kprobe symbols, else (near-zero mode) the
 *	bytes at their patchable locations
 *
 * One item per copy still in memory, comma-separated; "-" for none.
 * Called under marker_mutex.
 */
void marker_site_show_locs(const struct marker_rec *rec,
			   struct seq_file *m, bool ksyms)
{
	struct marker_locs *set = marker_locs_find(rec->mod);
	const struct marker_site *site = rec->site;
	const struct marker_loc key = { .site = rec->site };
	const struct marker_loc *kp = &key, **first;
	unsigned int n = 0, i, len;
	bool nop;

	lockdep_assert_held(&marker_mutex);
	first = set ? bsearch(&kp, set->loc, set->nr, sizeof(set->loc[0]),
			      marker_loc_site_cmp) : NULL;
	/* bsearch() found one copy of the site: back up to the first */
	while (first && first > set->loc && first[-1]->site == site)
		first--;
	for (i = 0;
	     first && first + i < set->loc + set->nr && first[i]->site == site;
	     i++) {
		const struct marker_loc *loc = first[i];
		const u8 *code;

		if (!marker_loc_live(set, loc))
			continue;
		seq_puts(m, n++ ? "," : "");
		if (ksyms) {
			seq_puts(m, loc->ksym);
			continue;
		}
		code = marker_loc_code(rec, loc);
		if (!code) {
			seq_puts(m, "?");
			continue;
		}
		len = arch_marker_insn(code, &nop);
		seq_printf(m, "%*phN", len, code);
	}
	if (!n)
		seq_puts(m, "-");
}
