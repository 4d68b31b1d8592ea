// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_example.c - the 2006 probe module, modernised.
 *
 * Connects a typed probe to subsys_mark1 (see marker_example.c) while it is
 * loaded:
 *
 *	# insmod probe_example.ko
 *	# cat /proc/testmark		-> dmesg: "value is 1"
 *	# rmmod probe_example
 *
 * It works in either load order: registered before marker_example.ko, the
 * probe waits, pending, and is connected when the module arrives.
 */
#include <linux/marker.h>
#include <linux/module.h>

/*
 * A typed probe takes the probe's data, then exactly the arguments the
 * marker passes. It runs with preemption disabled: it must not sleep.
 */
static void probe_mark1(void *data, int value)
{
	pr_info("value is %d\n", value);
}

/*
 * MARKER_PROBE(marker, function, data, argument types...): the types are
 * checked against probe_mark1's prototype here, and against the marker's
 * arguments by marker_probe_register().
 */
static struct marker_probe mark1_probe =
	MARKER_PROBE(subsys_mark1, probe_mark1, NULL, int);

static int __init probe_example_init(void)
{
	return marker_probe_register(&mark1_probe);
}

static void __exit probe_example_exit(void)
{
	/* Disconnect first, then wait for running probes to return. */
	marker_probe_unregister(&mark1_probe);
	marker_synchronize_unregister();
}

module_init(probe_example_init);
module_exit(probe_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker example probe: prints subsys_mark1's value");
