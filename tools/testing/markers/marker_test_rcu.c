// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_rcu.c - a marker hit where RCU is not watching, for the
 * lockdep check of MARK()'s armed path (Documentation/markers.rst).
 *
 * /sys/kernel/debug/marker_test_rcu/
 *   fire	write 1: run test_unwatched between ct_idle_enter() and
 *		ct_idle_exit(), as from the idle loop, where a marker must
 *		not be; write 0: run it as anywhere else
 *
 * Under CONFIG_LOCKDEP, the first write of 1 warns once, and no hit of
 * it reaches a probe. The suite runs it on the debug kernel only.
 */
#include <linux/context_tracking.h>
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/module.h>

#include "marker_test_util.h"

static noinline notrace int fire_unwatched(bool unwatched)
{
	unsigned long flags;

	if (!unwatched) {
		MARK(test_unwatched, "%d", 0);
		return 0;
	}
	/*
	 * ct_idle_enter() wants interrupts off, as the idle loop has them,
	 * and lockdep told so: local_irq_save(), not the raw_ variant.
	 */
	local_irq_save(flags);
	ct_idle_enter();
	MARK(test_unwatched, "%d", 1);
	ct_idle_exit();
	local_irq_restore(flags);
	return 0;
}

static struct dentry *dir;

static int __init marker_test_rcu_init(void)
{
	dir = debugfs_create_dir("marker_test_rcu", NULL);
	marker_test_create_bool("fire", dir, fire_unwatched);
	return 0;
}

static void __exit marker_test_rcu_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(marker_test_rcu_init);
module_exit(marker_test_rcu_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A marker hit where RCU is not watching");
