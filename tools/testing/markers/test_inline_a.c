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

static noinline void inline_a1(int i)
{
	test_inline_hit(i);
}

static noinline void inline_a2(int i)
{
	MARK(test_inline, "%d", i + 1);
}

static ssize_t fire_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	for (i = 1; i <= n; i++) {
		inline_a1(i);
		inline_a2(i);
		inline_b1(i);
	}
	return count;
}

static const struct file_operations fire_fops = {
	.write = fire_write,
};

static struct dentry *dir;

static int __init marker_test_inline_init(void)
{
	dir = debugfs_create_dir("marker_test_inline", NULL);
	debugfs_create_file("fire", 0200, dir, NULL, &fire_fops);
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
