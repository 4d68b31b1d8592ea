// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_stress_probe.c - the probes of the stress test
 * (test.d/stress/), for its exact accounting:
 *
 *   P, a typed probe on stress_a, connected from init to exit: while it
 *	stays connected, its hits must equal the passes of the firing threads
 *	(marker_test_stress's fires), however the other probes on the site
 *	come and go.
 *   Q, a generic probe on "stress_*", connected and disconnected through
 *	the q file: once marker_probe_unregister() has returned, Q must never
 *	run again (each call after that counts as late).
 *   R, a generic probe on "stress_*" that a kernel thread connects and
 *	disconnects in a loop while churn is 1, racing the shell's steps for
 *	the registry: like Q, R must never run once unregistered.
 *
 * /sys/kernel/debug/marker_test_stress_probe/
 *	hits	P's calls
 *	q	write 1 to connect Q, 0 to disconnect it; reads 0 or 1
 *	qhits	Q's calls
 *	late	Q's calls after it was disconnected
 *	churn	write 1 to start R's thread, 0 to stop it (waits until it has
 *		stopped); reads 0 or 1
 *	rounds	R's completed connect/disconnect rounds
 *	rhits	R's calls
 *	rlate	R's calls after it was disconnected
 *	rrefused  R's registrations refused
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/kthread.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>

static atomic64_t p_hits = ATOMIC64_INIT(0);
static atomic64_t q_hits = ATOMIC64_INIT(0);
static atomic64_t q_late = ATOMIC64_INIT(0);

static DEFINE_MUTEX(q_mutex);		/* serialises Q's (dis)connection */
static bool q_connected;		/* under q_mutex; read by q_fn */

static atomic64_t r_hits = ATOMIC64_INIT(0);
static atomic64_t r_late = ATOMIC64_INIT(0);
static atomic64_t r_rounds = ATOMIC64_INIT(0);
static atomic64_t r_refused = ATOMIC64_INIT(0);

static DEFINE_MUTEX(r_mutex);		/* protects r_task */
static struct task_struct *r_task;
static bool r_connected;		/* written by r_task; read by r_fn */

static struct dentry *sp_dir;

static void p_fn(void *data, unsigned long pass, int cpu)
{
	atomic64_inc(&p_hits);
}

static void q_fn(void *data, struct marker_site *site, const u64 *args)
{
	atomic64_inc(&q_hits);
	if (!READ_ONCE(q_connected))
		atomic64_inc(&q_late);
}

static struct marker_probe p_probe =
	MARKER_PROBE(stress_a, p_fn, NULL, unsigned long, int);
/* a glob is no C token: the pattern is set in init */
static struct marker_probe q_probe = MARKER_PROBE_GENERIC(stress_a, q_fn, NULL);

static void r_fn(void *data, struct marker_site *site, const u64 *args)
{
	atomic64_inc(&r_hits);
	if (!READ_ONCE(r_connected))
		atomic64_inc(&r_late);
}

static struct marker_probe r_probe = MARKER_PROBE_GENERIC(stress_a, r_fn, NULL);

/* R's thread: one round is a registration and an unregistration */
static int r_thread(void *unused)
{
	while (!kthread_should_stop()) {
		/* connected first: a call while registering is not late */
		WRITE_ONCE(r_connected, true);
		if (marker_probe_register(&r_probe)) {
			WRITE_ONCE(r_connected, false);
			atomic64_inc(&r_refused);
			schedule_timeout_interruptible(1);
			continue;
		}
		/*
		 * Connected for a tick: this CPU's firing thread runs meanwhile,
		 * however the host schedules the vCPUs.
		 */
		schedule_timeout_uninterruptible(1);
		marker_probe_unregister(&r_probe);	/* waits for R's calls */
		WRITE_ONCE(r_connected, false);
		atomic64_inc(&r_rounds);
		cond_resched();
	}
	return 0;
}

static int churn_get(void *data, u64 *val)
{
	mutex_lock(&r_mutex);
	*val = !!r_task;
	mutex_unlock(&r_mutex);
	return 0;
}

static int churn_set(void *data, u64 val)
{
	struct task_struct *task;
	int ret = 0;

	mutex_lock(&r_mutex);
	if (val && !r_task) {
		task = kthread_run(r_thread, NULL, "marker_churn");
		if (IS_ERR(task))
			ret = PTR_ERR(task);
		else
			r_task = task;
	} else if (!val && r_task) {
		kthread_stop(r_task);
		r_task = NULL;
	}
	mutex_unlock(&r_mutex);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(churn_fops, churn_get, churn_set, "%llu\n");

static int q_get(void *data, u64 *val)
{
	*val = READ_ONCE(q_connected);
	return 0;
}

static int q_set(void *data, u64 val)
{
	int ret = 0;

	mutex_lock(&q_mutex);
	if (val && !q_connected) {
		/* connected first: a call while registering is not late */
		WRITE_ONCE(q_connected, true);
		ret = marker_probe_register(&q_probe);
		if (ret)
			WRITE_ONCE(q_connected, false);
	} else if (!val && q_connected) {
		marker_probe_unregister(&q_probe);	/* waits for Q's calls */
		WRITE_ONCE(q_connected, false);
	}
	mutex_unlock(&q_mutex);
	return ret;
}
DEFINE_DEBUGFS_ATTRIBUTE(q_fops, q_get, q_set, "%llu\n");

#define SP_COUNTER(name, counter)					\
static int name##_get(void *data, u64 *val)				\
{									\
	*val = atomic64_read(&(counter));				\
	return 0;							\
}									\
DEFINE_DEBUGFS_ATTRIBUTE(name##_fops, name##_get, NULL, "%llu\n")

SP_COUNTER(hits, p_hits);
SP_COUNTER(qhits, q_hits);
SP_COUNTER(late, q_late);
SP_COUNTER(rounds, r_rounds);
SP_COUNTER(rhits, r_hits);
SP_COUNTER(rlate, r_late);
SP_COUNTER(rrefused, r_refused);

static int __init marker_test_stress_probe_init(void)
{
	int ret;

	q_probe.marker = "stress_*";
	r_probe.marker = "stress_*";
	ret = marker_probe_register(&p_probe);
	if (ret)
		return ret;
	sp_dir = debugfs_create_dir("marker_test_stress_probe", NULL);
	debugfs_create_file_unsafe("hits", 0400, sp_dir, NULL, &hits_fops);
	debugfs_create_file_unsafe("q", 0600, sp_dir, NULL, &q_fops);
	debugfs_create_file_unsafe("qhits", 0400, sp_dir, NULL, &qhits_fops);
	debugfs_create_file_unsafe("late", 0400, sp_dir, NULL, &late_fops);
	debugfs_create_file_unsafe("churn", 0600, sp_dir, NULL, &churn_fops);
	debugfs_create_file_unsafe("rounds", 0400, sp_dir, NULL, &rounds_fops);
	debugfs_create_file_unsafe("rhits", 0400, sp_dir, NULL, &rhits_fops);
	debugfs_create_file_unsafe("rlate", 0400, sp_dir, NULL, &rlate_fops);
	debugfs_create_file_unsafe("rrefused", 0400, sp_dir, NULL,
				   &rrefused_fops);
	return 0;
}

static void __exit marker_test_stress_probe_exit(void)
{
	debugfs_remove_recursive(sp_dir);
	churn_set(NULL, 0);
	q_set(NULL, 0);
	marker_probe_unregister(&p_probe);
	marker_synchronize_unregister();
}

module_init(marker_test_stress_probe_init);
module_exit(marker_test_stress_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Markers test: the stress test's probes, exact accounting");
