// SPDX-License-Identifier: GPL-2.0-only
/*
 * marker_test_probe.c - probe module for the integration tests.
 *
 * probe=NAME picks what to register:
 *   types	typed probe on test_types, checks every argument
 *   generic	generic probe on test_types, checks the u64 arguments
 *   mismatch	test_types with the wrong signature (init fails: -EINVAL)
 *   tamper	test_tamper (int)
 *   loop	test_loop (int)
 *   noargs	test_noargs ()
 *   multi	test_multi (int)
 *   mark1	subsys_mark1 (int), beside probe_example
 *   scalars	test_scalars (bool, unsigned char, short, unsigned long, long
 *		long), checks the values marker_test_sites passes
 *
 * /sys/kernel/debug/marker_test_probe/{hits,bad} count the calls, and the
 * calls that saw a wrong argument or ran preemptible.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/marker.h>
#include <linux/module.h>

static char *probe = "types";
module_param(probe, charp, 0444);
MODULE_PARM_DESC(probe, "which probe to register (see the source)");

static atomic_t hits = ATOMIC_INIT(0);
static atomic_t bad = ATOMIC_INIT(0);

static void count(bool ok)
{
	atomic_inc(&hits);
	if (!ok || preemptible())
		atomic_inc(&bad);
}

static void probe_types(void *data, int i, unsigned int u, signed char c,
			unsigned short h, long l, unsigned long long q,
			void *p, const char *s)
{
	count(data == &hits && u == i * 3u && c == (s8)-i &&
	      h == (u16)(i + 1000) && l == -(long)i * 100000 &&
	      q == (u64)i << 40 && *(int *)p == 0x5a5a5a5a && !strcmp(s, "blah"));
}

static void probe_generic(void *data, struct marker_site *site,
			  const u64 *args)
{
	int i = args[0];

	count(!strcmp(site->sig, "iIcHlQps") && site->nargs == 8 &&
	      (u32)args[1] == i * 3u && (s8)args[2] == (s8)-i &&
	      (u16)args[3] == (u16)(i + 1000) &&
	      (long)args[4] == -(long)i * 100000 && args[5] == (u64)i << 40 &&
	      *(int *)(unsigned long)args[6] == 0x5a5a5a5a &&
	      !strcmp((const char *)(unsigned long)args[7], "blah"));
}

static void probe_int(void *data, int i)
{
	count(true);
}

static void probe_scalars(void *data, bool b, unsigned char c, short h,
			  unsigned long l, long long q)
{
	count(b && c == U8_MAX && h == S16_MIN && l == 16 && q == -1);
}

static void probe_noargs(void *data)
{
	count(true);
}

static struct marker_probe probes[] = {
	MARKER_PROBE(test_types, probe_types, &hits, int, unsigned int,
		     signed char, unsigned short, long, unsigned long long,
		     void *, const char *),
	MARKER_PROBE_GENERIC(test_types, probe_generic, NULL),
	MARKER_PROBE(test_types, probe_int, NULL, int),
	MARKER_PROBE(test_tamper, probe_int, NULL, int),
	MARKER_PROBE(test_loop, probe_int, NULL, int),
	MARKER_PROBE(test_noargs, probe_noargs, NULL),
	MARKER_PROBE(test_multi, probe_int, NULL, int),
	MARKER_PROBE(subsys_mark1, probe_int, NULL, int),
	MARKER_PROBE(test_scalars, probe_scalars, NULL, bool, unsigned char,
		     short, unsigned long, long long),
};

static const char *const names[ARRAY_SIZE(probes)] = {
	"types", "generic", "mismatch", "tamper", "loop", "noargs", "multi",
	"mark1", "scalars",
};

static struct marker_probe *chosen;
static struct dentry *dir;

static int __init marker_test_probe_init(void)
{
	int i, ret;

	i = match_string(names, ARRAY_SIZE(names), probe);
	if (i < 0) {
		pr_err("unknown probe=%s\n", probe);
		return -EINVAL;
	}
	ret = marker_probe_register(&probes[i]);
	if (ret)
		return ret;
	chosen = &probes[i];
	dir = debugfs_create_dir("marker_test_probe", NULL);
	debugfs_create_atomic_t("hits", 0400, dir, &hits);
	debugfs_create_atomic_t("bad", 0400, dir, &bad);
	return 0;
}

static void __exit marker_test_probe_exit(void)
{
	debugfs_remove_recursive(dir);
	marker_probe_unregister(chosen);
	marker_synchronize_unregister();
}

module_init(marker_test_probe_init);
module_exit(marker_test_probe_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Marker integration tests: probe module");
