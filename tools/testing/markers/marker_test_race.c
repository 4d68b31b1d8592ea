// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_race.c - an annotated module whose init can take its time
 * and then fail, for the registry's start-up race test: loaded while the
 * registry walks the modules already loaded (with marker.ko's
 * race_delay_ms), it is still COMING when the walk sees it, and is freed
 * once its init fails, whatever references the walk took.
 *
 * Parameters:
 *	init_ms		sleep this long in init (default 0)
 *	init_fail	then fail init with -EAGAIN (default 0)
 */
#include <linux/delay.h>
#include <linux/marker.h>
#include <linux/module.h>

static unsigned int init_ms;
module_param(init_ms, uint, 0444);
MODULE_PARM_DESC(init_ms, "sleep this long in init (ms)");

static bool init_fail;
module_param(init_fail, bool, 0444);
MODULE_PARM_DESC(init_fail, "fail init with -EAGAIN after the sleep");

static int __init marker_test_race_init(void)
{
	MARK(test_race_init, "%u", init_ms);
	if (init_ms)
		msleep(init_ms);
	return init_fail ? -EAGAIN : 0;
}

static void __exit marker_test_race_exit(void)
{
	MARK(test_race_exit, "going");
}

module_init(marker_test_race_init);
module_exit(marker_test_race_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers test: an init that sleeps and fails");
