// SPDX-License-Identifier: GPL-2.0-only
/*
 * probe_offer_example.c - a probe that is offered, not connected: the
 * registry connects it when asked, and pins this module meanwhile.
 *
 *	# insmod probe_offer_example.ko	-> markers/offers: "offered"
 *	# echo 'connect probe_offered_mark3' >/sys/kernel/debug/markers/control
 *	# cat /proc/testmark		-> dmesg: "subsys_mark3: 7 blah3"
 *	# rmmod probe_offer_example	-> refused: in use while connected
 *	# echo 'disconnect probe_offered_mark3' >/sys/kernel/debug/markers/control
 *	# rmmod probe_offer_example
 *
 * markerctl connect/disconnect and the loader's probes= do the same.
 */
#include <linux/marker.h>
#include <linux/module.h>

/* Runs with preemption disabled, as every probe: it must not sleep. */
static void probe_offered_mark3(void *data, int value, const char *name)
{
	pr_info("subsys_mark3: %d %s\n", value, name);
}

static struct marker_probe mark3_probe =
	MARKER_PROBE(subsys_mark3, probe_offered_mark3, NULL, int,
		     const char *);

static int __init probe_offer_example_init(void)
{
	/* Nothing is connected: "connect probe_offered_mark3" does it. */
	return marker_probe_offer(&mark3_probe);
}

static void __exit probe_offer_example_exit(void)
{
	/* Never connected here: the registry's reference keeps us loaded. */
	marker_probe_withdraw(&mark3_probe);
}

module_init(probe_offer_example_init);
module_exit(probe_offer_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker example: an offered probe on subsys_mark3");
