// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_stress.c - markers fired in a loop, by one kernel thread on
 * every online CPU, for the stress test (test.d/stress/). Does not use
 * the registry: it may come and go, and so may marker.ko, while it fires.
 *
 * /sys/kernel/debug/marker_test_stress/
 *	run	write 1 to start the threads, 0 to stop them (waits until
 *		they have stopped); reads 0 or 1
 *	fires	how many times the threads passed stress_a: exact while
 *		they are stopped
 *
 * Each pass fires stress_a (unsigned long, int: the pass and the CPU),
 * then stress_b (a string).
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>

struct stress_thread {
	struct task_struct *task;
	u64 fires;		/* written by the thread, read once it stopped */
};

static DEFINE_MUTEX(stress_mutex);	/* protects the three below */
static struct stress_thread *stress_threads;
static unsigned int stress_nr;
static u64 stress_fires;		/* of the threads stopped so far */

static struct dentry *stress_dir;

static int stress_fn(void *arg)
{
	struct stress_thread *t = arg;
	int cpu = raw_smp_processor_id();
	unsigned long pass = 0;

	while (!kthread_should_stop()) {
		MARK(stress_a, "%lu %d", pass, cpu);
		MARK(stress_b, "%s", "b");
		WRITE_ONCE(t->fires, t->fires + 1);
		if (!(++pass % 64))
			cond_resched();
	}
	return 0;
}

static void stress_stop(void)
{
	unsigned int i;

	lockdep_assert_held(&stress_mutex);
	for (i = 0; i < stress_nr; i++) {
		kthread_stop(stress_threads[i].task);
		stress_fires += stress_threads[i].fires;
	}
	kfree(stress_threads);
	stress_threads = NULL;
	stress_nr = 0;
}

static int stress_start(void)
{
	struct task_struct *task;
	unsigned int cpu, n = 0;

	lockdep_assert_held(&stress_mutex);
	stress_threads = kcalloc(num_online_cpus(), sizeof(*stress_threads),
				 GFP_KERNEL);
	if (!stress_threads)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		if (n == num_online_cpus())
			break;
		task = kthread_create_on_cpu(stress_fn, &stress_threads[n], cpu,
					     "marker_stress/%u");
		if (IS_ERR(task)) {
			stress_nr = n;
			stress_stop();
			return PTR_ERR(task);
		}
		stress_threads[n++].task = task;
	}
	stress_nr = n;
	for (n = 0; n < stress_nr; n++)
		wake_up_process(stress_threads[n].task);
	return 0;
}

static int stress_run_get(void *data, u64 *val)
{
	*val = READ_ONCE(stress_nr) != 0;
	return 0;
}

static int stress_run_set(void *data, u64 val)
{
	int ret = 0;

	mutex_lock(&stress_mutex);
	if (val && !stress_nr)
		ret = stress_start();
	else if (!val && stress_nr)
		stress_stop();
	mutex_unlock(&stress_mutex);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(stress_run_fops, stress_run_get, stress_run_set,
			 "%llu\n");

static int stress_fires_get(void *data, u64 *val)
{
	unsigned int i;

	mutex_lock(&stress_mutex);
	*val = stress_fires;
	for (i = 0; i < stress_nr; i++)
		*val += READ_ONCE(stress_threads[i].fires);
	mutex_unlock(&stress_mutex);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(stress_fires_fops, stress_fires_get, NULL, "%llu\n");

static int __init marker_test_stress_init(void)
{
	stress_dir = debugfs_create_dir("marker_test_stress", NULL);
	debugfs_create_file_unsafe("run", 0600, stress_dir, NULL,
				   &stress_run_fops);
	debugfs_create_file_unsafe("fires", 0400, stress_dir, NULL,
				   &stress_fires_fops);
	return 0;
}

static void __exit marker_test_stress_exit(void)
{
	debugfs_remove_recursive(stress_dir);
	mutex_lock(&stress_mutex);
	if (stress_nr)
		stress_stop();
	mutex_unlock(&stress_mutex);
}

module_init(marker_test_stress_init);
module_exit(marker_test_stress_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers test: markers fired in a loop on every CPU");
