// SPDX-License-Identifier: GPL-2.0-only
/*
 * The marker_registry KUnit suite's fault injection: slab allocations of
 * the test's own task fail on demand, and what the task allocated and
 * did not free is counted, so that a case can check that a call failing
 * half-way leaves nothing behind. See marker_kunit.c.
 */
#include <kunit/test.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>
#include <trace/events/kmem.h>

#include "marker_kunit.h"

/*
 * should_failslab() is where the slab allocator asks whether to fail an
 * allocation (ALLOW_ERROR_INJECTION). A kprobe on it diverts selected calls
 * to mkt_failslab(), a function of its type returning -ENOMEM, as
 * kernel/fail_function.c diverts them to a bare return: the slab
 * allocations of the test's own task fail, mkt_fail_times of them after
 * letting mkt_fail_skip through (times -1: all of them).
 *
 * Meanwhile the kmalloc and kfree tracepoints note what that task allocates
 * and what gets freed, so that a call can be checked for leaks.
 */
static struct task_struct *mkt_fail_task;
static atomic_t mkt_fail_skip, mkt_fail_times, mkt_failed;
static bool mkt_failslab_on;	/* the kprobe is registered */

#define MKT_TRACK_MAX	32
static DEFINE_SPINLOCK(mkt_track_lock);
static const void *mkt_track[MKT_TRACK_MAX];
static bool mkt_track_overflow;

static noinline int mkt_failslab(struct kmem_cache *s, gfp_t gfpflags)
{
	return -ENOMEM;
}

static int mkt_failslab_pre(struct kprobe *kp, struct pt_regs *regs)
{
	if (current != READ_ONCE(mkt_fail_task) || !in_task())
		return 0;
	if (atomic_dec_if_positive(&mkt_fail_skip) >= 0)
		return 0;
	if (!atomic_add_unless(&mkt_fail_times, -1, 0))
		return 0;
	atomic_inc(&mkt_failed);
	instruction_pointer_set(regs, (unsigned long)mkt_failslab);
	return 1;
}

static struct kprobe mkt_failslab_kp = {
	.symbol_name	= "should_failslab",
	.pre_handler	= mkt_failslab_pre,
};

static void mkt_on_kmalloc(void *ignore, unsigned long call_site,
			   const void *ptr, size_t bytes_req,
			   size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	unsigned long flags;
	unsigned int i;

	if (!ptr || current != READ_ONCE(mkt_fail_task) || !in_task())
		return;
	spin_lock_irqsave(&mkt_track_lock, flags);
	for (i = 0; i < MKT_TRACK_MAX && mkt_track[i]; i++)
		;
	if (i < MKT_TRACK_MAX)
		mkt_track[i] = ptr;
	else
		mkt_track_overflow = true;
	spin_unlock_irqrestore(&mkt_track_lock, flags);
}

static void mkt_on_kfree(void *ignore, unsigned long call_site,
			 const void *ptr)
{
	unsigned long flags;
	unsigned int i;

	if (!ptr || !READ_ONCE(mkt_fail_task))
		return;
	spin_lock_irqsave(&mkt_track_lock, flags);
	for (i = 0; i < MKT_TRACK_MAX; i++)
		if (mkt_track[i] == ptr)
			mkt_track[i] = NULL;
	spin_unlock_irqrestore(&mkt_track_lock, flags);
}

/**
 * mkt_fail_start() - fail the slab allocations of the current task
 * @skip: how many to let through first
 * @times: how many to fail then; -1: all of them
 *
 * Also starts noting what the task allocates, for mkt_fail_stop().
 */
void mkt_fail_start(int skip, int times)
{
	unsigned long flags;

	spin_lock_irqsave(&mkt_track_lock, flags);
	memset(mkt_track, 0, sizeof(mkt_track));
	mkt_track_overflow = false;
	spin_unlock_irqrestore(&mkt_track_lock, flags);
	atomic_set(&mkt_fail_skip, skip);
	atomic_set(&mkt_fail_times, times);
	atomic_set(&mkt_failed, 0);
	WRITE_ONCE(mkt_fail_task, current);
}

/**
 * mkt_fail_stop() - stop failing allocations
 * @test: the case, which fails if more was allocated than could be noted
 * @leaked: set to the number of allocations since mkt_fail_start() that
 *	are not freed
 *
 * Return: how many allocations failed.
 */
int mkt_fail_stop(struct kunit *test, int *leaked)
{
	unsigned long flags;
	unsigned int i;

	WRITE_ONCE(mkt_fail_task, NULL);
	*leaked = 0;
	spin_lock_irqsave(&mkt_track_lock, flags);
	for (i = 0; i < MKT_TRACK_MAX; i++)
		*leaked += !!mkt_track[i];
	KUNIT_EXPECT_FALSE(test, mkt_track_overflow);
	spin_unlock_irqrestore(&mkt_track_lock, flags);
	return atomic_read(&mkt_failed);
}

/* Whether the allocations can be failed: false without CONFIG_KPROBES. */
bool mkt_fail_ready(void)
{
	return mkt_failslab_on;
}

/* Stop failing and noting, whatever a case left started (its exit hook). */
void mkt_fail_cancel(void)
{
	WRITE_ONCE(mkt_fail_task, NULL);
}

/**
 * mkt_fail_init() - attach to the allocator, for the suite
 *
 * Return: 0, or the error of a tracepoint registration. A kprobe that
 * cannot be registered only makes mkt_fail_ready() false.
 */
int mkt_fail_init(void)
{
	int ret;

	ret = register_trace_kmalloc(mkt_on_kmalloc, NULL);
	if (ret)
		return ret;
	ret = register_trace_kfree(mkt_on_kfree, NULL);
	if (ret)
		goto unregister_kmalloc;
	mkt_failslab_on = !register_kprobe(&mkt_failslab_kp);
	return 0;

unregister_kmalloc:
	unregister_trace_kmalloc(mkt_on_kmalloc, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

/* Detach from the allocator, after the suite. */
void mkt_fail_exit(void)
{
	if (mkt_failslab_on)
		unregister_kprobe(&mkt_failslab_kp);
	mkt_failslab_on = false;
	unregister_trace_kfree(mkt_on_kfree, NULL);
	unregister_trace_kmalloc(mkt_on_kmalloc, NULL);
	tracepoint_synchronize_unregister();
}
