// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker.ko: the order in which the registry's parts start and stop.
 *
 *   actions	the "markers" ftrace instance the built-in actions print to
 *   events	event_mutex found; a trace event for each name (marker_events.c)
 *   registry	the module notifier, then the sites already loaded
 *		(marker_core.c)
 *   debugfs	list, probes, control, ... (marker_debugfs.c), last: nothing
 *		reaches the registry from user space before it knows the sites
 *
 * They stop in the reverse order. See Documentation/markers.rst.
 */
#include <linux/init.h>
#include <linux/module.h>

#include "marker-internal.h"

static int __init marker_init(void)
{
	int ret;

	ret = marker_actions_init();
	if (ret)
		return ret;
	marker_events_init();	/* before the notifier, which takes its lock */
	ret = marker_registry_start();
	if (ret)
		goto exit_events;
	marker_events_lock();
	marker_events_update();
	marker_events_unlock();
	marker_debugfs_init();
	return 0;

exit_events:
	marker_events_exit();
	marker_actions_exit();
	return ret;
}

static void __exit marker_exit(void)
{
	marker_events_exit();
	marker_debugfs_exit();
	marker_registry_stop();
	marker_actions_exit();
}

module_init(marker_init);
module_exit(marker_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Static markers: the registry of sites and probes");
