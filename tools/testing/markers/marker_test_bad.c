// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_bad.c - markers whose arguments do not fit what a generic
 * consumer may assume, for the integration tests. The print action must
 * survive the strings (a user pointer, a wild one, NULL, one with no NUL
 * in reach) and refuse, when connected, the formats that do not fit the
 * signature (the compiler only warns of them, and they are built here
 * with the warnings off, as careless code would be).
 *
 * /sys/kernel/debug/marker_test_bad/fire
 *	write anything: run every marker once
 */
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/module.h>

static char unterminated[300];
static int counter;

/*
 * One name, two signatures: a trace event records the sites of the first
 * signature it saw; the other is neither armed for it nor counted.
 */
static noinline void two_sigs(int n)
{
	MARK(bad_two_sigs, "%d", n);
	MARK(bad_two_sigs, "%s", "other");
}

static ssize_t fire_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	int n = (int)count;

	/* a user pointer, its __user cast away on purpose: the signature says "s" */
	MARK(bad_user_str, "%s", (__force const char *)ubuf);
	MARK(bad_wild_str, "%s", (const char *)0xdead000000000000UL);
	MARK(bad_null_str, "%s", (const char *)NULL);
	MARK(bad_unterminated, "%s", unterminated);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
	MARK(bad_int_as_str, "%s", n);
	MARK(bad_percent_n, "%d%n", n, &counter);
	MARK(bad_more_convs, "%d %d", n);
	MARK(bad_star, "%*d", 4, n);
	MARK(bad_deref_ptr, "%pD", file);
#pragma GCC diagnostic pop
	two_sigs(n);
	return count;
}

static const struct file_operations fire_fops = {
	.write = fire_write,
};

static struct dentry *dir;

static int __init marker_test_bad_init(void)
{
	memset(unterminated, 'x', sizeof(unterminated));
	dir = debugfs_create_dir("marker_test_bad", NULL);
	debugfs_create_file("fire", 0200, dir, NULL, &fire_fops);
	return 0;
}

static void __exit marker_test_bad_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(marker_test_bad_init);
module_exit(marker_test_bad_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: arguments a generic consumer must survive");
