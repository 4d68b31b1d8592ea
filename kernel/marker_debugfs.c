// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry's debugfs files, under /sys/kernel/debug/markers/ (root
 * only): list, probes and control. Their formats are documented in
 * Documentation/markers.rst and Documentation/markers-admin.rst.
 */
#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "marker-internal.h"

static struct dentry *marker_debugfs;

/*
 * The consumers connected to @site, by kind: "typed:1,action:2", "-" for
 * none (see marker_consumer_kind()).
 */
static void marker_site_show_consumers(const struct marker_site *site,
				       struct seq_file *m)
{
	static const char *const kinds[] = {
		"typed", "generic", "action", "event",
	};
	struct marker_funcs *funcs = __marker_site_funcs(site);
	unsigned int k, i, nr;
	const char *sep = "";
	bool generic;
	void *func;

	for (k = 0; k < ARRAY_SIZE(kinds); k++) {
		nr = 0;
		for (i = 0; funcs && i < funcs->nr; i++) {
			func = marker_func_fn(&funcs->f[i], &generic);
			nr += !strcmp(marker_consumer_kind(func, generic),
				      kinds[k]);
		}
		if (nr) {
			seq_printf(m, "%s%s:%u", sep, kinds[k], nr);
			sep = ",";
		}
	}
	if (!*sep)
		seq_putc(m, '-');
}

/*
 * One line per site:
 *   name module mode state probes hits fired signature code symbol kind
 *   consumers "format"
 * hits: what the count, print and stack actions counted at this site;
 * fired: how many times "fire" ran the name's probes (the same on each
 * line of the name), never counted in the hits. code: near-zero mode,
 * the bytes at the patchable location of each copy of the site's code (a
 * NOP while disarmed); portable mode, the jump target (over or call).
 * symbol: each copy's kprobe symbol. Copies are comma-separated, in the
 * same order in both columns. kind: call (MARK()) or inline
 * (MARK_INLINE(), which the action inline arms). consumers: the probes
 * column by kind of consumer (typed or generic probe of a module, the
 * registry's action, the trace event's probe). Each consumer's own count
 * is in the probes file.
 */
static void marker_list_site(const struct marker_rec *rec, void *priv)
{
	const struct marker_site *site = rec->site;
	struct marker_funcs *funcs = __marker_site_funcs(site);
	struct seq_file *m = priv;

	seq_printf(m, "%s %s %s %s %u %ld %lu %s ", site->name,
		   module_name(rec->mod),
		   site->mode == MARKER_MODE_NEARZERO ? "near-zero" : "portable",
		   marker_site_state(rec), funcs ? funcs->nr : 0,
		   atomic_long_read(&rec->hits), rec->entry->fired,
		   *site->sig ? site->sig : "-");
	if (site->mode == MARKER_MODE_NEARZERO)
		marker_site_show_locs(rec, m, false);
	else
		seq_puts(m, READ_ONCE(site->jump) == MARKER_JUMP_OVER ?
			 "over" : "call");
	seq_putc(m, ' ');
	marker_site_show_locs(rec, m, true);
	seq_printf(m, " %s ", site->kind == MARKER_KIND_INLINE ?
		   "inline" : "call");
	marker_site_show_consumers(site, m);
	/* non-printable bytes escaped: one line a site */
	seq_printf(m, " \"%*pE\"\n", (int)strlen(site->format), site->format);
}

static int marker_list_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# name module mode state probes hits fired signature code symbol kind consumers format\n");
	marker_walk_sites(marker_list_site, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_list);

/* One line of the probes file: @probe and the number of sites it runs at. */
static void marker_probe_show(const struct marker_probe *probe, void *priv)
{
	char func[KSYM_SYMBOL_LEN];
	struct seq_file *m = priv;
	/* "*": a generic probe that takes any signature; "-": no argument */
	const char *sig = !probe->sig ? "*" : *probe->sig ? probe->sig : "-";

	/* the name alone: %ps appends " [module]" */
	snprintf(func, sizeof(func), "%ps", probe->func);
	func[strcspn(func, " ")] = '\0';
	seq_printf(m, "%s %s %s %s %s %u %lu", probe->marker, func,
		   module_name(probe->owner), sig,
		   marker_consumer_kind(probe->func, probe->generic),
		   marker_probe_sites(probe), marker_probe_hits(probe));
	/* as written, non-printable bytes escaped: one line a probe */
	if (probe->pred)
		seq_printf(m, " if %*pE",
			   (int)strlen(marker_pred_text(probe->pred)),
			   marker_pred_text(probe->pred));
	seq_putc(m, '\n');
}

/*
 * One line per registered probe, every consumer of the markers:
 *   marker function module signature kind sites hits [if PREDICATE]
 * marker: a name, or a glob pattern; signature: * for a generic probe;
 * kind: typed, generic, action or event (marker_consumer_kind());
 * sites: the number of sites it is connected to, 0 while it is pending;
 * hits: the calls of this probe by the sites since it was registered, on
 * every site it reached (a pattern's: on every marker it matches), not
 * counting "fire"; with a predicate, the calls it let through. The
 * predicate, as given, ends the line.
 */
static int marker_probes_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# marker function module signature kind sites hits\n");
	marker_walk_probes(marker_probe_show, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_probes);

/*
 * One line per offered probe:
 *   name marker module signature state
 * state: offered, or connected (its module pinned).
 */
static int marker_offers_file_show(struct seq_file *m, void *v)
{
	seq_puts(m, "# name marker module signature state\n");
	marker_offers_show(m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_offers_file);

/* "name value" lines, counted since the registry loaded. */
static int marker_stats_show(struct seq_file *m, void *v)
{
	struct marker_stats stats;

	marker_stats_read(&stats);
	seq_printf(m, "key_updates %lu\njump_updates %lu\ncall_updates %lu\ngrace_periods %lu\n",
		   stats.key_updates, stats.jump_updates, stats.call_updates,
		   stats.grace_periods);
	seq_printf(m, "sites_section %lu\nsites_symtab %lu\n",
		   stats.sites_section, stats.sites_symtab);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_stats);

/* The longest command the control file takes, with its newline. */
#define MARKER_CONTROL_MAX	255

/*
 * A marker enabled through the control file: a built-in action attached
 * to a pattern, with its predicate if it has one. marker_control_mutex
 * protects marker_controls and nests outside marker_mutex.
 */
struct marker_control {
	struct list_head list;
	struct marker_probe *probe;	/* marker_action_attach()'s */
};

static DEFINE_MUTEX(marker_control_mutex);
static LIST_HEAD(marker_controls);

static int marker_control_enable(const char *pattern, const char *action,
				 const char *filter)
{
	marker_generic_fn fn = marker_action(action);
	struct marker_control *c;

	lockdep_assert_held(&marker_control_mutex);
	if (!fn) {
		pr_err("control: unknown action '%s': " MARKER_ACTION_NAMES "\n",
		       action);
		return -EINVAL;
	}
	list_for_each_entry(c, &marker_controls, list) {
		if (!strcmp(c->probe->marker, pattern)) {
			pr_err("control: %s is already enabled\n", pattern);
			return -EEXIST;
		}
	}
	if (!marker_pattern_has_sites(pattern, fn)) {
		pr_err("control: no loaded marker %smatches %s\n",
		       marker_is_glob(pattern) ?
		       (marker_action_inline(fn) ? "of kind inline " :
						     "of kind call ") : "",
		       pattern);
		return -ENOENT;
	}

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->probe = marker_action_attach(pattern, fn, c, filter);
	if (IS_ERR(c->probe)) {
		int ret = PTR_ERR(c->probe);

		kfree(c);
		return ret;
	}
	list_add_tail(&c->list, &marker_controls);
	return 0;
}

static int marker_control_disable(const char *pattern)
{
	struct marker_control *c;

	lockdep_assert_held(&marker_control_mutex);
	list_for_each_entry(c, &marker_controls, list) {
		if (strcmp(c->probe->marker, pattern))
			continue;
		list_del(&c->list);
		marker_action_detach(c->probe);	/* waits for a grace period */
		kfree(c);
		return 0;
	}
	pr_err("control: %s is not enabled\n", pattern);
	return -ENOENT;
}

/* The next blank-separated word of *@p, or NULL. */
static char *marker_next_word(char **p)
{
	char *word = skip_spaces(*p);

	if (!*word)
		return NULL;
	*p = word;
	while (**p && !isspace(**p))
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return word;
}

/* connect NAME, disconnect NAME: an offered probe (marker_offer.c) */
static int marker_control_offer(const char *cmd, const char *name)
{
	if (!marker_valid_name(name) || marker_is_glob(name)) {
		pr_err("control: '%*pE' is not a probe function's name\n",
		       (int)strlen(name), name);
		return -EINVAL;
	}
	if (!strcmp(cmd, "connect"))
		return marker_offer_connect(name);
	return marker_offer_disconnect(name);
}

/*
 * One command a write:
 *   enable PATTERN [count|print|stack|inline] [if PREDICATE]
 *   disable PATTERN
 *   connect NAME
 *   disconnect NAME
 *   fire NAME [ARG...]
 */
static ssize_t marker_control_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[MARKER_CONTROL_MAX + 1], *p = buf, *cmd, *pattern, *action;
	char *filter = NULL;
	int ret;

	if (count > MARKER_CONTROL_MAX) {
		pr_err("control: command of %zu bytes, longer than %d\n", count,
		       MARKER_CONTROL_MAX);
		return -E2BIG;
	}
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';

	cmd = marker_next_word(&p);
	pattern = cmd ? marker_next_word(&p) : NULL;
	/* the probes get pointers to fire's strings: in buf, until it returns */
	if (pattern && !strcmp(cmd, "fire")) {
		ret = marker_fire_command(pattern, p);
		return ret ?: count;
	}
	action = pattern ? marker_next_word(&p) : NULL;
	/* enable PATTERN [ACTION] if PREDICATE: the rest of the line */
	if (action && !strcmp(cmd, "enable")) {
		if (strcmp(action, "if")) {
			char *word = p;

			if (!strcmp(marker_next_word(&word) ?: "", "if"))
				p = word;
			else
				word = NULL;
			filter = word;
		} else {
			action = NULL;
			filter = p;
		}
		if (filter) {
			filter = strim(filter);
			if (!*filter) {
				pr_err("control: enable %s: 'if' without a predicate\n",
				       pattern);
				return -EINVAL;
			}
			p = filter + strlen(filter);
		}
	}
	if (!cmd || !pattern || (action && marker_next_word(&p)) ||
	    (strcmp(cmd, "enable") && (strcmp(cmd, "disable") || action) &&
	     (strcmp(cmd, "connect") || action) &&
	     (strcmp(cmd, "disconnect") || action))) {
		pr_err("control: commands are 'enable PATTERN [ACTION] [if PREDICATE]', 'disable PATTERN', 'connect PROBE', 'disconnect PROBE' and 'fire NAME [ARG...]'\n");
		return -EINVAL;
	}
	if (!strcmp(cmd, "connect") || !strcmp(cmd, "disconnect")) {
		ret = marker_control_offer(cmd, pattern);
		return ret ?: count;
	}
	if (!marker_valid_name(pattern)) {
		pr_err("control: '%*pE' is not a marker name or glob pattern\n",
		       (int)strlen(pattern), pattern);
		return -EINVAL;
	}

	mutex_lock(&marker_control_mutex);
	if (!strcmp(cmd, "enable"))
		ret = marker_control_enable(pattern, action ?: "count", filter);
	else
		ret = marker_control_disable(pattern);
	mutex_unlock(&marker_control_mutex);
	return ret ?: count;
}

static const struct file_operations marker_control_fops = {
	.owner	= THIS_MODULE,
	.write	= marker_control_write,
};

void marker_debugfs_init(void)
{
	marker_debugfs = debugfs_create_dir("markers", NULL);
	debugfs_create_file("list", 0400, marker_debugfs, NULL, &marker_list_fops);
	debugfs_create_file("probes", 0400, marker_debugfs, NULL,
			    &marker_probes_fops);
	debugfs_create_file("control", 0200, marker_debugfs, NULL,
			    &marker_control_fops);
	debugfs_create_file("stats", 0400, marker_debugfs, NULL,
			    &marker_stats_fops);
	debugfs_create_file("offers", 0400, marker_debugfs, NULL,
			    &marker_offers_file_fops);
}

void marker_debugfs_exit(void)
{
	struct marker_control *c, *tmp;
	unsigned int n = 0;

	/* waits for the writers in progress: none can come after */
	debugfs_remove_recursive(marker_debugfs);
	/*
	 * Each enabled marker holds a reference on the registry, so none is
	 * left here unless "rmmod -f" forced the unload past it
	 * (CONFIG_MODULE_FORCE_UNLOAD, which Debian sets). Disable them: their
	 * sites would call this module's actions once it is freed.
	 */
	mutex_lock(&marker_control_mutex);
	list_for_each_entry_safe(c, tmp, &marker_controls, list) {
		list_del(&c->list);
		marker_action_detach(c->probe);	/* waits for a grace period */
		kfree(c);
		n++;
	}
	mutex_unlock(&marker_control_mutex);
	if (n)
		pr_warn("forced unload: disabled the %u markers enabled through the control file\n",
			n);
}
