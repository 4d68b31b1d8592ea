/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marker_test_util.h - what the test modules share: the write-only debugfs
 * files through which a test runs a module's code, each passing what was
 * written to a function of the module.
 *
 * (third-party/ has none of it: that module is built from what the
 * project installs, and nothing else of the tree.)
 */
#ifndef _MARKER_TEST_UTIL_H
#define _MARKER_TEST_UTIL_H

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>

/* A write of N to a marker_test_create_fire() file: its function, 1..N */
static inline ssize_t marker_test_fire_write(struct file *file,
					     const char __user *ubuf,
					     size_t count, loff_t *ppos)
{
	int (*fire)(unsigned int i) = file->private_data;
	unsigned int n, i;
	int ret;

	ret = kstrtouint_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	for (i = 1; i <= n; i++) {
		ret = fire(i);
		if (ret)
			return ret;
	}
	return count;
}

/* A write of a bool to a marker_test_create_bool() file: its function */
static inline ssize_t marker_test_bool_write(struct file *file,
					     const char __user *ubuf,
					     size_t count, loff_t *ppos)
{
	int (*set)(bool on) = file->private_data;
	bool on;
	int ret;

	ret = kstrtobool_from_user(ubuf, count, &on);
	if (!ret)
		ret = set(on);
	return ret ? ret : count;
}

/* The function, the files' private data, comes to the write (simple_open) */
static const struct file_operations marker_test_fire_fops = {
	.open = simple_open,
	.write = marker_test_fire_write,
};

static const struct file_operations marker_test_bool_fops = {
	.open = simple_open,
	.write = marker_test_bool_write,
};

/**
 * marker_test_create_fire() - a debugfs file that runs @fire on a write
 * @name: the file's name
 * @parent: its directory
 * @fire: called with 1, 2, ... N in turn when N is written; an error
 *	stops there and is the write's result
 */
static inline void marker_test_create_fire(const char *name,
					   struct dentry *parent,
					   int (*fire)(unsigned int i))
{
	debugfs_create_file(name, 0200, parent, fire, &marker_test_fire_fops);
}

/**
 * marker_test_create_bool() - a debugfs file that runs @set on a write
 * @name: the file's name
 * @parent: its directory
 * @set: called with what was written, a bool as kstrtobool() reads one
 *	(1 or 0, y or n, on or off); its error is the write's result
 */
static inline void marker_test_create_bool(const char *name,
					   struct dentry *parent,
					   int (*set)(bool on))
{
	debugfs_create_file(name, 0200, parent, set, &marker_test_bool_fops);
}

#endif
