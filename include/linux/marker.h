/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Static markers: compile-time annotation points that cost one NOP while
 * nobody listens, and call typed probes loaded at run time when armed.
 * See Documentation/markers.rst.
 *
 * API overview
 * ============
 *
 * Annotated code (any function, any module, no declaration elsewhere):
 *
 *	MARK(subsys_mark2, "%d %s", value, name);
 *
 *   The format is checked by the compiler, as for printk(). The argument
 *   expressions are evaluated only while the marker is armed. Every MARK()
 *   with the same name arms and disarms together. With CONFIG_MARKERS off,
 *   MARK() compiles to the format check and nothing else.
 *
 * Probe modules, in the order a probe author meets them:
 *
 *	static void probe_mark2(void *data, int value, const char *name)
 *	{
 *		pr_info("value is %d\n", value);
 *	}
 *	static struct marker_probe mark2_probe =
 *		MARKER_PROBE(subsys_mark2, probe_mark2, NULL, int, const char *);
 *
 *	init:	ret = marker_probe_register(&mark2_probe);
 *	exit:	marker_probe_unregister(&mark2_probe);
 *		marker_synchronize_unregister();
 *
 *   MARKER_PROBE() checks at compile time that the function takes
 *   (void *data, <types>) and records the types as the probe's signature;
 *   the registry compares it with the signature MARK() derived from its
 *   argument types before arming. A probe registered before its marker's
 *   module is loaded stays pending and is armed when the module arrives.
 *
 *   MARKER_PROBE_GENERIC() declares a probe that accepts any marker and
 *   receives the arguments as an array of u64 together with the site, whose
 *   ->sig gives their types (see enum marker_type).
 *
 *   A predicate decides, before the probe runs, whether it runs; compiled
 *   once, checked against the marker's types, evaluated at each hit:
 *
 *	mark2_probe.filter = "arg1 > 100 && arg2 == \"eth*\"";
 *	# echo 'enable subsys_mark2 count if arg1 > 100' >.../markers/control
 *
 *   Or the probe is only offered, and an administrator connects it:
 *
 *	init:	ret = marker_probe_offer(&mark2_probe);
 *	exit:	marker_probe_withdraw(&mark2_probe);
 *
 *	# echo 'connect probe_mark2' >/sys/kernel/debug/markers/control
 *
 *   (or markerctl connect, or the loader's probes=). While connected, the
 *   registry holds a reference on the probe's module: rmmod is refused
 *   until "disconnect probe_mark2", which waits for a grace period.
 *
 * The registry's built-in actions (count, print, stack, inline), from
 * code, as the control file, the loader and the trace events attach them:
 *
 *	probe = marker_action_attach("subsys_*", marker_action("print"),
 *				     NULL, "arg1 > 100");
 *	...
 *	marker_action_detach(probe);
 *
 * Code of the annotator's own that runs only while armed (the 2006
 * MARK_JUMP_INLINE), for checks compiled into production code:
 *
 *	MARK_INLINE(subsys_check, {
 *		WARN_ON_ONCE(!list_empty(&pending));
 *	});
 *
 *	# echo 'enable subsys_check inline' >/sys/kernel/debug/markers/control
 *
 *   It takes no probe: only the action "inline" arms it (control file,
 *   markerctl, the loader's action=inline), and no module is pinned.
 *
 * Modes (chosen by the architecture, never by the annotator):
 *
 *   near-zero	CONFIG_JUMP_LABEL: the disarmed site is one 2- or 5-byte NOP,
 *		patched into a JMP to the out-of-line call by the static-key
 *		API (int3 text poke on x86).
 *   portable	otherwise, or when built with MARKERS_FORCE_PORTABLE: the
 *		site loads its jump target, compares it with "over the call"
 *		and branches; no indirect branch on the disarmed path.
 *
 * In both modes a single typed probe is reached by a direct call through a
 * per-site trampoline retargeted with __static_call_update() where the
 * architecture has static calls, and every site carries the text symbol
 * __mark_kprobe_<name> for kprobes, kprobe_events and perf probe.
 */
#ifndef _LINUX_MARKER_H
#define _LINUX_MARKER_H

#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/jump_label.h>
#include <linux/marker-defs.h>
#include <linux/objtool.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/stringify.h>

/* The architecture's part: only x86_64 has one (the registry needs it). */
#ifdef CONFIG_X86_64
#include <asm/marker.h>
#endif

/*
 * Where the configuration comes from: in a kernel tree that carries the
 * markers, Kconfig.marker (CONFIG_MARKERS_TREE, and CONFIG_MARKERS when
 * the option is on); out of tree, the Kbuild fragment that "make install"
 * puts in /usr/src/markers/markers.kbuild (CONFIG_MARKERS_MODULE). Neither
 * means a module built out of tree without the fragment, whose markers
 * would silently compile away: refuse it, unless it asks for that.
 */
#if !defined(CONFIG_MARKERS_TREE) && !defined(CONFIG_MARKERS) && \
	!defined(CONFIG_MARKERS_MODULE) && !defined(MARKERS_DISABLE)
#error "<linux/marker.h> out of tree: add 'include /usr/src/markers/markers.kbuild' to the Kbuild"
#error "markers.kbuild sets -I, -DCONFIG_MARKERS_MODULE=1 and KBUILD_EXTRA_SYMBOLS"
#error "(Documentation/markers-intree.rst); or define MARKERS_DISABLE to compile the markers away"
#endif

/* -- Argument plumbing, shared by MARK() and MARKER_PROBE() ------------- */

/*
 * __MARKER_NARGS(a, b, ...): how many arguments, up to 12 (beyond
 * MARKER_MAX_ARGS); __MARKER_CAT(a, b): a and b pasted once expanded. The
 * kernel's COUNT_ARGS() and CONCATENATE(), which moved from
 * <linux/kernel.h> to <linux/args.h> in 6.6; our own, so that the public
 * header has no kernel-version branch, and no __has_include(), which
 * sparse 0.6.4 cannot parse (an error in every file that includes it).
 */
#define ___MARKER_NARGS(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10,	\
			_11, _12, n, ...) n
#define __MARKER_NARGS(...)						\
	___MARKER_NARGS(, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, \
			1, 0)
#define ___MARKER_CAT(a, b)	a ## b
#define __MARKER_CAT(a, b)	___MARKER_CAT(a, b)

/*
 * __MARKER_MAP(m, a, b, ...) -> m(N, a) m(N - 1, b) ... m(1, z): the index
 * counts down; a list needs m to bring its own commas. N is
 * __MARKER_NARGS().
 */
#define __MARKER_MAP(m, ...) \
	__MARKER_CAT(__MARKER_MAP_,					\
		     __MARKER_NARGS(__VA_ARGS__))(m, ##__VA_ARGS__)
#define __MARKER_MAP_0(m)
#define __MARKER_MAP_1(m, a)		m(1, a)
#define __MARKER_MAP_2(m, a, ...)	m(2, a) __MARKER_MAP_1(m, __VA_ARGS__)
#define __MARKER_MAP_3(m, a, ...)	m(3, a) __MARKER_MAP_2(m, __VA_ARGS__)
#define __MARKER_MAP_4(m, a, ...)	m(4, a) __MARKER_MAP_3(m, __VA_ARGS__)
#define __MARKER_MAP_5(m, a, ...)	m(5, a) __MARKER_MAP_4(m, __VA_ARGS__)
#define __MARKER_MAP_6(m, a, ...)	m(6, a) __MARKER_MAP_5(m, __VA_ARGS__)
#define __MARKER_MAP_7(m, a, ...)	m(7, a) __MARKER_MAP_6(m, __VA_ARGS__)
#define __MARKER_MAP_8(m, a, ...)	m(8, a) __MARKER_MAP_7(m, __VA_ARGS__)
#define __MARKER_MAP_9(m, a, ...)	m(9, a) __MARKER_MAP_8(m, __VA_ARGS__)
#define __MARKER_MAP_10(m, a, ...)	m(10, a) __MARKER_MAP_9(m, __VA_ARGS__)
/* A comma for m to start its item with (a list follows what precedes it). */
#define __MARKER_COMMA(),

/* The signature character of an expression (arrays decay, as in a call). */
#define __MARKER_TYPE_CODE(x) _Generic((x),				\
	bool : MARKER_TYPE_BOOL,					\
	char : MARKER_TYPE_CHAR,					\
	signed char : MARKER_TYPE_CHAR,					\
	unsigned char : MARKER_TYPE_UCHAR,				\
	short : MARKER_TYPE_SHORT,					\
	unsigned short : MARKER_TYPE_USHORT,				\
	int : MARKER_TYPE_INT,						\
	unsigned int : MARKER_TYPE_UINT,				\
	long : MARKER_TYPE_LONG,					\
	unsigned long : MARKER_TYPE_ULONG,				\
	long long : MARKER_TYPE_LLONG,					\
	unsigned long long : MARKER_TYPE_ULLONG,			\
	typeof((char *)0) : MARKER_TYPE_STRING,				\
	typeof((const char *)0) : MARKER_TYPE_STRING,			\
	default :							\
		MARKER_TYPE_PTR)

#define __MARKER_ARG_CODE(i, a)		__MARKER_TYPE_CODE(a),
#define __MARKER_TYPE_SIG(i, t)		__MARKER_TYPE_CODE((t)0),
#define __MARKER_ARG_LOCAL(i, a)	__auto_type __marg##i = ((void)0, (a));
#define __MARKER_ARG_U64_C(i, a)	__MARKER_COMMA() (u64)(__marg##i)

/* -- The site ------------------------------------------------------------- */

#if IS_ENABLED(CONFIG_MARKERS)

#if BITS_PER_LONG != 64
#error "markers pass probe arguments as 64-bit slots: 64-bit architectures only"
#endif

#if defined(CONFIG_JUMP_LABEL) && !defined(MARKERS_FORCE_PORTABLE)
#define __MARKER_MODE		MARKER_MODE_NEARZERO
#define __MARKER_ARMED(name, site) static_branch_unlikely(&__marker_key_##name)
#define __MARKER_KEY(name)	(&__marker_key_##name)

/*
 * The static key of every site of @name in a module (in vmlinux: of every
 * built-in site): a weak, zeroed struct static_key_false (which is
 * STATIC_KEY_FALSE_INIT) that each file using the name defines once, and
 * the linker merges. One key update then patches all the sites of a name
 * in one text_poke_bp() batch.
 */
#define __MARKER_KEY_DEFINE(name)					\
	extern struct static_key_false __marker_key_##name;		\
	asm(".pushsection .data, \"aw\"\n"				\
	    ".ifndef __marker_key_" #name "\n"				\
	    ".weak __marker_key_" #name "\n"				\
	    ".type __marker_key_" #name ", @object\n"			\
	    ".size __marker_key_" #name ", %c0\n"			\
	    ".balign 8\n"						\
	    "__marker_key_" #name ":\n"					\
	    ".zero %c0\n"						\
	    ".endif\n"							\
	    ".popsection\n"						\
	    : : "i" (sizeof(struct static_key_false)))
#else
#define __MARKER_MODE		MARKER_MODE_PORTABLE
#define __MARKER_ARMED(name, site) \
	unlikely(READ_ONCE((site)->jump) != MARKER_JUMP_OVER)
#define __MARKER_KEY(name)	NULL
#define __MARKER_KEY_DEFINE(name)
#endif

/*
 * The kprobe symbols: text labels at the join point right after the site's
 * NOP (or compare and branch), so they run whether or not the marker is
 * armed. Volatile asm keeps them in order with the site's own asm.
 *
 * Every copy of the site's code has a label of its own,
 * __mark_kprobe_<name>.<file>.<n>: %= is unique to each instance of the
 * asm statement in the file, inlined copies and copies the compiler
 * duplicates included, and <file> (KBUILD_BASENAME) tells the files of a
 * module apart. Next to it, a struct marker_loc in __markers_loc tells the
 * registry which site and which label the copy has, for the listing (the
 * label is no indirect branch target: ANNOTATE_NOENDBR tells objtool, or
 * an IBT kernel's objtool warns of the record's relocation). The
 * first copy of a name in each file also defines __mark_kprobe_<name>,
 * weak, so that the linker keeps one per module (in vmlinux, one).
 *
 * kprobe_events (and so perf probe and bpftrace) refuse an address whose
 * kallsyms "function" has no ftrace location, and a label starts such a
 * function. They accept a suffixed name, foo.part, when foo is traceable:
 * so each label is preceded by an alias with that shape, whose base is a
 * small traceable function of the file's own, and the addresses after the
 * label stay probeable too. The tracer looks at the name kallsyms gives the
 * address: in a module, the first symbol at the address (locals come
 * first, the alias first among them); in vmlinux, among names at one
 * address, the one with the fewest leading underscores, hence the base's
 * single one.
 */
static void __maybe_unused _marker_kprobe_anchor(void)
{
}

#ifdef KBUILD_BASENAME
#define __MARKER_FILE		KBUILD_BASENAME
#else
#define __MARKER_FILE		"file"
#endif

#define __MARKER_KSYM(name)	"__mark_kprobe_" #name "." __MARKER_FILE ".%="
#define __MARKER_LOC(name)	"__marker_loc." #name "." __MARKER_FILE ".%="

#define __MARKER_KPROBE_SYM(name, site)					\
	asm volatile("_marker_kprobe_anchor." __MARKER_KSYM(name) ":\n"	\
		     __MARKER_KSYM(name) ":\n"				\
		     ANNOTATE_NOENDBR						\
		     ".ifndef __mark_kprobe_" #name "\n"			\
		     ".weak __mark_kprobe_" #name "\n"			\
		     "__mark_kprobe_" #name ":\n"				\
		     ".endif\n"						\
		     ".pushsection __markers_loc, \"a\"\n"			\
		     ".balign 8\n"						\
		     __MARKER_LOC(name) ":\n"					\
		     ".type " __MARKER_LOC(name) ", @object\n"		\
		     ".size " __MARKER_LOC(name) ", %c2\n"			\
		     ".quad %c1\n"						\
		     ".quad " __MARKER_KSYM(name) "\n"			\
		     ".quad 1f\n"						\
		     ".popsection\n"						\
		     ".pushsection .rodata, \"a\"\n"				\
		     "1: .asciz \"" __MARKER_KSYM(name) "\"\n"		\
		     ".popsection\n"						\
		     : : "i" (_marker_kprobe_anchor), "i" (site),		\
			 "i" (sizeof(struct marker_loc)))

/*
 * A single typed probe is called through a static-call trampoline of the
 * site's own, where the architecture writes one (ARCH_MARKER_TRAMP() in
 * <asm/marker.h>); elsewhere through the pointer in the site's array.
 */
#ifdef ARCH_MARKER_TRAMP
#define __MARKER_TRAMP_DECL(id, tsym, ...)				\
	extern void __marker_tramp_##id(void *__MARKER_MAP(		\
		__MARKER_ARG_TYPEOF_C, ##__VA_ARGS__))			\
		asm(tsym);						\
	ARCH_MARKER_TRAMP(tsym)
#define __MARKER_TRAMP_ADDR(id)		((void *)__marker_tramp_##id)
#define __MARKER_CALL_INIT		.call.func = NULL, .call.type = 1
#define __MARKER_CALL_ONE(id, f, ...)	__marker_tramp_##id(__VA_ARGS__)
#else
#define __MARKER_TRAMP_DECL(id, tsym, ...)
#define __MARKER_TRAMP_ADDR(id)		NULL
#define __MARKER_CALL_ONE(id, f, ...)	((f)__f->func)(__VA_ARGS__)
#define __MARKER_CALL_INIT		.call.func = NULL
#endif

#define __MARKER_TRAMP_SYM(name, id) \
	"__marker_tramp_" #name "_" __stringify(id)

/*
 * Several probes, or a generic one: called out of line, once per file and
 * number of arguments, so that the annotated function keeps nothing live
 * across their calls and holds no array (-fstack-protector-strong would
 * add a canary check to every call of the function, armed or not). The
 * arguments travel as u64: on the 64-bit ABIs every integer or pointer
 * argument, whatever its width, takes one 64-bit register or stack slot,
 * so a typed probe called with them reads exactly what MARK() passed, and
 * ignores the padding (as tracepoints' tp_stub_func ignores its
 * arguments). A generic probe gets the site's nargs of them, no more: a
 * helper of its own for each count passes and stores only those (a
 * marker of one argument pays for one, not for MARKER_MAX_ARGS).
 *
 * __marker_call_all_<n>() only dispatches, by tail calls that pass the
 * registers on as they are (hence the site last, which only the generic
 * probes take): typed probes only, the common case, go to the loop of
 * __marker_call_typed_<n>(), which holds no array: a tracepoint
 * iterator's loop plus one count of the array's fires (struct
 * marker_funcs.fires). One generic probe alone (an action, an event, the
 * loader) goes to __marker_call_generic_<n>(): the array and one call,
 * no loop, nothing kept across the call. Any other array with a generic
 * entry goes to __marker_call_array_<n>(). None of them is traced
 * (notrace): they run inside the site's armed path, and an __fentry__
 * call would be one more instruction a fire.
 *
 * The two that build the array have no stack protector: the array is
 * written once, by constant indexes, to exactly its size, and the probes
 * get it const; a canary would add a load, a store and a check to every
 * fire (6 instructions against the 14 of a typed probe's fire).
 */
#define __MARKER_U64_PARAM_C(i, a)	__MARKER_COMMA() u64 __mu##i
#define __MARKER_U64_NAME_C(i, a)	__MARKER_COMMA() __mu##i
#define __MARKER_U64_NAME_T(i, a)	__mu##i,
#define __MARKER_CALL_TYPED(f, ...)					\
	((void (*)(void *__MARKER_MAP(__MARKER_U64_PARAM_C,		\
				      ##__VA_ARGS__)))READ_ONCE((f)->func))( \
		(f)->data __MARKER_MAP(__MARKER_U64_NAME_C, ##__VA_ARGS__))
/* The helpers' parameters, and their arguments when one calls another */
#define __MARKER_HELPER_PARAMS(...)					\
	const struct marker_funcs *funcs				\
	__MARKER_MAP(__MARKER_U64_PARAM_C, ##__VA_ARGS__),		\
	struct marker_site *site
#define __MARKER_HELPER_ARGS(...)					\
	funcs __MARKER_MAP(__MARKER_U64_NAME_C, ##__VA_ARGS__), site
/* The arguments as a generic probe takes them */
#define __MARKER_U64_ARRAY(...)						\
	const u64 args[__MARKER_NARGS(__VA_ARGS__) ?: 1] = {		\
		__MARKER_MAP(__MARKER_U64_NAME_T, ##__VA_ARGS__)	\
	}
#define __MARKER_DEFINE_CALL_ALL(...)					\
static noinline notrace __no_stack_protector void __maybe_unused	\
__MARKER_CAT(__marker_call_array_, __MARKER_NARGS(__VA_ARGS__))(	\
	__MARKER_HELPER_PARAMS(__VA_ARGS__))				\
{									\
	__MARKER_U64_ARRAY(__VA_ARGS__);				\
	const struct marker_func *f, *end = funcs->f + funcs->nr;	\
									\
	for (f = funcs->f; f < end; f++) {				\
		this_cpu_inc(*f->hits);					\
		if (f->generic)						\
			((marker_generic_fn)f->func)(f->data, site, args); \
		else							\
			__MARKER_CALL_TYPED(f, ##__VA_ARGS__);		\
	}								\
}									\
									\
static noinline notrace __no_stack_protector void __maybe_unused	\
__MARKER_CAT(__marker_call_generic_, __MARKER_NARGS(__VA_ARGS__))(	\
	__MARKER_HELPER_PARAMS(__VA_ARGS__))				\
{									\
	__MARKER_U64_ARRAY(__VA_ARGS__);				\
	const struct marker_func *f = funcs->f;				\
									\
	this_cpu_inc(*f->hits);						\
	((marker_generic_fn)READ_ONCE(f->func))(f->data, site, args);	\
}									\
									\
static noinline notrace void __maybe_unused				\
__MARKER_CAT(__marker_call_typed_, __MARKER_NARGS(__VA_ARGS__))(	\
	const struct marker_funcs *funcs				\
	__MARKER_MAP(__MARKER_U64_PARAM_C, ##__VA_ARGS__))		\
{									\
	const struct marker_func *f = funcs->f;				\
									\
	/* one count a fire: the registry credits each probe with it */	\
	this_cpu_inc(*funcs->fires);					\
	do {								\
		__MARKER_CALL_TYPED(f, ##__VA_ARGS__);			\
		/* f[nr] ends it; no array is published empty */	\
	} while ((++f)->func);						\
}									\
									\
static noinline notrace void __maybe_unused				\
__MARKER_CAT(__marker_call_all_, __MARKER_NARGS(__VA_ARGS__))(		\
	__MARKER_HELPER_PARAMS(__VA_ARGS__))				\
{									\
	if (unlikely(funcs->generic) && funcs->nr == 1)			\
		__MARKER_CAT(__marker_call_generic_,			\
			    __MARKER_NARGS(__VA_ARGS__))(		\
			__MARKER_HELPER_ARGS(__VA_ARGS__));		\
	else if (unlikely(funcs->generic))				\
		__MARKER_CAT(__marker_call_array_,			\
			    __MARKER_NARGS(__VA_ARGS__))(		\
			__MARKER_HELPER_ARGS(__VA_ARGS__));		\
	else								\
		__MARKER_CAT(__marker_call_typed_,			\
			    __MARKER_NARGS(__VA_ARGS__))(funcs		\
			__MARKER_MAP(__MARKER_U64_NAME_C, ##__VA_ARGS__)); \
}

/*
 * m(...) for each number of arguments a marker may pass, 0 to
 * MARKER_MAX_ARGS, as that many placeholders; and the functions p<n> of
 * each, as an array's initializer (the registry's own, by nargs).
 */
#define __MARKER_FOR_EACH_NARGS(m)					\
	m() m(_) m(_, _) m(_, _, _) m(_, _, _, _) m(_, _, _, _, _)	\
	m(_, _, _, _, _, _) m(_, _, _, _, _, _, _)			\
	m(_, _, _, _, _, _, _, _) m(_, _, _, _, _, _, _, _, _)		\
	m(_, _, _, _, _, _, _, _, _, _)
#define __MARKER_NARGS_FNS(p)						\
	{ p##0, p##1, p##2, p##3, p##4, p##5, p##6, p##7, p##8, p##9,	\
	  p##10 }
static_assert(MARKER_MAX_ARGS == 10, "__MARKER_FOR_EACH_NARGS() stops at 10");

__MARKER_FOR_EACH_NARGS(__MARKER_DEFINE_CALL_ALL)

/*
 * preempt_enable_notrace(), with its call of the scheduler out of line,
 * once a file. On a PREEMPT_DYNAMIC kernel that call is an inline static
 * call, which the kernel patches when the module loads, one text_poke_bp()
 * (three sync IPIs on two CPUs) for each: once a site, it made loading a
 * module of 10 000 sites cost 30 000 IPIs. The test and the branch stay
 * in the site, as preempt_enable_notrace() has them.
 */
#ifdef CONFIG_PREEMPTION
static noinline notrace void __maybe_unused __marker_resched(void)
{
	__preempt_schedule_notrace();
}

#define __marker_preempt_enable()					\
do {									\
	barrier();							\
	if (unlikely(__preempt_count_dec_and_test()))			\
		__marker_resched();					\
} while (0)
#else
#define __marker_preempt_enable()	preempt_enable_notrace()
#endif

/*
 * The registry's grace period covers a probe only where RCU watches the
 * CPU: not in the idle loop, early entry code or noinstr code, where a
 * marker must not be. As tracepoints do (__DECLARE_TRACE()), check it
 * under lockdep only, at no cost elsewhere; a hit there is dropped, not
 * run outside the grace period. Checked before rcu_dereference_sched(),
 * whose own lockdep check would splat first.
 */
static __always_inline bool __marker_rcu_unwatched(const struct marker_site *site)
{
	return IS_ENABLED(CONFIG_LOCKDEP) &&
	       WARN_ONCE(!rcu_is_watching(),
			 "marker %s: RCU is not watching, hit dropped\n",
			 site->name);
}

/*
 * The armed path: evaluate the arguments once, then call the connected
 * probes with preemption disabled (the registry's grace period is
 * synchronize_rcu(), which waits for such sections), counting each call
 * in the probe's per-CPU count (one instruction on x86, NMI-safe).
 */
#define __MARKER_FIRE(site, id, ...)					\
do {									\
	struct marker_funcs *__mf;					\
	__MARKER_MAP(__MARKER_ARG_LOCAL, ##__VA_ARGS__)			\
	preempt_disable_notrace();					\
	__mf = __marker_rcu_unwatched(site) ? NULL :			\
		rcu_dereference_sched((site)->funcs);			\
	if (likely((unsigned long)__mf & MARKER_FUNCS_DIRECT)) {	\
		/* the tag folded into the offset: no instruction untags */ \
		const struct marker_func *__f = (const void *)		\
			((const char *)__mf + (offsetof(struct marker_funcs, f) - \
					       MARKER_FUNCS_DIRECT));	\
									\
		this_cpu_inc(*__f->hits);				\
		__MARKER_CALL_ONE(id, void (*)(void *__MARKER_MAP(	\
				__MARKER_ARG_TYPE_C, ##__VA_ARGS__)),	\
			__f->data __MARKER_MAP(				\
				__MARKER_ARG_NAME_C, ##__VA_ARGS__));	\
	} else if (__mf) {						\
		__MARKER_CAT(__marker_call_all_,			\
			    __MARKER_NARGS(__VA_ARGS__))(__mf		\
			__MARKER_MAP(__MARKER_ARG_U64_C, ##__VA_ARGS__), (site)); \
	}								\
	__marker_preempt_enable();					\
} while (0)

/* Each with a leading comma, to follow the probe's data argument. */
#define __MARKER_ARG_TYPE_C(i, a)	__MARKER_COMMA() typeof(__marg##i)
#define __MARKER_ARG_TYPEOF_C(i, a)	__MARKER_COMMA() typeof(a)
#define __MARKER_ARG_NAME_C(i, a)	__MARKER_COMMA() __marg##i

#define __MARK(_name, id, _fmt, ...)					\
do {									\
	static const char __marker_sig_##_name[] = {			\
		__MARKER_MAP(__MARKER_ARG_CODE, ##__VA_ARGS__) '\0'	\
	};								\
	__MARKER_TRAMP_DECL(id, __MARKER_TRAMP_SYM(_name, id), ##__VA_ARGS__); \
	__MARKER_KEY_DEFINE(_name);					\
	static struct marker_site __marker_site_##_name			\
	__aligned(8) __section("__markers") = {				\
		.abi	= MARKER_SITE_ABI,				\
		.mode	= __MARKER_MODE,				\
		.kind	= MARKER_KIND_CALL,				\
		.nargs	= __MARKER_NARGS(__VA_ARGS__),			\
		.name	= #_name,					\
		.format	= _fmt,						\
		.sig	= __marker_sig_##_name,				\
		.tramp	= __MARKER_TRAMP_ADDR(id),			\
		.key	= __MARKER_KEY(_name),				\
		.jump	= MARKER_JUMP_OVER,				\
		__MARKER_CALL_INIT,					\
	};								\
	static_assert(__MARKER_NARGS(__VA_ARGS__) <= MARKER_MAX_ARGS);	\
	if (__MARKER_ARMED(_name, &__marker_site_##_name))		\
		__MARKER_FIRE(&__marker_site_##_name, id, ##__VA_ARGS__); \
	__MARKER_KPROBE_SYM(_name, &__marker_site_##_name);		\
} while (0)

/* Expands @id (__COUNTER__) once, so that every use in __MARK() agrees. */
#define __MARK_ID(_name, id, _fmt, ...)	__MARK(_name, id, _fmt, ##__VA_ARGS__)

/*
 * The inline site: the same key (or jump target) and kprobe symbol as
 * __MARK(), no arguments, no trampoline, and the annotator's block where
 * __MARK() has the call. The block is out of line (the branch is
 * unlikely), in the annotated function's own context: not under
 * preempt_disable(), not a probe, so it is not waited for by the
 * registry's grace period, which has nothing of it to free.
 */
#define __MARK_INLINE(_name, ...)					\
do {									\
	__MARKER_KEY_DEFINE(_name);					\
	static struct marker_site __marker_site_##_name			\
	__aligned(8) __section("__markers") = {				\
		.abi	= MARKER_SITE_ABI,				\
		.mode	= __MARKER_MODE,				\
		.kind	= MARKER_KIND_INLINE,				\
		.name	= #_name,					\
		.format	= "",						\
		.sig	= "",						\
		.key	= __MARKER_KEY(_name),				\
		.jump	= MARKER_JUMP_OVER,				\
		__MARKER_CALL_INIT,					\
	};								\
	if (__MARKER_ARMED(_name, &__marker_site_##_name)) {		\
		__VA_ARGS__						\
	}								\
	__MARKER_KPROBE_SYM(_name, &__marker_site_##_name);		\
} while (0)

#else /* !CONFIG_MARKERS */

#define __MARK_ID(_name, id, _fmt, ...)	do { } while (0)
#define __MARK_INLINE(_name, ...)					\
do {									\
	if (0) {							\
		__VA_ARGS__						\
	}								\
} while (0)

#endif /* CONFIG_MARKERS */

static inline __printf(1, 2) void __marker_check_format(const char *fmt, ...)
{
}

/**
 * MARK() - annotate a point of interest
 * @name: the marker's name, a C identifier; unique to what it marks, since
 *	every MARK() with this name arms together and must pass the same types
 * @fmt: printf format describing the arguments (checked at compile time)
 * @...: the arguments: integers or pointers, at most MARKER_MAX_ARGS,
 *	evaluated only while the marker is armed
 *
 * Context: any, including NMI; the probes run with preemption disabled.
 */
#define MARK(name, fmt, ...)						\
do {									\
	if (0)								\
		__marker_check_format(fmt, ##__VA_ARGS__);		\
	__MARK_ID(name, __COUNTER__, fmt, ##__VA_ARGS__);		\
} while (0)

/**
 * MARK_INLINE() - code that runs only while its marker is armed
 * @name: the marker's name, a C identifier; every MARK_INLINE() of this
 *	name arms together; a name is either inline or MARK()'s, never both
 * @...: the code, a block in braces: ``MARK_INLINE(name, { ... });``
 *
 * Disarmed, the site costs what a MARK() without arguments costs: one NOP
 * in near-zero mode, a load, a compare and a branch in portable mode; it
 * has the same __mark_kprobe_<name> symbol after it. The action "inline",
 * and nothing else, arms it by name (``enable NAME inline`` in the control
 * file, ``markerctl enable NAME --action inline``, the loader's
 * ``action=inline``); it takes no probe and has no trace event. The block
 * runs in the context of the code around it, as if written there behind
 * an if: it may sleep where that code may. break and continue in the block
 * end the block (it is the body of a do-while); use goto to leave a loop.
 * With CONFIG_MARKERS off, the block is compiled (checked) but never run.
 *
 * Context: any; the block's own.
 */
#define MARK_INLINE(name, ...)	__MARK_INLINE(name, __VA_ARGS__)

/* -- Probes ----------------------------------------------------------------- */

/**
 * MARKER_PROBE() - initializer for a typed struct marker_probe
 * @_marker: the marker's name (an identifier, as given to MARK())
 * @_fn: the probe, ``void fn(void *data, <types>)``
 * @_data: passed to @_fn as @data
 * @...: the argument types, in order; they must be what MARK() passes
 *
 * Fails to compile if @_fn does not take ``(void *, <types>)``.
 */
#define MARKER_PROBE(_marker, _fn, _data, ...)				\
{									\
	.marker	= #_marker,						\
	.sig	= (const char []){					\
		__MARKER_MAP(__MARKER_TYPE_SIG, ##__VA_ARGS__) '\0' }	\
		+ BUILD_BUG_ON_ZERO(!__same_type(&(_fn),		\
				void (*)(void *, ##__VA_ARGS__))),	\
	.func	= (_fn),						\
	.data	= (_data),						\
	.owner	= THIS_MODULE,						\
}

/**
 * MARKER_PROBE_GENERIC() - initializer for a probe that takes any marker
 * @_marker: the marker's name
 * @_fn: a marker_generic_fn
 * @_data: passed to @_fn as @data
 */
#define MARKER_PROBE_GENERIC(_marker, _fn, _data)			\
{									\
	.marker	= #_marker,						\
	.sig	= NULL,							\
	.func	= (void *)(_fn) + BUILD_BUG_ON_ZERO(!__same_type(&(_fn),	\
					marker_generic_fn)),		\
	.data	= (_data),						\
	.owner	= THIS_MODULE,						\
	.generic = true,						\
}

/* The names marker_action() knows, as a refusal's message lists them. */
#define MARKER_ACTION_NAMES	"count, print, stack or inline"

#if IS_ENABLED(CONFIG_MARKERS)
int marker_probe_register(struct marker_probe *probe);
void marker_probe_unregister(struct marker_probe *probe);
void marker_probe_unregister_many(struct marker_probe **probes, unsigned int nr);
void marker_synchronize_unregister(void);
int marker_probe_offer(struct marker_probe *probe);
void marker_probe_withdraw(struct marker_probe *probe);
int marker_offer_connect(const char *name);
int marker_offer_disconnect(const char *name);
marker_generic_fn marker_action(const char *name);
struct marker_probe *__marker_action_attach(const char *pattern,
					    marker_generic_fn fn, void *data,
					    const char *filter,
					    struct module *owner);
void marker_action_detach(struct marker_probe *probe);
void marker_action_detach_many(struct marker_probe **probes, unsigned int nr);
#else
static inline int marker_probe_register(struct marker_probe *probe)
{
	return -EOPNOTSUPP;
}

static inline void marker_probe_unregister(struct marker_probe *probe)
{
}

static inline void marker_probe_unregister_many(struct marker_probe **probes,
						unsigned int nr)
{
}

static inline void marker_synchronize_unregister(void)
{
}

static inline int marker_probe_offer(struct marker_probe *probe)
{
	return -EOPNOTSUPP;
}

static inline void marker_probe_withdraw(struct marker_probe *probe)
{
}

static inline int marker_offer_connect(const char *name)
{
	return -EOPNOTSUPP;
}

static inline int marker_offer_disconnect(const char *name)
{
	return -EOPNOTSUPP;
}

static inline marker_generic_fn marker_action(const char *name)
{
	return NULL;
}

static inline struct marker_probe *
__marker_action_attach(const char *pattern, marker_generic_fn fn, void *data,
		       const char *filter, struct module *owner)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void marker_action_detach(struct marker_probe *probe)
{
}

static inline void marker_action_detach_many(struct marker_probe **probes,
					     unsigned int nr)
{
}
#endif

/**
 * marker_action_attach() - __marker_action_attach() on behalf of the caller
 * @pattern: a marker name or a glob pattern
 * @fn: the function, a built-in action (marker_action())
 * @data: passed to @fn
 * @filter: NULL, or a predicate
 *
 * Context: process context, may sleep.
 * Return: the probe, or an ERR_PTR() (see __marker_action_attach()).
 */
#define marker_action_attach(pattern, fn, data, filter) \
	__marker_action_attach(pattern, fn, data, filter, THIS_MODULE)

#endif /* _LINUX_MARKER_H */
