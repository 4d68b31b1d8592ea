// SPDX-License-Identifier: GPL-2.0-only
/*
 * tp_main.c - thirdparty_example.ko, a module written outside the markers'
 * tree: markers in a loop, in a header inline used from two files, with a
 * string, and in __init code.
 *
 * /sys/kernel/debug/thirdparty_example/fire
 *	write N: tp_step N times here and N times in tp_helper.c, then
 *	tp_who once
 */
#include <linux/debugfs.h>
#include <linux/module.h>

#include "tp.h"

static ssize_t fire_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	unsigned int n, i;
	u64 total = 0;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		total += i;
		tp_step(i, total);
	}
	tp_helper("thirdparty", n);
	return count;
}

static const struct file_operations fire_fops = {
	.write = fire_write,
};

static struct dentry *dir;

static int __init thirdparty_example_init(void)
{
	MARK(tp_init, "loaded");
	dir = debugfs_create_dir("thirdparty_example", NULL);
	debugfs_create_file("fire", 0200, dir, NULL, &fire_fops);
	return 0;
}

static void __exit thirdparty_example_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(thirdparty_example_init);
module_exit(thirdparty_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A third-party module with markers, built out of tree");
