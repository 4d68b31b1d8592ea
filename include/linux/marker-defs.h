/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The types of the markers, without the macros that generate sites: what a
 * header that only embeds or points to a struct marker_probe or a struct
 * marker_site needs, as tracepoint-defs.h is to tracepoint.h. The API is
 * <linux/marker.h>.
 */
#ifndef _LINUX_MARKER_DEFS_H
#define _LINUX_MARKER_DEFS_H

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/static_call_types.h>
#include <linux/types.h>

struct module;
struct marker_pred;

/*
 * Bumped whenever struct marker_site, or struct marker_funcs that the
 * site reads, changes layout.
 */
#define MARKER_SITE_ABI		0x4d4b0008	/* "MK" v8: marker_funcs.fires */

enum marker_mode {
	MARKER_MODE_NEARZERO	= 1,
	MARKER_MODE_PORTABLE	= 2,
};

/*
 * enum marker_kind - what an armed site runs
 * @MARKER_KIND_CALL: MARK(): the probes connected to its name
 * @MARKER_KIND_INLINE: MARK_INLINE(): its own block of code; no probe is
 *	ever called, only the "inline" action arms it
 */
enum marker_kind {
	MARKER_KIND_CALL	= 0,
	MARKER_KIND_INLINE	= 1,
};

/* Portable mode: what the site's jump target may hold. */
#define MARKER_JUMP_OVER	0UL	/* default: jump over the call */
#define MARKER_JUMP_CALL	1UL	/* armed: take the call */

/*
 * enum marker_type - one character per argument in a signature string.
 * Derived from the argument's C type by MARK() and from the declared types
 * by MARKER_PROBE(); two signatures match when the strings are equal.
 */
enum marker_type {
	MARKER_TYPE_BOOL	= 'b',
	MARKER_TYPE_CHAR	= 'c',
	MARKER_TYPE_UCHAR	= 'C',
	MARKER_TYPE_SHORT	= 'h',
	MARKER_TYPE_USHORT	= 'H',
	MARKER_TYPE_INT		= 'i',
	MARKER_TYPE_UINT	= 'I',
	MARKER_TYPE_LONG	= 'l',
	MARKER_TYPE_ULONG	= 'L',
	MARKER_TYPE_LLONG	= 'q',
	MARKER_TYPE_ULLONG	= 'Q',
	MARKER_TYPE_STRING	= 's',	/* char *, const char * */
	MARKER_TYPE_PTR		= 'p',	/* any other pointer */
};

/* The most arguments one MARK() may pass. */
#define MARKER_MAX_ARGS		10

struct marker_site;

/**
 * typedef marker_generic_fn - a probe that accepts any marker
 * @data: the probe's private data
 * @site: the site that fired; @site->sig gives the type of each argument
 * @args: the site's @site->nargs arguments, each converted to u64 (signed
 *	types sign-extended); nothing after the last
 */
typedef void (*marker_generic_fn)(void *data, struct marker_site *site,
				  const u64 *args);

/*
 * One connected probe, as the site sees it. @hits is the probe's own
 * per-CPU count (struct marker_probe.hits): the site counts each call in
 * it, in the direct call of a lone typed probe and in the loop over an
 * array with a generic entry; the loop over an array of typed probes
 * counts the array's fires instead (struct marker_funcs.fires).
 */
struct marker_func {
	void *func;
	void *data;
	unsigned long __percpu *hits;
	bool generic;
};

/*
 * The probes a site calls. Published by the registry with
 * rcu_assign_pointer(), read by __MARKER_FIRE() under
 * preempt_disable_notrace(), freed after a grace period.
 *
 * The pointer the site holds is tagged MARKER_FUNCS_DIRECT when the
 * array has one typed probe and the site's trampoline targets it: the
 * armed path then tests one bit, and NULL only when it is clear.
 * @generic tells the site's helper whether it needs the arguments as an
 * array: only a generic entry takes them so. An entry with a NULL @func
 * follows the last, f[nr], as a tracepoint's array ends: the helper's
 * loop tests it instead of counting.
 *
 * An array of typed probes only counts its fires in @fires, once a fire
 * and not once a probe (a tracepoint's iterator counts nothing): every
 * probe of f[] runs at each. The registry adds them to the probes' own
 * counts when no site can count in @fires any more, a grace period after
 * it retires the array.
 */
struct marker_funcs {
	struct rcu_head rcu;
	unsigned int nr;
	bool generic;		/* some entry of f[] is generic */
	/* the registry's count of the site's hits, for its actions */
	atomic_long_t *hits;
	/* no entry generic: the array's fires, per CPU; else NULL */
	unsigned long __percpu *fires;
	/* the registry's, once retired: its marker_retired list */
	struct list_head retired;
	struct marker_func f[];
};

#define MARKER_FUNCS_DIRECT	1UL

/* The array a site's pointer (tagged or not) points to. */
static __always_inline struct marker_funcs *
__marker_funcs_untag(struct marker_funcs *funcs)
{
	return (struct marker_funcs *)((unsigned long)funcs & ~MARKER_FUNCS_DIRECT);
}

/**
 * struct marker_site - what one MARK() compiles to (the site descriptor)
 * @abi: MARKER_SITE_ABI, checked by the registry before it trusts the rest
 * @mode: enum marker_mode
 * @kind: enum marker_kind
 * @nargs: number of arguments
 * @name: marker name; all sites of a name arm together
 * @format: printf format of the arguments
 * @sig: signature, one enum marker_type character per argument
 * @tramp: the site's direct-call trampoline, or NULL
 * @key: near-zero mode: the static key guarding the out-of-line call, shared
 *	by every site of @name in the module (NULL in portable mode)
 * @jump: portable mode: MARKER_JUMP_OVER (default) or MARKER_JUMP_CALL
 * @call: the static-call key that retargets @tramp
 * @funcs: the connected probes
 *
 * The constant part, written by MARK() at compile time, is const; the
 * rest is what the armed path reads, written by the registry under its
 * marker_mutex. What the registry knows about the site (its module, its
 * entry, whether arming waits for a retry, what its actions counted) is
 * the registry's own, in a record it allocates (struct marker_rec in
 * kernel/marker-internal.h): a site holds nothing of it, and a change of
 * it rebuilds no annotated module.
 */
struct marker_site {
	const u32 abi;
	const u8 mode;
	const u8 kind;
	const u8 nargs;
	const char *const name;
	const char *const format;
	const char *const sig;
	void *const tramp;
	struct static_key_false *const key;

	unsigned long jump;
	struct static_call_key call;
	struct marker_funcs __rcu *funcs;
};

/**
 * struct marker_loc - one copy of a site's code (MARK() emits one per copy)
 * @site: the site descriptor; the copies of one MARK() that the compiler
 *	inlines into several callers in one file share it
 * @addr: the join point right after the copy's NOP (or compare and branch),
 *	where @ksym is
 * @ksym: the kprobe symbol at @addr, __mark_kprobe_<name>.<file>.<n>,
 *	unique within the module
 *
 * Constant, in section __markers_loc, named __marker_loc.<name>.<file>.<n>
 * in the module's symbol table; the registry only reads it.
 */
struct marker_loc {
	struct marker_site *site;
	unsigned long addr;
	const char *ksym;
};

/**
 * struct marker_probe - a probe, as its module declares it
 * @marker: name of the marker to connect to; for a generic probe, also a
 *	glob pattern (``*``, ``?``, ``[...]``) naming every marker it matches,
 *	loaded now or later
 * @sig: the signature the probe expects; for a generic probe, NULL (any
 *	site), or the one signature of the sites it takes: it passes over the
 *	others of its name or pattern, checked when it connects
 * @func: the probe function
 * @data: passed to @func as its first argument
 * @owner: the module @func lives in
 * @generic: @func is a marker_generic_fn
 * @filter: NULL, or a predicate on the marker's arguments that decides,
 *	before @func runs, whether it runs: ``arg1 > 3 && name == "eth*"``
 *	(see Documentation/markers-admin.rst, "Predicates"); set it before
 *	marker_probe_register(), which compiles it
 * @node: registry bookkeeping (under marker_mutex)
 * @hits: registry bookkeeping: the calls of @func by the sites, per CPU;
 *	allocated by marker_probe_register(), freed by unregister after its
 *	grace period (the sites' arrays point to it until then)
 * @pred: registry bookkeeping: @filter compiled, with the same lifetime as
 *	@hits
 * @registered: registry bookkeeping (under marker_mutex)
 *
 * Declare with MARKER_PROBE() or MARKER_PROBE_GENERIC(); the registry keeps
 * a pointer to it until marker_probe_unregister().
 */
struct marker_probe {
	const char *marker;
	const char *sig;
	void *func;
	void *data;
	struct module *owner;
	bool generic;
	const char *filter;
	struct list_head node;
	unsigned long __percpu *hits;
	struct marker_pred *pred;
	bool registered;
};

#endif /* _LINUX_MARKER_DEFS_H */
