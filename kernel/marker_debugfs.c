// SPDX-License-Identifier: GPL-2.0-only
/*
 * The registry's debugfs files, under /sys/kernel/debug/markers/ (root
 * only). Their formats are documented in Documentation/markers.rst.
 */
#include <linux/debugfs.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "marker-internal.h"

static struct dentry *marker_debugfs;

/*
 * One line per site:
 *   name module mode state probes signature code "format"
 * code: near-zero mode, the bytes at each patched location (a NOP while
 * disarmed); portable mode, the jump target (over or call).
 */
static int marker_list_show(struct seq_file *m, void *v)
{
	struct marker_entry *e;
	struct marker_site *site;

	seq_puts(m, "# name module mode state probes signature code format\n");
	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list) {
		list_for_each_entry(site, &e->sites, node) {
			struct marker_funcs *funcs = __marker_site_funcs(site);

			seq_printf(m, "%s %s %s %s %u %s ", site->name,
				   module_name(site->mod),
				   site->mode == MARKER_MODE_NEARZERO ?
					"near-zero" : "portable",
				   __marker_site_state(site),
				   funcs ? funcs->nr : 0,
				   *site->sig ? site->sig : "-");
			if (site->mode == MARKER_MODE_NEARZERO)
				__marker_site_code(site, m);
			else
				seq_puts(m, READ_ONCE(site->jump) == MARKER_JUMP_OVER ?
					 "over" : "call");
			seq_printf(m, " \"%s\"\n", site->format);
		}
	}
	mutex_unlock(&marker_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_list);

/*
 * One line per registered probe:
 *   marker function module signature sites
 * sites: the number of sites it is connected to; 0 means pending.
 */
static int marker_probes_show(struct seq_file *m, void *v)
{
	struct marker_probe *probe;
	struct marker_site *site;
	struct marker_entry *e;

	seq_puts(m, "# marker function module signature sites\n");
	mutex_lock(&marker_mutex);
	list_for_each_entry(e, &marker_entries, list) {
		list_for_each_entry(probe, &e->probes, node) {
			char func[KSYM_SYMBOL_LEN];
			unsigned int nr = 0;

			list_for_each_entry(site, &e->sites, node)
				nr += __marker_funcs_has(__marker_site_funcs(site), probe);
			/* the name alone: %ps appends " [module]" */
			snprintf(func, sizeof(func), "%ps", probe->func);
			func[strcspn(func, " ")] = '\0';
			seq_printf(m, "%s %s %s %s %u\n", e->name, func,
				   module_name(probe->owner),
				   probe->generic ? "*" :
					*probe->sig ? probe->sig : "-", nr);
		}
	}
	mutex_unlock(&marker_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(marker_probes);

void marker_debugfs_init(void)
{
	marker_debugfs = debugfs_create_dir("markers", NULL);
	debugfs_create_file("list", 0400, marker_debugfs, NULL, &marker_list_fops);
	debugfs_create_file("probes", 0400, marker_debugfs, NULL,
			    &marker_probes_fops);
}

void marker_debugfs_exit(void)
{
	debugfs_remove_recursive(marker_debugfs);
}
