// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_example.c - the 2006 marker test module, modernised.
 *
 * Opening /proc/testmark runs three markers and fails with -EPERM:
 *
 *	# cat /proc/testmark
 *	cat: can't open '/proc/testmark': Operation not permitted
 *
 * Nothing else happens until a probe is connected to one of them, for
 * example by loading probe_example.ko. See Documentation/markers.rst.
 */
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/proc_fs.h>

static int x = 7;
module_param(x, int, 0644);
MODULE_PARM_DESC(x, "the value subsys_mark3 passes (default 7)");

static int testmark_open(struct inode *inode, struct file *file)
{
	/*
	 * MARK(name, format, args...): the name is what probes ask for, the
	 * format documents the arguments and is checked like printk()'s, and
	 * the arguments are evaluated only while a probe is connected. Each
	 * line costs one NOP while nobody listens.
	 */
	MARK(subsys_mark1, "%d", 1);
	MARK(subsys_mark2, "%d %s", 2, "blah2");
	MARK(subsys_mark3, "%d %s", x, "blah3");

	return -EPERM;
}

static const struct proc_ops testmark_ops = {
	.proc_open	= testmark_open,
};

static struct proc_dir_entry *testmark;

static int __init marker_example_init(void)
{
	testmark = proc_create("testmark", 0444, NULL, &testmark_ops);
	return testmark ? 0 : -ENOMEM;
}

static void __exit marker_example_exit(void)
{
	proc_remove(testmark);
}

module_init(marker_example_init);
module_exit(marker_example_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker example: /proc/testmark runs three markers");
