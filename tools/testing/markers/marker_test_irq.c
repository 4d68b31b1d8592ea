// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_irq.c - markers fired from interrupt contexts, for the
 * integration tests (test.d/irq/). Probes run with preemption disabled;
 * here they also run where no sleeping lock may be taken, even on
 * PREEMPT_RT, where a spinlock_t is a sleeping lock:
 *
 *   test_irq_hard	hard interrupt: an irq_work made with
 *			IRQ_WORK_INIT_HARD(), which runs from the irq_work
 *			interrupt with interrupts off on every kernel, RT
 *			included
 *   test_irq_thread	threaded interrupt: the thread_fn of
 *			request_threaded_irq(), in its "irq/N-mtirq" kthread.
 *			There is no hardware: the interrupt is a descriptor of
 *			our own (irq_alloc_desc(), dummy_irq_chip,
 *			handle_simple_irq) raised from hard interrupt context
 *			by generic_handle_irq() in a second hard irq_work, as
 *			a demultiplexing irqchip driver raises its children.
 *			(Debian's kernels have no CONFIG_IRQ_SIM.)
 *   test_irq_soft	softirq: a timer_list callback (TIMER_SOFTIRQ; on RT
 *			run by the softirq code too, in_serving_softirq())
 *
 * /sys/kernel/debug/marker_test_irq/
 *   fire	write N: run each context N times in turn, each run waited
 *		for; its marker gets 1..N
 *   bad	how many runs were in the wrong context, or never came
 *   runs	how many runs each context has had: "hard H thread T soft S"
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irq_work.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/timer.h>

#include "marker_test_util.h"

#define MTIRQ_NAME	"mtirq"
#define MTIRQ_TIMEOUT	(5 * HZ)

static atomic_t bad = ATOMIC_INIT(0);
static atomic_t runs_hard, runs_thread, runs_soft;
static int arg;			/* the value the next run passes */
static DECLARE_COMPLETION(done);
static unsigned int virq;

static void expect(bool ok)
{
	if (!ok)
		atomic_inc(&bad);
}

static void hard_fn(struct irq_work *work)
{
	expect(in_hardirq() && irqs_disabled());
	MARK(test_irq_hard, "%d", arg);
	atomic_inc(&runs_hard);
	complete(&done);
}

static struct irq_work hard_work = IRQ_WORK_INIT_HARD(hard_fn);

/* Raise our interrupt from hard interrupt context, as its parent would. */
static void raise_fn(struct irq_work *work)
{
	expect(in_hardirq() && !generic_handle_irq(virq));
}

static struct irq_work raise_work = IRQ_WORK_INIT_HARD(raise_fn);

/* The primary handler; on RT forced into a thread of its own. */
static irqreturn_t primary_fn(int irq, void *dev_id)
{
	return IRQ_WAKE_THREAD;
}

static irqreturn_t thread_fn(int irq, void *dev_id)
{
	expect(!in_hardirq() && !in_serving_softirq() &&
	       (current->flags & PF_KTHREAD) &&
	       !strncmp(current->comm, "irq/", 4));
	MARK(test_irq_thread, "%d", arg);
	atomic_inc(&runs_thread);
	complete(&done);
	return IRQ_HANDLED;
}

static void soft_fn(struct timer_list *t)
{
	expect(in_serving_softirq() && !in_hardirq());
	MARK(test_irq_soft, "%d", arg);
	atomic_inc(&runs_soft);
	complete(&done);
}

static DEFINE_TIMER(soft_timer, soft_fn);

/* wait_run(): the run just started has come, or it is counted as bad */
static int wait_run(void)
{
	if (wait_for_completion_timeout(&done, MTIRQ_TIMEOUT))
		return 0;
	atomic_inc(&bad);
	return -ETIMEDOUT;
}

/* One run of each context, each passing @i */
static int fire(unsigned int i)
{
	int ret;

	arg = i;
	reinit_completion(&done);
	irq_work_queue(&hard_work);
	ret = wait_run();
	if (ret)
		return ret;

	reinit_completion(&done);
	irq_work_queue(&raise_work);
	ret = wait_run();
	if (ret)
		return ret;

	reinit_completion(&done);
	mod_timer(&soft_timer, jiffies);
	return wait_run();
}

static int runs_show(struct seq_file *m, void *v)
{
	seq_printf(m, "hard %d thread %d soft %d\n", atomic_read(&runs_hard),
		   atomic_read(&runs_thread), atomic_read(&runs_soft));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(runs);

static struct dentry *dir;

static int __init marker_test_irq_init(void)
{
	int ret;

	/*
	 * No owner: request_threaded_irq() pins the descriptor's owner, and
	 * our own exit, which frees the interrupt, could then never run.
	 */
	ret = __irq_alloc_descs(-1, 0, 1, NUMA_NO_NODE, NULL, NULL);
	if (ret < 0)
		return ret;
	virq = ret;
	/* as irq_sim sets up its interrupts: requestable, not probed */
	irq_set_chip_and_handler(virq, &dummy_irq_chip, handle_simple_irq);
	irq_modify_status(virq, IRQ_NOREQUEST | IRQ_NOAUTOEN, IRQ_NOPROBE);
	ret = request_threaded_irq(virq, primary_fn, thread_fn, 0, MTIRQ_NAME,
				   &virq);
	if (ret)
		goto err_desc;

	dir = debugfs_create_dir("marker_test_irq", NULL);
	marker_test_create_fire("fire", dir, fire);
	debugfs_create_atomic_t("bad", 0400, dir, &bad);
	debugfs_create_file("runs", 0400, dir, NULL, &runs_fops);
	return 0;

err_desc:
	irq_free_desc(virq);
	return ret;
}

static void __exit marker_test_irq_exit(void)
{
	debugfs_remove_recursive(dir);
	irq_work_sync(&raise_work);
	irq_work_sync(&hard_work);
	del_timer_sync(&soft_timer);
	free_irq(virq, &virq);
	irq_free_desc(virq);
}

module_init(marker_test_irq_init);
module_exit(marker_test_irq_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: markers in interrupt contexts");
