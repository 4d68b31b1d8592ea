// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_loader.c - the generic probe loader: attach one of the registry's
 * built-in actions to markers chosen at insmod time, with no C code and no
 * rebuild (the 2006 loader took its marker at compile time).
 *
 *	# insmod marker_loader.ko markers=subsys_mark1,net_* action=print
 *	# cat /sys/kernel/tracing/instances/markers/trace_pipe
 *	# rmmod marker_loader
 *
 * Each entry of markers= is a marker name or a glob pattern (the registry
 * refuses anything else, as the control file does); one given twice is
 * attached once. The loader attaches to the markers loaded now and to those
 * that arrive later, with their own argument types, and detaches from all
 * of them on rmmod.
 *
 * probes= connects offered probes (marker_probe_offer()) by name, for as
 * long as the loader is loaded; their modules cannot be removed meanwhile:
 *
 *	# insmod marker_loader.ko probes=probe_offered_mark3
 *
 * See Documentation/markers-admin.rst.
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

#define MARKER_LOADER_MAX	16

static char *markers;
module_param(markers, charp, 0444);
MODULE_PARM_DESC(markers,
		 "comma-separated marker names or glob patterns (*, ?, [...]) to attach the action to, loaded now or later");

static char *action = "count";
module_param(action, charp, 0444);
MODULE_PARM_DESC(action,
		 "count: count hits (the hits column of markers/list); print: one line a hit in the ftrace instance \"markers\"; stack: the line and a stack trace; inline: arm inline markers (MARK_INLINE()) (default count)");

static char *offered;
module_param_named(probes, offered, charp, 0444);
MODULE_PARM_DESC(probes,
		 "comma-separated names of offered probes (markers/offers) to connect while loaded; their modules stay pinned");

static struct marker_probe *attached[MARKER_LOADER_MAX];
static unsigned int nr_probes;
static char *offer_names;
static const char *connected[MARKER_LOADER_MAX];
static unsigned int nr_connected;

/* Everything at once: one grace period. */
static void marker_loader_detach(void)
{
	marker_action_detach_many(attached, nr_probes);
	nr_probes = 0;
}

/* Was @pattern given earlier in markers=? */
static bool marker_loader_has(const char *pattern)
{
	unsigned int i;

	for (i = 0; i < nr_probes; i++)
		if (!strcmp(attached[i]->marker, pattern))
			return true;
	return false;
}

/* markers=: the action on each name or pattern, one grace period to undo */
static int marker_loader_attach(marker_generic_fn fn)
{
	char *patterns, *p, *pattern;
	int ret;

	/* split in a copy: marker_action_attach() copies what it keeps */
	patterns = kstrdup(markers, GFP_KERNEL);
	if (!patterns)
		return -ENOMEM;
	p = patterns;

	while ((pattern = strsep(&p, ","))) {
		if (!*pattern)
			continue;
		if (marker_loader_has(pattern)) {
			pr_warn("%*pE is given twice in markers=, attaching once\n",
				(int)strlen(pattern), pattern);
			continue;
		}
		if (nr_probes == MARKER_LOADER_MAX) {
			pr_err("more than %d entries in markers=\n",
			       MARKER_LOADER_MAX);
			ret = -E2BIG;
			goto err_detach;
		}
		attached[nr_probes] = marker_action_attach(pattern, fn, NULL,
							   NULL);
		if (IS_ERR(attached[nr_probes])) {
			ret = PTR_ERR(attached[nr_probes]);
			/* escaped: a newline in markers= would forge a line */
			pr_err("%*pE: cannot attach: %d\n",
			       (int)strlen(pattern), pattern, ret);
			goto err_detach;
		}
		nr_probes++;
	}
	pr_info("attached action %s to %s\n", action, markers);
	kfree(patterns);
	return 0;

err_detach:
	marker_loader_detach();
	kfree(patterns);
	return ret;
}

/* probes=: disconnect the offered probes connected so far, last first */
static void marker_loader_disconnect(void)
{
	while (nr_connected)
		marker_offer_disconnect(connected[--nr_connected]);
	kfree(offer_names);
	offer_names = NULL;
}

/* Was @name given earlier in probes=? */
static bool marker_loader_connected(const char *name)
{
	unsigned int i;

	for (i = 0; i < nr_connected; i++)
		if (!strcmp(connected[i], name))
			return true;
	return false;
}

/* probes=: connect each offered probe, pinning its module while loaded */
static int marker_loader_connect(void)
{
	char *p, *name;
	int ret;

	offer_names = kstrdup(offered, GFP_KERNEL);
	if (!offer_names)
		return -ENOMEM;
	p = offer_names;

	while ((name = strsep(&p, ","))) {
		if (!*name)
			continue;
		if (marker_loader_connected(name)) {
			pr_warn("%*pE is given twice in probes=, connecting once\n",
				(int)strlen(name), name);
			continue;
		}
		if (nr_connected == MARKER_LOADER_MAX) {
			pr_err("more than %d entries in probes=\n",
			       MARKER_LOADER_MAX);
			ret = -E2BIG;
			goto err_disconnect;
		}
		ret = marker_offer_connect(name);
		if (ret) {
			pr_err("%*pE: cannot connect: %d\n", (int)strlen(name),
			       name, ret);
			goto err_disconnect;
		}
		connected[nr_connected++] = name;
	}
	pr_info("connected the offered probes %s\n", offered);
	return 0;

err_disconnect:
	marker_loader_disconnect();
	return ret;
}

static int __init marker_loader_init(void)
{
	marker_generic_fn fn = marker_action(action);
	int ret;

	if (!fn) {
		pr_err("unknown action=%s: " MARKER_ACTION_NAMES "\n", action);
		return -EINVAL;
	}
	if ((!markers || !*markers) && (!offered || !*offered)) {
		pr_err("markers= or probes= is required: names or patterns, or offered probes, comma-separated\n");
		return -EINVAL;
	}
	if (offered && *offered) {
		ret = marker_loader_connect();
		if (ret)
			return ret;
	}
	if (markers && *markers) {
		ret = marker_loader_attach(fn);
		if (ret)
			goto err_disconnect;
	}
	return 0;

err_disconnect:
	marker_loader_disconnect();
	return ret;
}

static void __exit marker_loader_exit(void)
{
	marker_loader_detach();
	marker_loader_disconnect();
}

module_init(marker_loader_init);
module_exit(marker_loader_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker loader: attach a built-in action to markers named at insmod time");
