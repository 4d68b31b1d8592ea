// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_check.c - inline markers (MARK_INLINE()) for the
 * integration tests (test.d/inline/): debug checks compiled in, off
 * until the action inline arms them by name.
 *
 * /sys/kernel/debug/marker_test_check/
 *   run	write N: run both sites of test_check N times each
 *   ran	read: how many times each block ran, "A B", and "P": 1 if
 *		every run of the first was preemptible (the block runs in its
 *		caller's context, not under the probes' preempt_disable())
 */
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/seq_file.h>

#include "marker_test_util.h"

static atomic_t ran_a = ATOMIC_INIT(0);
static atomic_t ran_b = ATOMIC_INIT(0);
static bool all_preemptible = true;

static noinline void check_a(void)
{
	MARK_INLINE(test_check, {
		if (!preemptible())
			all_preemptible = false;
		atomic_inc(&ran_a);
	});
}

/* A second site of the name; its block has commas and uses a local. */
static noinline void check_b(int i)
{
	MARK_INLINE(test_check, {
		int one = 1, two = 2;

		if (i > 0)
			atomic_add(two - one, &ran_b);
	});
}

static int run(unsigned int i)
{
	check_a();
	check_b(i);
	return 0;
}

static int ran_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%d %d %d\n", atomic_read(&ran_a), atomic_read(&ran_b),
		   READ_ONCE(all_preemptible));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(ran);

static struct dentry *dir;

static int __init marker_test_check_init(void)
{
	dir = debugfs_create_dir("marker_test_check", NULL);
	marker_test_create_fire("run", dir, run);
	debugfs_create_file("ran", 0400, dir, NULL, &ran_fops);
	return 0;
}

static void __exit marker_test_check_exit(void)
{
	debugfs_remove_recursive(dir);
}

module_init(marker_test_check_init);
module_exit(marker_test_check_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: inline markers");
