// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry's built-in actions: generic probes that the control file and
 * the loader connect to any marker, whatever its signature.
 *
 *   count	count the hit in the site's hits (the listing shows them)
 *   print	count, and record the marker's trace event (marker_events.c)
 *		into the ftrace instance "markers", where it reads "name:
 *		<arguments formatted with the marker's own format>"
 *   stack	print, then the stack trace, one "=> function" line a frame
 *   inline	arm an inline marker (MARK_INLINE()), whose armed site runs
 *		its own code: the one action such a marker takes, and one it
 *		alone takes (marker_probe_fits())
 *
 * They get the arguments as u64 with the site's signature: nothing parses
 * the format at a hit. Where the name has no event (the kernel gives the
 * registry none, a site's signature is not its event's, or print was just
 * connected), print writes the same line as text, formatted with
 * vsnprintf() as trace_printk() would. Whatever a site passes must not
 * fault or WARN: its format is checked against its signature once, when
 * print or stack is connected (marker_format_check()), and strings are
 * copied with the nofault helpers, as the kernel's probe events read them.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/trace.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>

#include <wrapper/trace-array.h>

#include "marker-internal.h"

/*
 * The "markers" instance; set at init, before any action can run. Ours to
 * remove at exit only if it did not exist before (marker_tr_owned).
 */
static struct trace_array *marker_tr;
static bool marker_tr_owned;

#define MARKER_STACK_DEPTH	16

/*
 * A hit of the code, not one that "fire" made (marker_fire.c), counted in
 * the registry's record of the site, which the array the site runs points
 * to. The site calls its probes with preemption off; an array published
 * since the hit began points to the same count, and none is published
 * only when the site was disarmed meanwhile: that hit is not counted.
 */
static void marker_count_hit(struct marker_site *site)
{
	struct marker_funcs *funcs;

	if (this_cpu_read(marker_firing))
		return;
	funcs = __marker_funcs_untag(rcu_dereference_sched(site->funcs));
	if (funcs)
		atomic_long_inc(funcs->hits);
}

static void marker_count(void *data, struct marker_site *site,
			 const u64 *args)
{
	marker_count_hit(site);
}

#define MARKER_FAULT	"(fault)"

/*
 * Copy the string at @src into what is left of @pool (@used bytes of
 * @size are taken), never faulting: a user, wild or unmapped pointer reads
 * as "(fault)", a string longer than the room left is cut. The string
 * variant of copy_from_kernel_nofault() is not exported: copy page by
 * page, up to the first NUL.
 */
const char *marker_copy_str(char *pool, size_t *used, size_t size,
			    const char *src)
{
	char *dst = pool + *used, *nul;
	size_t room = size - *used, n = 0, chunk;

	if (room < sizeof(MARKER_FAULT))
		return "";
	while (n < room - 1) {
		chunk = min_t(size_t, room - 1 - n,
			      PAGE_SIZE - offset_in_page(src + n));
		if (copy_from_kernel_nofault(dst + n, src + n, chunk))
			return MARKER_FAULT;
		nul = memchr(dst + n, '\0', chunk);
		if (nul) {
			n = nul - dst;
			break;
		}
		n += chunk;
	}
	dst[n] = '\0';
	*used += n + 1;
	return dst;
}

/*
 * Write "name: arguments" into the instance. Every argument is passed as a
 * u64, one vararg slot each: on the 64-bit ABIs the registry supports, each
 * integer or pointer argument of any width takes one such slot, so the
 * conversions of the format, which marker_format_check() matched with
 * the signature when the action was connected, read what MARK() passed.
 * Strings are passed as copies.
 */
static void __marker_print(struct marker_site *site, const u64 *args)
{
	u64 a[MARKER_MAX_ARGS] = { };
	char buf[256], strs[256];
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < site->nargs; i++) {
		a[i] = args[i];
		if (site->sig[i] == MARKER_TYPE_STRING)
			a[i] = (unsigned long)marker_copy_str(strs, &used,
					sizeof(strs), (const char *)(unsigned long)args[i]);
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	scnprintf(buf, sizeof(buf), site->format, a[0], a[1], a[2], a[3],
		  a[4], a[5], a[6], a[7], a[8], a[9]);
#pragma GCC diagnostic pop
	trace_array_printk(marker_tr, _THIS_IP_, "%s: %s\n", site->name, buf);
}

static void marker_print(void *data, struct marker_site *site,
			 const u64 *args)
{
	marker_count_hit(site);
	if (!marker_event_print(site, args))
		__marker_print(site, args);
}

static void marker_stack(void *data, struct marker_site *site,
			 const u64 *args)
{
	unsigned long entries[MARKER_STACK_DEPTH];
	unsigned int nr, i;

	marker_count_hit(site);
	if (!marker_event_print(site, args))
		__marker_print(site, args);
	nr = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	for (i = 0; i < nr; i++)
		trace_array_printk(marker_tr, _THIS_IP_, " => %pS\n",
				   (void *)entries[i]);
}

/*
 * Never called: an inline site runs its own block, not its probes, and
 * "fire" refuses inline markers. Connecting it is what arms the site.
 */
static void marker_inline(void *data, struct marker_site *site,
			  const u64 *args)
{
}

static const struct {
	const char *name;
	marker_generic_fn fn;
} marker_actions[] = {
	{ "count", marker_count },
	{ "print", marker_print },
	{ "stack", marker_stack },
	{ "inline", marker_inline },
};

/* Does @func format its site's arguments with the site's format? */
bool marker_action_formats(const void *func)
{
	return func == marker_print || func == marker_stack;
}

/* Is @func one of the actions? */
static bool marker_action_is(const void *func)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(marker_actions); i++)
		if (func == marker_actions[i].fn)
			return true;
	return false;
}

/**
 * marker_consumer_kind() - what kind of consumer a connected function is
 * @func: a probe's function
 * @generic: it is a marker_generic_fn
 *
 * Context: any.
 * Return: "action" (count, print, stack or inline: the control file's or
 * the loader's), "event" (the marker's trace event, for ftrace or perf),
 * "generic" (a module's generic probe) or "typed" (a module's typed probe).
 */
const char *marker_consumer_kind(const void *func, bool generic)
{
	if (marker_event_func(func))
		return "event";
	if (!generic)
		return "typed";
	return marker_action_is(func) ? "action" : "generic";
}

/* Is @func the action that arms inline markers? */
bool marker_action_inline(const void *func)
{
	return func == marker_inline;
}

static bool marker_type_is_int(char type)
{
	return type && strchr("bcChHiIlLqQ", type);
}

/**
 * marker_format_check() - can print and stack format @site's arguments?
 * @site: a site
 * @why: where to say why not, or NULL
 * @len: the size of @why
 *
 * Conversion by conversion, the format must take the signature's types:
 * an integer conversion (d, i, u, x, X, o or c, any length modifier) for
 * an integer, %s for a string (copied without faulting at each hit), %p
 * or %px for any other pointer (never dereferenced); no more conversions
 * than arguments, no %n, no ``*`` width or precision, no other %p
 * extension (they dereference their argument). Run once, at connect.
 *
 * Context: any.
 * Return: 0, or -EINVAL with the reason in @why.
 */
int marker_format_check(const struct marker_site *site, char *why,
			size_t len)
{
	const char *p = site->format, *conv;
	unsigned int arg = 0;
	char type;

	for (; (p = strchr(p, '%')); p++) {
		conv = p++;
		if (*p == '%')
			continue;
		p += strspn(p, "-+ #0");
		if (*p == '*')
			goto refuse_star;
		p += strspn(p, "0123456789");
		if (*p == '.') {
			if (*++p == '*')
				goto refuse_star;
			p += strspn(p, "0123456789");
		}
		p += strspn(p, "hlLqjzt");
		if (!*p)
			goto refuse_conv;
		if (*p == 'n')
			goto refuse_n;
		if (arg >= site->nargs) {
			if (why)
				snprintf(why, len, "more conversions than the %u arguments",
					 site->nargs);
			return -EINVAL;
		}
		type = site->sig[arg++];
		if (strchr("diuxXoc", *p)) {
			if (!marker_type_is_int(type))
				goto refuse_type;
		} else if (*p == 's') {
			if (type != MARKER_TYPE_STRING)
				goto refuse_type;
		} else if (*p == 'p') {
			if (type != MARKER_TYPE_PTR)
				goto refuse_type;
			if (p[1] == 'x')
				p++;
			else if (isalnum(p[1]))
				goto refuse_conv;
		} else {
			goto refuse_conv;
		}
	}
	return 0;

refuse_star:
	if (why)
		snprintf(why, len, "'*' width or precision in %.*s", 8, conv);
	return -EINVAL;
refuse_n:
	if (why)
		snprintf(why, len, "%%n");
	return -EINVAL;
refuse_conv:
	if (why)
		snprintf(why, len, "conversion %.*s", (int)(p - conv + 2), conv);
	return -EINVAL;
refuse_type:
	if (why)
		snprintf(why, len, "conversion %.*s for argument %u of type %s",
			 (int)(p - conv + 1), conv, arg, marker_type_name(type));
	return -EINVAL;
}

/**
 * marker_action() - one of the registry's built-in actions, by name
 * @name: "count", "print", "stack" or "inline"
 *
 * The action is a marker_generic_fn, to be used as the function of a
 * MARKER_PROBE_GENERIC() probe: count, print and stack count the hit in
 * the site's hits, and print and stack write to the ftrace instance
 * "markers"; inline arms the inline markers (MARK_INLINE()) it is
 * connected to, the only markers it fits. It ignores its data.
 *
 * Context: any.
 * Return: the action, or NULL for an unknown name.
 */
marker_generic_fn marker_action(const char *name)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(marker_actions); i++)
		if (!strcmp(name, marker_actions[i].name))
			return marker_actions[i].fn;
	return NULL;
}
EXPORT_SYMBOL_GPL(marker_action);

/*
 * What marker_action_attach() allocates: the probe, then its pattern, its
 * predicate and its signature, in one allocation.
 */
struct marker_attach {
	struct marker_probe probe;
	char strings[];
};

static struct marker_probe *marker_attach(const char *pattern, void *fn,
					  bool generic, void *data,
					  const char *filter, const char *sig,
					  struct module *owner)
{
	size_t plen, flen = filter ? strlen(filter) + 1 : 0;
	size_t slen = sig ? strlen(sig) + 1 : 0;
	struct marker_attach *a;
	int ret;

	if (!pattern) {
		pr_err("refusing to attach %ps to no marker name\n", fn);
		return ERR_PTR(-EINVAL);
	}
	plen = strlen(pattern) + 1;
	if (!try_module_get(THIS_MODULE))
		return ERR_PTR(-ENODEV);
	a = kzalloc(struct_size(a, strings, plen + flen + slen), GFP_KERNEL);
	if (!a) {
		ret = -ENOMEM;
		goto put_module;
	}
	memcpy(a->strings, pattern, plen);
	if (filter) {
		memcpy(a->strings + plen, filter, flen);
		a->probe.filter = a->strings + plen;
	}
	if (sig) {
		memcpy(a->strings + plen + flen, sig, slen);
		a->probe.sig = a->strings + plen + flen;
	}
	a->probe.marker = a->strings;
	a->probe.func = fn;
	a->probe.data = data;
	a->probe.owner = owner;
	a->probe.generic = generic;
	ret = marker_probe_register(&a->probe);
	if (ret)
		goto free_attach;
	return &a->probe;

free_attach:
	kfree(a);
put_module:
	module_put(THIS_MODULE);
	return ERR_PTR(ret);
}

/**
 * __marker_action_attach() - connect a function of the registry's to markers
 * @pattern: a marker name or a glob pattern; copied
 * @fn: a built-in action (marker_action()), or another generic probe
 *	function of the registry's own (the trace events')
 * @data: passed to @fn
 * @filter: NULL, or a predicate on the markers' arguments (struct
 *	marker_probe's @filter); copied
 * @owner: the module attaching (marker_action_attach() passes the
 *	caller's THIS_MODULE): the probes file names it, and the probe is
 *	detached if it goes first
 *
 * The one way the control file, the loader and the trace events connect
 * what the registry runs itself: a generic probe connected to the sites
 * @pattern names, loaded now or later. The registry's module stays
 * pinned until marker_action_detach(), as the probe's code is its own.
 * Whether a site must be loaded already is the caller's rule (the control
 * file has one: marker_pattern_has_sites()).
 *
 * Context: process context, may sleep (takes marker_mutex).
 * Return: the probe, for marker_action_detach(); ERR_PTR(-EINVAL) for a
 * NULL @pattern, ERR_PTR(-ENODEV) while the registry's module is going
 * away, ERR_PTR(-ENOMEM), or the error of marker_probe_register(), which
 * logs why (-EINVAL for a NULL @fn, as marker_action() returns for an
 * unknown name).
 */
struct marker_probe *__marker_action_attach(const char *pattern,
					    marker_generic_fn fn, void *data,
					    const char *filter,
					    struct module *owner)
{
	return marker_attach(pattern, fn, true, data, filter, NULL, owner);
}
EXPORT_SYMBOL_GPL(__marker_action_attach);

/*
 * __marker_action_attach() for the registry's own @fn that takes only the
 * sites of @sig (struct marker_probe's @sig), passing over the sites of
 * @pattern that pass other types: a trace event's probe, whose fields are
 * one signature. @fn is a marker_generic_fn if @generic, else a typed
 * probe of @sig (marker_probe_other_sig() lets it pass over the others).
 */
struct marker_probe *marker_action_attach_sig(const char *pattern, void *fn,
					      bool generic, void *data,
					      const char *sig)
{
	return marker_attach(pattern, fn, generic, data, NULL, sig,
			     THIS_MODULE);
}

/**
 * marker_action_detach_many() - disconnect attachments, one grace period
 * @probes: probes that marker_action_attach() returned
 * @nr: how many
 *
 * Disconnects them as marker_probe_unregister_many() does, so that no CPU
 * runs any of them when it returns, frees them and unpins the registry's
 * module once for each. Never fails.
 *
 * Context: process context, may sleep.
 */
void marker_action_detach_many(struct marker_probe **probes, unsigned int nr)
{
	unsigned int i;

	marker_probe_unregister_many(probes, nr);	/* the grace period */
	for (i = 0; i < nr; i++) {
		kfree(container_of(probes[i], struct marker_attach, probe));
		module_put(THIS_MODULE);
	}
}
EXPORT_SYMBOL_GPL(marker_action_detach_many);

/**
 * marker_action_detach() - disconnect an attachment
 * @probe: a probe that marker_action_attach() returned
 *
 * marker_action_detach_many() for one.
 *
 * Context: process context, may sleep.
 */
void marker_action_detach(struct marker_probe *probe)
{
	marker_action_detach_many(&probe, 1);
}
EXPORT_SYMBOL_GPL(marker_action_detach);

/*
 * Does an ftrace instance named @name exist? trace_get_event_file() is the
 * one exported lookup that creates nothing: -ENOENT for no such instance,
 * -EINVAL for no such event in an instance that exists.
 */
static bool marker_instance_exists(const char *name)
{
	struct trace_event_file *file = trace_get_event_file(name, "", "");

	if (!IS_ERR(file)) {		/* no event has an empty name */
		trace_put_event_file(file);
		return true;
	}
	return PTR_ERR(file) != -ENOENT;
}

/* Remove the instance if it is ours; say so if it is in use. */
static void marker_instance_put(void)
{
	int ret;

	trace_array_put(marker_tr);
	if (!marker_tr_owned)
		return;
	ret = trace_array_destroy(marker_tr);
	if (ret)
		pr_warn("ftrace instance \"%s\" is in use (%d, trace_pipe open?): left in place, rmdir instances/%s to remove it\n",
			MARKER_INSTANCE, ret, MARKER_INSTANCE);
}

int marker_actions_init(void)
{
	int ret;

	/*
	 * An instance the user made before loading us is the user's: use it,
	 * never remove it. (One made between the check and the lookup is
	 * taken for ours.)
	 */
	marker_tr_owned = !marker_instance_exists(MARKER_INSTANCE);
	marker_tr = marker_trace_array_get_by_name(MARKER_INSTANCE);
	if (!marker_tr)
		return -ENOMEM;
	if (!marker_tr_owned)
		pr_info("using the existing ftrace instance \"%s\", which stays after rmmod\n",
			MARKER_INSTANCE);
	ret = trace_array_init_printk(marker_tr);
	if (ret)
		goto put_instance;
	return 0;

put_instance:
	marker_instance_put();
	return ret;
}

void marker_actions_exit(void)
{
	marker_instance_put();
}
