// SPDX-License-Identifier: GPL-2.0-only
/*
 * Offered probes: the probe-module model of the 2006 design, where the
 * registry, not the probe module, connects a probe and pins its module
 * while it is connected.
 *
 * A probe module offers its probes in init (marker_probe_offer()) and
 * withdraws them in exit; nothing is connected. The control file
 * ("connect NAME"), markerctl and the loader (probes=) connect an offered
 * probe, by its function's name, to the marker it was written for: the
 * registry then holds a reference on its module, so that "rmmod" of it is
 * refused (-EBUSY) until it is disconnected, and drops it after the grace
 * period that marker_probe_unregister() waits for.
 *
 * The registry keeps its own record of each offer: the probe module's
 * struct marker_probe is the same as for a probe it registers itself.
 */
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker-internal.h"

/**
 * struct marker_offer - the registry's record of an offered probe
 * @list: link in marker_offers
 * @probe: the probe, as its module declared it
 * @connected: registered by marker_offer_connect(), holding a reference
 *	on @probe->owner
 * @name: the probe function's name, by which it is connected
 */
struct marker_offer {
	struct list_head list;
	struct marker_probe *probe;
	bool connected;
	char name[];
};

/*
 * marker_offer_mutex protects marker_offers and every offer's @connected;
 * it nests outside marker_mutex (marker_probe_register() takes it).
 */
static DEFINE_MUTEX(marker_offer_mutex);
static LIST_HEAD(marker_offers);

static struct marker_offer *marker_offer_find(const char *name)
{
	struct marker_offer *o;

	lockdep_assert_held(&marker_offer_mutex);
	list_for_each_entry(o, &marker_offers, list)
		if (!strcmp(o->name, name))
			return o;
	return NULL;
}

/**
 * marker_probe_offer() - make a probe available to connect by name
 * @probe: declared with MARKER_PROBE() or MARKER_PROBE_GENERIC() (a generic
 *	probe's marker may be a glob pattern); it must stay allocated until
 *	marker_probe_withdraw()
 *
 * Connects nothing. The control file's "connect NAME", "markerctl connect
 * NAME" and the loader's probes=NAME connect @probe to @probe->marker,
 * where NAME is the name of @probe->func, and pin @probe->owner while it
 * is connected. Call it from the probe module's init; withdraw in exit.
 *
 * Context: process context, may sleep (takes marker_offer_mutex).
 * Return: 0; -EINVAL for a malformed probe (no marker name, function or
 * owner, or a name that is neither an identifier nor a pattern); -EEXIST
 * when a probe function of that name is already offered; -ENOMEM.
 */
int marker_probe_offer(struct marker_probe *probe)
{
	char name[KSYM_SYMBOL_LEN];
	struct marker_offer *o;
	int ret = 0;

	if (!probe->marker || !probe->func || !probe->owner ||
	    (!probe->generic && !probe->sig) ||
	    !marker_valid_name(probe->marker)) {
		pr_err("refusing to offer probe %ps: no owner, or a bad marker name, function or signature\n",
		       probe->func);
		return -EINVAL;
	}
	/* the name alone: %ps appends " [module]" */
	snprintf(name, sizeof(name), "%ps", probe->func);
	name[strcspn(name, " ")] = '\0';

	o = kzalloc(struct_size(o, name, strlen(name) + 1), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	o->probe = probe;
	strscpy(o->name, name, strlen(name) + 1);

	mutex_lock(&marker_offer_mutex);
	if (marker_offer_find(name)) {
		pr_err("probe %s [%s] is already offered\n", name,
		       module_name(probe->owner));
		ret = -EEXIST;
		kfree(o);
	} else {
		list_add_tail(&o->list, &marker_offers);
	}
	mutex_unlock(&marker_offer_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_probe_offer);

/* Disconnect @o if connected and forget it. */
static void marker_offer_remove(struct marker_offer *o)
{
	lockdep_assert_held(&marker_offer_mutex);
	if (o->connected) {
		/* only when "rmmod -f" forced its module out */
		marker_probe_unregister(o->probe);
		module_put(o->probe->owner);
	}
	list_del(&o->list);
	kfree(o);
}

/**
 * marker_probe_withdraw() - take back an offered probe
 * @probe: a probe given to marker_probe_offer(); withdrawing one that is
 *	not offered warns once and does nothing
 *
 * Its module cannot go while the probe is connected (the registry pins
 * it), so @probe is normally disconnected already; if its module was
 * forced out ("rmmod -f"), it is disconnected here, with a grace period.
 * Never fails.
 *
 * Context: process context, may sleep (takes marker_offer_mutex).
 */
void marker_probe_withdraw(struct marker_probe *probe)
{
	struct marker_offer *o;

	mutex_lock(&marker_offer_mutex);
	list_for_each_entry(o, &marker_offers, list) {
		if (o->probe == probe) {
			marker_offer_remove(o);
			mutex_unlock(&marker_offer_mutex);
			return;
		}
	}
	mutex_unlock(&marker_offer_mutex);
	WARN_ON_ONCE(1);
}
EXPORT_SYMBOL_GPL(marker_probe_withdraw);

/**
 * marker_offer_connect() - connect an offered probe, pinning its module
 * @name: the offered probe function's name
 *
 * Registers the probe with marker_probe_register(), with all its checks,
 * while holding a reference on the probe's module.
 *
 * Context: process context, may sleep.
 * Return: 0; -ENOENT when no probe of that name is offered; -EEXIST when it
 * is connected already; -ENODEV when its module is going; or what
 * marker_probe_register() returns (nothing is pinned then).
 */
int marker_offer_connect(const char *name)
{
	struct marker_offer *o;
	int ret;

	mutex_lock(&marker_offer_mutex);
	o = marker_offer_find(name);
	if (!o) {
		pr_err("no offered probe is named %s\n", name);
		ret = -ENOENT;
		goto unlock;
	}
	if (o->connected) {
		pr_err("probe %s is already connected\n", name);
		ret = -EEXIST;
		goto unlock;
	}
	if (!try_module_get(o->probe->owner)) {
		pr_err("probe %s: its module %s is going\n", name,
		       module_name(o->probe->owner));
		ret = -ENODEV;
		goto unlock;
	}
	ret = marker_probe_register(o->probe);
	if (ret)
		goto put_module;
	o->connected = true;
	mutex_unlock(&marker_offer_mutex);
	return 0;

put_module:
	module_put(o->probe->owner);
unlock:
	mutex_unlock(&marker_offer_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_offer_connect);

/**
 * marker_offer_disconnect() - disconnect an offered probe, release its module
 * @name: the offered probe function's name
 *
 * Unregisters the probe, which waits for a grace period, then drops the
 * reference on its module: once this returns, no CPU runs the probe and
 * its module may go.
 *
 * Context: process context, may sleep.
 * Return: 0; -ENOENT when no probe of that name is offered and connected.
 */
int marker_offer_disconnect(const char *name)
{
	struct marker_offer *o;
	int ret = 0;

	mutex_lock(&marker_offer_mutex);
	o = marker_offer_find(name);
	if (!o || !o->connected) {
		pr_err("no connected probe is named %s\n", name);
		ret = -ENOENT;
	} else {
		marker_probe_unregister(o->probe);	/* waits for a grace period */
		o->connected = false;
		module_put(o->probe->owner);
	}
	mutex_unlock(&marker_offer_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(marker_offer_disconnect);

/*
 * A module that goes without withdrawing its offers (the GOING
 * notification, before the module's memory is freed): forget them, and
 * say so. None is connected, or the module could not be going, unless
 * "rmmod -f" forced it.
 */
void marker_offers_forget(struct module *mod)
{
	struct marker_offer *o, *tmp;

	mutex_lock(&marker_offer_mutex);
	list_for_each_entry_safe(o, tmp, &marker_offers, list) {
		if (o->probe->owner != mod)
			continue;
		pr_warn("%s: module %s went without withdrawing its probe\n",
			o->name, module_name(mod));
		marker_offer_remove(o);
	}
	mutex_unlock(&marker_offer_mutex);
}

/* One line per offer: "name marker module signature state". */
void marker_offers_show(struct seq_file *m)
{
	struct marker_offer *o;

	mutex_lock(&marker_offer_mutex);
	list_for_each_entry(o, &marker_offers, list)
		seq_printf(m, "%s %s %s %s %s\n", o->name, o->probe->marker,
			   module_name(o->probe->owner),
			   o->probe->generic ? "*" :
			   *o->probe->sig ? o->probe->sig : "-",
			   o->connected ? "connected" : "offered");
	mutex_unlock(&marker_offer_mutex);
}
