// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_inline_a.c - marker_test_inline.ko: one name, test_inline, with
 * sites in two functions of this file (the header inline, and a MARK() of
 * its own) and in the header inline again in test_inline_b.c.
 *
 * /sys/kernel/debug/marker_test_inline/fire
 *	write N: run each of the three sites N times
 */
#include <linux/debugfs.h>
#include <linux/module.h>

#include "marker_test_inline.h"
#include "marker_test_util.h"

static noinline void inline_a1(int i)
{
	test_inline_hit(i);
}

static noinline void inline_a2(int i)
{
	MARK(test_inline, "%d", i + 1);
}

static int fire(unsigned int i)
{
	inline_a1(i);
	inline_a2(i);
	inline_b1(i);
	return 0;
}

static struct dentry *dir;

static int __init marker_test_inline_init(void)
{
	dir = debugfs_create_dir("marker_test_inline", NULL);
	marker_test_create_fire("fire", dir, fire);
	return 0;
}

static void __exit marker_test_inline_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(marker_test_inline_init);
module_exit(marker_test_inline_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: one name at sites in two files");
