// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_sites.c - annotated module for the integration tests.
 *
 * /sys/kernel/debug/marker_test_sites/
 *   fire	write N: run test_types, test_named, test_noargs, test_multi (two sites,
 *		one of them inlined twice), test_tamper and test_scalars N
 *		times each
 *   spin	write 1: start a kthread running test_loop on the last CPU
 *		in a tight loop; write 0: stop it
 *   tamper	write 1: patch test_tamper's site behind the registry's back,
 *		as the 2006 loader did; write 0: put it back
 */
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/module.h>

#include "marker_test_util.h"

static int test_cookie = 0x5a5a5a5a;

static noinline void fire_types(int i)
{
	MARK(test_types, "%d %u %hhd %hu %ld %llu %p %s",
	     i, i * 3u, (s8)-i, (u16)(i + 1000), -(long)i * 100000,
	     (u64)i << 40, &test_cookie, "blah");
}

/* The types test_types lacks, with fixed values (marker_test_probe checks) */
static noinline void fire_scalars(int i)
{
	MARK(test_scalars, "%d %hhu %hd %lu %lld", (bool)(i > 0), (u8)U8_MAX,
	     (short)S16_MIN, 16UL, -1LL);
}

static inline void fire_multi_inline(int i)
{
	MARK(test_multi, "%d", i);
}

static noinline void fire_multi(int i)
{
	fire_multi_inline(i);
	if (i < 0)	/* never: a second inlined copy of the same site */
		fire_multi_inline(-i);
	MARK(test_multi, "%d", i + 1);
}

/* Fields named by the format, but a C keyword, which stays argN */
static noinline void fire_named(int i)
{
	MARK(test_named, "value=%d name=%s int=%d", i, "blah", -i);
}

static noinline void fire_noargs(void)
{
	MARK(test_noargs, "no arguments");
}

static noinline void fire_tamper(int i)
{
	MARK(test_tamper, "%d", i);
}

static int fire(unsigned int i)
{
	fire_types(i);
	fire_named(i);
	fire_noargs();
	fire_multi(i);
	fire_tamper(i);
	fire_scalars(i);
	return 0;
}

static struct task_struct *spinner;

static int spin_fn(void *unused)
{
	int i = 0;

	while (!kthread_should_stop()) {
		/*
		 * Not MARK(..., i++): the arguments are evaluated only while
		 * the marker is armed, and the loop must yield either way.
		 */
		MARK(test_loop, "%d", i);
		if (!(++i % 1024))
			cond_resched();
	}
	return 0;
}

static int spin(bool on)
{
	int ret;

	if (on && !spinner) {
		spinner = kthread_create(spin_fn, NULL, "marker_spin");
		if (IS_ERR(spinner)) {
			ret = PTR_ERR(spinner);
			spinner = NULL;
			return ret;
		}
		kthread_bind(spinner, num_online_cpus() - 1);
		wake_up_process(spinner);
	} else if (!on && spinner) {
		kthread_stop(spinner);
		spinner = NULL;
	}
	return 0;
}

/* Find our own test_tamper site, as any code with our symbols could. */
static struct marker_site *tamper_site(void)
{
	struct marker_site *site = NULL;
	struct mod_kallsyms *ks;
	unsigned int i;

	preempt_disable();
	ks = rcu_dereference_sched(THIS_MODULE->kallsyms);
	for (i = 0; i < ks->num_symtab; i++)
		if (strstarts(ks->strtab + ks->symtab[i].st_name,
			      "__marker_site_test_tamper"))
			site = (void *)ks->symtab[i].st_value;
	preempt_enable();
	return site;
}

static int tamper(bool on)
{
	struct marker_site *site = tamper_site();

	if (!site)
		return -ENOENT;
	if (site->mode == MARKER_MODE_NEARZERO) {
		if (on)
			static_branch_enable(site->key);
		else
			static_branch_disable(site->key);
	} else {
		WRITE_ONCE(site->jump, on ? MARKER_JUMP_CALL : MARKER_JUMP_OVER);
	}
	return 0;
}

static struct dentry *dir;

static int __init marker_test_sites_init(void)
{
	dir = debugfs_create_dir("marker_test_sites", NULL);
	marker_test_create_fire("fire", dir, fire);
	marker_test_create_bool("spin", dir, spin);
	marker_test_create_bool("tamper", dir, tamper);
	return 0;
}

static void __exit marker_test_sites_exit(void)
{
	debugfs_remove_recursive(dir);
	if (spinner)
		kthread_stop(spinner);
}

module_init(marker_test_sites_init);
module_exit(marker_test_sites_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: annotated module");
