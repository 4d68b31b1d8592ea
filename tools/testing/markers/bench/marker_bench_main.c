// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_bench - what a marker costs, beside a static key, a tracepoint and
 * a kprobe: the benchmark module of "make bench". Run only in a QEMU guest.
 * See Documentation/markers-bench.rst.
 *
 * Each case is a noinline function that stores its argument and holds one
 * construct: nothing (the baseline), a static-key branch, a tracepoint, a
 * near-zero or a portable MARK(), before the store (the argument is live
 * across the site) or after it (-tail: nothing is). The cases ending in 3
 * take three arguments and store all three after the construct: three
 * values live across it, against their own baseline, empty3. "run" calls one of
 * them in a tight loop with interrupts off and times the loop with the
 * TSC, which counts guest instructions when QEMU runs with -icount
 * shift=0. Arming is a separate command, so a case is timed the same way
 * disarmed and armed.
 *
 * /sys/kernel/debug/marker_bench/ctl takes one command a write:
 *
 *   run CASE N			call CASE N times; CASE: empty key tp nz pt
 *				nz-tail pt-tail ev empty3 tp3 nz3 pt3
 *   arm nz|pt typed|generic NR	connect NR (1 to 8) empty probes to the site
 *   arm tp [NR]			connect NR (1 to 8, default 1) empty probes
 *				to the tracepoint
 *   kprobe			an empty kprobe on __mark_kprobe_bench_nz
 *   disarm			undo every arm and the kprobe
 *   scale arm PATTERN		one generic glob probe (counts its hits)
 *   scale typed PREFIX NR	NR typed probes, on PREFIX0 to PREFIX<NR-1>
 *   scale fire			run every site of the scaling module once
 *   scale disarm		disconnect what scale arm or typed connected
 *
 * and /sys/kernel/debug/marker_bench/result gives the last one's result:
 * "CASE N TICKS NS" for run, "OP NS COUNT" for scale (COUNT: the probes
 * registered, or the hits of one fire).
 *
 * The scaling modules that make bench generates hand their sites to this
 * one with marker_bench_scale_attach().
 */
#include <linux/debugfs.h>
#include <linux/jump_label.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/marker.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <asm/msr.h>

#include "marker_bench.h"

/* The most probes one "arm" connects to a site or to the tracepoint. */
#define BENCH_MAX_PROBES	8

/* The longest command ctl takes, with its newline. */
#define BENCH_CMD_MAX		127

/* The longest name a "scale typed" probe gets. */
#define BENCH_NAME_MAX		32

int marker_bench_sink;

/* -- The cases ------------------------------------------------------------- */

static noinline void bench_empty(int i)
{
	WRITE_ONCE(marker_bench_sink, i);
}

static DEFINE_STATIC_KEY_FALSE(bench_key);

static noinline void bench_key_fn(int i)
{
	if (static_branch_unlikely(&bench_key))
		WRITE_ONCE(marker_bench_sink, -i);
	WRITE_ONCE(marker_bench_sink, i);
}

/* A raw tracepoint of the module's own: no trace event behind it. */
DECLARE_TRACE(bench_tp, TP_PROTO(int i), TP_ARGS(i));
DEFINE_TRACE(bench_tp, TP_PROTO(int i), TP_ARGS(i));

static noinline void bench_tp_fn(int i)
{
	trace_bench_tp(i);
	WRITE_ONCE(marker_bench_sink, i);
}

/*
 * A TRACE_EVENT, enabled from tracefs: events/marker_bench/bench_ev. Its
 * header comes after DECLARE_TRACE(bench_tp): define_trace.h leaves the
 * tracepoint macros redefined.
 */
#define CREATE_TRACE_POINTS
#include "marker_bench_trace.h"

static noinline void bench_ev_fn(int i)
{
	trace_bench_ev(i);
	WRITE_ONCE(marker_bench_sink, i);
}

/* A value (i) live across the site, as in the middle of a function. */
static noinline void bench_nz(int i)
{
	MARK(bench_nz, "%d", i);
	WRITE_ONCE(marker_bench_sink, i);
}

/* Nothing live across the site: it ends the function. */
static noinline void bench_nz_tail(int i)
{
	WRITE_ONCE(marker_bench_sink, i);
	MARK(bench_nz_tail, "%d", i);
}

/* Three values live across each construct. */
static noinline void bench_empty3(int i, int j, int k)
{
	WRITE_ONCE(marker_bench_sink, i);
	WRITE_ONCE(marker_bench_sink, j);
	WRITE_ONCE(marker_bench_sink, k);
}

static noinline void bench_tp3(int i, int j, int k)
{
	trace_bench_tp(i);
	WRITE_ONCE(marker_bench_sink, i);
	WRITE_ONCE(marker_bench_sink, j);
	WRITE_ONCE(marker_bench_sink, k);
}

static noinline void bench_nz3(int i, int j, int k)
{
	MARK(bench_nz3, "%d", i);
	WRITE_ONCE(marker_bench_sink, i);
	WRITE_ONCE(marker_bench_sink, j);
	WRITE_ONCE(marker_bench_sink, k);
}

enum bench_case {
	BENCH_EMPTY,
	BENCH_KEY,
	BENCH_TP,
	BENCH_NZ,
	BENCH_PT,
	BENCH_NZ_TAIL,
	BENCH_PT_TAIL,
	BENCH_EV,
	BENCH_EMPTY3,
	BENCH_TP3,
	BENCH_NZ3,
	BENCH_PT3,
	BENCH_NR_CASES,
};

static const char * const bench_case_names[BENCH_NR_CASES] = {
	[BENCH_EMPTY]	= "empty",
	[BENCH_KEY]	= "key",
	[BENCH_TP]	= "tp",
	[BENCH_NZ]	= "nz",
	[BENCH_PT]	= "pt",
	[BENCH_NZ_TAIL]	= "nz-tail",
	[BENCH_PT_TAIL]	= "pt-tail",
	[BENCH_EV]	= "ev",
	[BENCH_EMPTY3]	= "empty3",
	[BENCH_TP3]	= "tp3",
	[BENCH_NZ3]	= "nz3",
	[BENCH_PT3]	= "pt3",
};

/*
 * Call case @c @n times with interrupts off; return the TSC ticks the loop
 * took. Every loop has the same shape: a direct call to the case, the
 * increment, the compare and the branch (and, for the cases ending in 3,
 * the two other arguments).
 */
static noinline u64 bench_loop(enum bench_case c, unsigned int n)
{
	unsigned long flags;
	unsigned int i;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = rdtsc_ordered();
	switch (c) {
	case BENCH_EMPTY:
		for (i = 0; i < n; i++)
			bench_empty(i);
		break;
	case BENCH_KEY:
		for (i = 0; i < n; i++)
			bench_key_fn(i);
		break;
	case BENCH_TP:
		for (i = 0; i < n; i++)
			bench_tp_fn(i);
		break;
	case BENCH_NZ:
		for (i = 0; i < n; i++)
			bench_nz(i);
		break;
	case BENCH_PT:
		for (i = 0; i < n; i++)
			marker_bench_pt(i);
		break;
	case BENCH_NZ_TAIL:
		for (i = 0; i < n; i++)
			bench_nz_tail(i);
		break;
	case BENCH_PT_TAIL:
		for (i = 0; i < n; i++)
			marker_bench_pt_tail(i);
		break;
	case BENCH_EV:
		for (i = 0; i < n; i++)
			bench_ev_fn(i);
		break;
	case BENCH_EMPTY3:
		for (i = 0; i < n; i++)
			bench_empty3(i, i + 1, i + 2);
		break;
	case BENCH_TP3:
		for (i = 0; i < n; i++)
			bench_tp3(i, i + 1, i + 2);
		break;
	case BENCH_NZ3:
		for (i = 0; i < n; i++)
			bench_nz3(i, i + 1, i + 2);
		break;
	case BENCH_PT3:
		for (i = 0; i < n; i++)
			marker_bench_pt3(i, i + 1, i + 2);
		break;
	case BENCH_NR_CASES:
		break;
	}
	t1 = rdtsc_ordered();
	local_irq_restore(flags);
	return t1 - t0;
}

/* -- Probes: empty, as the cases they are measured against --------------- */

static int bench_data[BENCH_MAX_PROBES];

static void bench_probe(void *data, int i)
{
}

static void bench_probe_generic(void *data, struct marker_site *site,
				const u64 *args)
{
}

static void bench_tp_probe(void *data, int i)
{
}

static struct marker_probe bench_nz_typed[BENCH_MAX_PROBES] = {
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[0], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[1], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[2], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[3], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[4], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[5], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[6], int),
	MARKER_PROBE(bench_nz, bench_probe, &bench_data[7], int),
};

static struct marker_probe bench_pt_typed[BENCH_MAX_PROBES] = {
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[0], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[1], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[2], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[3], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[4], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[5], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[6], int),
	MARKER_PROBE(bench_pt, bench_probe, &bench_data[7], int),
};

static struct marker_probe bench_nz_generic[BENCH_MAX_PROBES] = {
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[0]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[1]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[2]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[3]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[4]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[5]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[6]),
	MARKER_PROBE_GENERIC(bench_nz, bench_probe_generic, &bench_data[7]),
};

static struct marker_probe bench_pt_generic[BENCH_MAX_PROBES] = {
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[0]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[1]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[2]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[3]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[4]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[5]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[6]),
	MARKER_PROBE_GENERIC(bench_pt, bench_probe_generic, &bench_data[7]),
};

static int bench_kprobe_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/*
 * What "arm" and "kprobe" connected, under bench_mutex: the probes of at
 * most one marker, the tracepoint probe, the kprobe.
 */
static DEFINE_MUTEX(bench_mutex);
static struct marker_probe *bench_armed;
static unsigned int bench_nr_armed;
static unsigned int bench_tp_nr;
static struct kprobe bench_kp;
static bool bench_kp_armed;

static int bench_arm_marker(const char *site, const char *kind, unsigned int nr)
{
	struct marker_probe *probes;
	unsigned int i;
	int ret;

	if (bench_nr_armed || !nr || nr > BENCH_MAX_PROBES)
		return -EINVAL;
	if (!strcmp(kind, "typed"))
		probes = !strcmp(site, "nz") ? bench_nz_typed : bench_pt_typed;
	else if (!strcmp(kind, "generic"))
		probes = !strcmp(site, "nz") ? bench_nz_generic : bench_pt_generic;
	else
		return -EINVAL;
	if (strcmp(site, "nz") && strcmp(site, "pt"))
		return -EINVAL;

	for (i = 0; i < nr; i++) {
		ret = marker_probe_register(&probes[i]);
		if (ret)
			goto unregister;
	}
	bench_armed = probes;
	bench_nr_armed = nr;
	return 0;

unregister:
	while (i--)
		marker_probe_unregister(&probes[i]);
	return ret;
}

/*
 * @nr empty probes on the tracepoint, each with its own data (the core
 * refuses a second (func, data) pair): one is called through the
 * tracepoint's static call, several through its iterator.
 */
static int bench_arm_tp(unsigned int nr)
{
	int ret;

	if (bench_tp_nr)
		return -EBUSY;
	if (!nr || nr > BENCH_MAX_PROBES)
		return -EINVAL;
	for (; bench_tp_nr < nr; bench_tp_nr++) {
		ret = register_trace_bench_tp(bench_tp_probe,
					      &bench_data[bench_tp_nr]);
		if (ret)
			goto unregister;
	}
	return 0;

unregister:
	while (bench_tp_nr)
		unregister_trace_bench_tp(bench_tp_probe,
					  &bench_data[--bench_tp_nr]);
	return ret;
}

/* An empty kprobe on the near-zero site's symbol: int3, or optimized. */
static int bench_arm_kprobe(void)
{
	int ret;

	if (bench_kp_armed)
		return -EBUSY;
	memset(&bench_kp, 0, sizeof(bench_kp));
	bench_kp.symbol_name = KBUILD_MODNAME ":__mark_kprobe_bench_nz";
	bench_kp.pre_handler = bench_kprobe_pre;
	ret = register_kprobe(&bench_kp);
	if (ret) {
		pr_err("register_kprobe(%s): %d\n", bench_kp.symbol_name, ret);
		return ret;
	}
	bench_kp_armed = true;
	return 0;
}

static void bench_disarm(void)
{
	while (bench_nr_armed)
		marker_probe_unregister(&bench_armed[--bench_nr_armed]);
	marker_synchronize_unregister();
	if (bench_tp_nr) {
		while (bench_tp_nr)
			unregister_trace_bench_tp(bench_tp_probe,
						  &bench_data[--bench_tp_nr]);
		tracepoint_synchronize_unregister();
	}
	if (bench_kp_armed) {
		unregister_kprobe(&bench_kp);
		bench_kp_armed = false;
	}
}

/* -- Arming at scale ------------------------------------------------------- */

/*
 * The attached scaling module and what "scale" connected to it, under
 * bench_mutex: one glob probe, or bench_scale_nr typed probes.
 */
static const struct marker_bench_scale *bench_scale;
static atomic_long_t bench_scale_hits;
static char bench_scale_pattern[BENCH_CMD_MAX + 1];
static struct marker_probe bench_scale_glob;
static bool bench_scale_glob_armed;
static struct marker_probe *bench_scale_probes;
static char (*bench_scale_names)[BENCH_NAME_MAX];
static unsigned int bench_scale_nr;

static void bench_scale_count(void *data, struct marker_site *site,
			      const u64 *args)
{
	atomic_long_inc(&bench_scale_hits);
}

static void bench_scale_typed_count(void *data, int v)
{
	atomic_long_inc(&bench_scale_hits);
}

static void bench_scale_disarm(void)
{
	struct marker_probe **ptrs;
	unsigned int i;

	if (bench_scale_glob_armed) {
		marker_probe_unregister(&bench_scale_glob);
		bench_scale_glob_armed = false;
	}
	/* One grace period for all of them, if the pointer array fits. */
	ptrs = kcalloc(bench_scale_nr, sizeof(*ptrs), GFP_KERNEL);
	if (ptrs) {
		for (i = 0; i < bench_scale_nr; i++)
			ptrs[i] = &bench_scale_probes[i];
		marker_probe_unregister_many(ptrs, bench_scale_nr);
		bench_scale_nr = 0;
		kfree(ptrs);
	}
	while (bench_scale_nr)
		marker_probe_unregister(&bench_scale_probes[--bench_scale_nr]);
	kfree(bench_scale_probes);
	bench_scale_probes = NULL;
	kfree(bench_scale_names);
	bench_scale_names = NULL;
}

static int bench_scale_arm(const char *pattern)
{
	struct marker_probe glob = MARKER_PROBE_GENERIC(any, bench_scale_count,
							NULL);
	int ret;

	if (bench_scale_glob_armed || bench_scale_nr)
		return -EBUSY;
	strscpy(bench_scale_pattern, pattern, sizeof(bench_scale_pattern));
	glob.marker = bench_scale_pattern;
	bench_scale_glob = glob;
	ret = marker_probe_register(&bench_scale_glob);
	if (ret)
		return ret;
	bench_scale_glob_armed = true;
	return 0;
}

/* @nr typed probes, one a marker name: @prefix0 to @prefix<nr - 1>. */
static int bench_scale_typed(const char *prefix, unsigned int nr)
{
	struct marker_probe probe = MARKER_PROBE(any, bench_scale_typed_count,
						 NULL, int);
	unsigned int i;
	int ret;

	if (bench_scale_glob_armed || bench_scale_nr || !nr)
		return -EBUSY;
	bench_scale_probes = kcalloc(nr, sizeof(*bench_scale_probes),
				     GFP_KERNEL);
	bench_scale_names = kcalloc(nr, sizeof(*bench_scale_names), GFP_KERNEL);
	if (!bench_scale_probes || !bench_scale_names) {
		ret = -ENOMEM;
		goto free;
	}
	for (i = 0; i < nr; i++) {
		snprintf(bench_scale_names[i], BENCH_NAME_MAX, "%s%u", prefix, i);
		bench_scale_probes[i] = probe;
		bench_scale_probes[i].marker = bench_scale_names[i];
		ret = marker_probe_register(&bench_scale_probes[i]);
		if (ret)
			goto free;
		bench_scale_nr++;
	}
	return 0;

free:
	bench_scale_disarm();
	return ret;
}

/* Run every site of the attached module once; return the probes' hits. */
static long bench_scale_fire(void)
{
	long before = atomic_long_read(&bench_scale_hits);
	unsigned int i;

	for (i = 0; i < bench_scale->nr; i++)
		bench_scale->fns[i](i);
	return atomic_long_read(&bench_scale_hits) - before;
}

/**
 * marker_bench_scale_attach() - hand the sites of a scaling module over
 * @scale: the sites; they must stay until marker_bench_scale_detach()
 *
 * Context: process context (the module's init).
 * Return: 0, or -EBUSY when another scaling module is attached.
 */
int marker_bench_scale_attach(const struct marker_bench_scale *scale)
{
	int ret = 0;

	mutex_lock(&bench_mutex);
	if (bench_scale)
		ret = -EBUSY;
	else
		bench_scale = scale;
	mutex_unlock(&bench_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_bench_scale_attach);

/**
 * marker_bench_scale_detach() - take the sites of a scaling module back
 * @scale: what marker_bench_scale_attach() was given
 *
 * Disconnects what "scale" left connected.
 *
 * Context: process context (the module's exit), may sleep.
 */
void marker_bench_scale_detach(const struct marker_bench_scale *scale)
{
	mutex_lock(&bench_mutex);
	if (bench_scale == scale) {
		bench_scale_disarm();
		bench_scale = NULL;
	}
	mutex_unlock(&bench_mutex);
}
EXPORT_SYMBOL_GPL(marker_bench_scale_detach);

/* -- debugfs --------------------------------------------------------------- */

static char bench_result[128];	/* under bench_mutex */

static int bench_run(const char *name, unsigned int n)
{
	u64 ticks, ns;
	int c;

	c = match_string(bench_case_names, BENCH_NR_CASES, name);
	if (c < 0 || !n)
		return -EINVAL;
	ns = ktime_get_ns();
	ticks = bench_loop(c, n);
	ns = ktime_get_ns() - ns;
	snprintf(bench_result, sizeof(bench_result), "%s %u %llu %llu\n",
		 name, n, ticks, ns);
	return 0;
}

/* "scale OP ARGS": time OP, the way bench_run() times a loop. */
static int bench_scale_cmd(const char *op, const char *arg, unsigned int nr)
{
	long count = 0;
	int ret = 0;
	u64 ns;

	if (!bench_scale)
		return -ENODEV;
	ns = ktime_get_ns();
	if (!strcmp(op, "arm") && *arg) {
		ret = bench_scale_arm(arg);
		count = 1;
	} else if (!strcmp(op, "typed") && *arg) {
		ret = bench_scale_typed(arg, nr);
		count = nr;
	} else if (!strcmp(op, "fire")) {
		count = bench_scale_fire();
	} else if (!strcmp(op, "disarm")) {
		count = bench_scale_nr + bench_scale_glob_armed;
		bench_scale_disarm();
	} else {
		return -EINVAL;
	}
	ns = ktime_get_ns() - ns;
	if (!ret)
		snprintf(bench_result, sizeof(bench_result), "%s %llu %ld\n",
			 op, ns, count);
	return ret;
}

static int bench_command(char *buf)
{
	char cmd[16], a[BENCH_CMD_MAX + 1] = "", b[16] = "";
	unsigned int n = 0;
	int args;

	args = sscanf(buf, "%15s %127s %15s %u", cmd, a, b, &n);
	if (args < 1)
		return -EINVAL;
	if (!strcmp(cmd, "run")) {
		if (sscanf(buf, "run %15s %u", b, &n) != 2)
			return -EINVAL;
		return bench_run(b, n);
	}
	if (!strcmp(cmd, "arm") && !strcmp(a, "tp")) {
		/* arm tp [NR] */
		n = 1;
		if (args >= 3 && kstrtouint(b, 10, &n))
			return -EINVAL;
		return bench_arm_tp(n);
	}
	if (!strcmp(cmd, "arm") && args == 4)
		return bench_arm_marker(a, b, n);
	if (!strcmp(cmd, "kprobe"))
		return bench_arm_kprobe();
	if (!strcmp(cmd, "disarm")) {
		bench_disarm();
		return 0;
	}
	if (!strcmp(cmd, "scale")) {
		/* scale OP [PATTERN|PREFIX [NR]] */
		args = sscanf(buf, "scale %15s %127s %u", b, a, &n);
		if (args < 1)
			return -EINVAL;
		if (args < 2)
			a[0] = '\0';
		return bench_scale_cmd(b, a, n);
	}
	return -EINVAL;
}

static ssize_t bench_ctl_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	char buf[BENCH_CMD_MAX + 1];
	int ret;

	if (count > BENCH_CMD_MAX)
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	mutex_lock(&bench_mutex);
	bench_result[0] = '\0';
	ret = bench_command(buf);
	mutex_unlock(&bench_mutex);
	return ret ?: count;
}

static const struct file_operations bench_ctl_fops = {
	.write	= bench_ctl_write,
};

static int bench_result_show(struct seq_file *m, void *v)
{
	mutex_lock(&bench_mutex);
	seq_puts(m, bench_result);
	mutex_unlock(&bench_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(bench_result);

static struct dentry *bench_dir;

static int __init marker_bench_init(void)
{
	bench_dir = debugfs_create_dir("marker_bench", NULL);
	debugfs_create_file("ctl", 0200, bench_dir, NULL, &bench_ctl_fops);
	debugfs_create_file("result", 0400, bench_dir, NULL, &bench_result_fops);
	return 0;
}

static void __exit marker_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	mutex_lock(&bench_mutex);
	bench_disarm();
	mutex_unlock(&bench_mutex);
}

module_init(marker_bench_init);
module_exit(marker_bench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker benchmarks: cases against static keys, tracepoints and kprobes");
