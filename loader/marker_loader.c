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
 * attached once. The loader attaches to the markers loaded now and to those that arrive later, with
 * their own argument types, and detaches from all of them on rmmod.
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
		 "comma-separated marker names or glob patterns (*, ?, [...]) to attach to, loaded now or later (required)");

static char *action = "count";
module_param(action, charp, 0444);
MODULE_PARM_DESC(action,
		 "count: count hits (the hits column of markers/list); print: one line a hit in the ftrace instance \"markers\"; stack: the line and a stack trace (default count)");

static struct marker_probe probes[MARKER_LOADER_MAX];
static struct marker_probe *registered[MARKER_LOADER_MAX];
static unsigned int nr_probes;
static char *patterns;

/* Everything at once: one grace period. */
static void marker_loader_detach(void)
{
	marker_probe_unregister_many(registered, nr_probes);
	nr_probes = 0;
	marker_synchronize_unregister();
}

/* Was @pattern given earlier in markers=? */
static bool marker_loader_has(const char *pattern)
{
	unsigned int i;

	for (i = 0; i < nr_probes; i++)
		if (!strcmp(probes[i].marker, pattern))
			return true;
	return false;
}

static int __init marker_loader_init(void)
{
	marker_generic_fn fn = marker_action(action);
	char *p, *pattern;
	int ret;

	if (!fn) {
		pr_err("unknown action=%s: count, print or stack\n", action);
		return -EINVAL;
	}
	if (!markers || !*markers) {
		pr_err("markers= is required: names or patterns, comma-separated\n");
		return -EINVAL;
	}
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
		probes[nr_probes] = (struct marker_probe) {
			.marker	= pattern,
			.func	= fn,
			.owner	= THIS_MODULE,
			.generic = true,
		};
		ret = marker_probe_register(&probes[nr_probes]);
		if (ret) {
			/* escaped: a newline in markers= would forge a line */
			pr_err("%*pE: cannot attach: %d\n",
			       (int)strlen(pattern), pattern, ret);
			goto err_detach;
		}
		registered[nr_probes] = &probes[nr_probes];
		nr_probes++;
	}
	pr_info("attached action %s to %s\n", action, markers);
	return 0;

err_detach:
	marker_loader_detach();
	kfree(patterns);
	return ret;
}

static void __exit marker_loader_exit(void)
{
	marker_loader_detach();
	kfree(patterns);
}

module_init(marker_loader_init);
module_exit(marker_loader_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker loader: attach a built-in action to markers named at insmod time");
