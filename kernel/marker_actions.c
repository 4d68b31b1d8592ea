// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry's built-in actions: generic probes that the control file and
 * the loader connect to any marker, whatever its signature.
 *
 *   count	count the hit in the site's hits (the listing shows them)
 *   print	count, and write "name: <arguments formatted with the marker's
 *		own format>" to the ftrace instance "markers"
 *   stack	print, then the stack trace, one "=> function" line a frame
 *
 * They get the arguments as u64 with the site's signature: nothing parses
 * the format to find them; print formats them with vsnprintf(), as
 * trace_printk() would.
 */
#include <linux/kernel.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/trace.h>

#include <wrapper/trace-array.h>

#include "marker-internal.h"

/* The "markers" instance; set at init, before any action can run. */
static struct trace_array *marker_tr;

#define MARKER_STACK_DEPTH	16

static void marker_count(void *data, struct marker_site *site,
			 const u64 *args)
{
	atomic_long_inc(&site->hits);
}

/*
 * Write "name: arguments" into the instance. Every argument is passed as a
 * u64, one vararg slot each: on the 64-bit ABIs the registry supports, each
 * integer or pointer argument of any width takes one such slot, so the
 * conversions of the format (which the compiler checked against the
 * arguments' real types at the site) read exactly what MARK() passed.
 */
static void __marker_print(struct marker_site *site, const u64 *args)
{
	u64 a[MARKER_MAX_ARGS] = { };
	char buf[256];

	memcpy(a, args, site->nargs * sizeof(*a));
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
	atomic_long_inc(&site->hits);
	__marker_print(site, args);
}

static void marker_stack(void *data, struct marker_site *site,
			 const u64 *args)
{
	unsigned long entries[MARKER_STACK_DEPTH];
	unsigned int nr, i;

	atomic_long_inc(&site->hits);
	__marker_print(site, args);
	nr = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	for (i = 0; i < nr; i++)
		trace_array_printk(marker_tr, _THIS_IP_, " => %pS\n",
				   (void *)entries[i]);
}

static const struct {
	const char *name;
	marker_generic_fn fn;
} marker_actions[] = {
	{ "count", marker_count },
	{ "print", marker_print },
	{ "stack", marker_stack },
};

/**
 * marker_action() - one of the registry's built-in actions, by name
 * @name: "count", "print" or "stack"
 *
 * The action is a marker_generic_fn, to be used as the function of a
 * MARKER_PROBE_GENERIC() probe: it counts the hit in the site's hits, and
 * print and stack write to the ftrace instance "markers". It ignores its
 * data.
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

int marker_actions_init(void)
{
	int ret;

	marker_tr = marker_trace_array_get_by_name("markers");
	if (!marker_tr)
		return -ENOMEM;
	ret = trace_array_init_printk(marker_tr);
	if (ret)
		goto put_instance;
	return 0;

put_instance:
	trace_array_put(marker_tr);
	trace_array_destroy(marker_tr);
	return ret;
}

void marker_actions_exit(void)
{
	trace_array_put(marker_tr);
	trace_array_destroy(marker_tr);
}
