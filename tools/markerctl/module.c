// SPDX-License-Identifier: GPL-2.0-only
/*
 * module.c - markerctl load and unload: probe modules (and marker.ko), as
 * insmod and rmmod do, through libkmod.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>

#include <libkmod.h>

#include "markerctl.h"

static struct kmod_ctx *mc_kmod_new(const char *cmd)
{
	struct kmod_ctx *ctx = kmod_new(NULL, NULL);

	if (!ctx) {
		mc_err("%s: cannot initialise libkmod", cmd);
		return NULL;
	}
	/* We report errors ourselves; KMOD_LOG=debug shows libkmod's. */
	if (!getenv("KMOD_LOG"))
		kmod_set_log_priority(ctx, LOG_CRIT);
	return ctx;
}

/* "param=value..." as one space-separated options string */
static char *join_params(int argc, char **argv)
{
	size_t size = 1;
	char *opts;
	int i;

	for (i = 0; i < argc; i++)
		size += strlen(argv[i]) + 1;
	opts = malloc(size);
	if (!opts)
		return NULL;
	opts[0] = '\0';
	for (i = 0; i < argc; i++) {
		if (i)
			strcat(opts, " ");
		strcat(opts, argv[i]);
	}
	return opts;
}

int cmd_load(const struct mc_cmd *cmd, int argc, char **argv)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	const char *path;
	char *opts;
	struct stat st;
	int c, ret, err;

	c = getopt_long(argc, argv, "+:h", help_only, NULL);
	if (c != -1)
		return help_or_bad_option(cmd, c, argv);
	if (argc - optind < 1)
		return usage_error(cmd, "expected PROBE.ko");
	path = argv[optind];

	ret = need_root(cmd->name);
	if (ret)
		return ret;
	if (stat(path, &st)) {
		mc_err("load: %s: %s", path, strerror(errno));
		return MC_EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		mc_err("load: %s: not a regular file", path);
		return MC_EXIT_USAGE;
	}
	opts = join_params(argc - optind - 1, argv + optind + 1);
	ctx = opts ? mc_kmod_new(cmd->name) : NULL;
	if (!ctx) {
		free(opts);
		return MC_EXIT_KERNEL;
	}
	err = kmod_module_new_from_path(ctx, path, &mod);
	if (err < 0) {
		mc_err("load: %s: %s", path, strerror(-err));
		ret = MC_EXIT_KERNEL;
		goto out_ctx;
	}
	/* Probes need the registry's symbols; the registry itself does not. */
	if (strcmp(kmod_module_get_name(mod), MC_REGISTRY)) {
		ret = need_registry(cmd->name);
		if (ret)
			goto out_mod;
	}
	err = kmod_module_insert_module(mod, 0, opts);
	if (err < 0) {
		mc_err("load %s: %s%s (see dmesg)", path, strerror(-err),
		       err == -EEXIST ? ": module already loaded" : "");
		ret = MC_EXIT_KERNEL;
	}
out_mod:
	kmod_module_unref(mod);
out_ctx:
	kmod_unref(ctx);
	free(opts);
	return ret;
}

int cmd_unload(const struct mc_cmd *cmd, int argc, char **argv)
{
	char name[NAME_MAX + 1], *dot;
	struct kmod_module *mod;
	struct kmod_ctx *ctx;
	const char *base;
	int c, ret, err;

	c = getopt_long(argc, argv, ":h", help_only, NULL);
	if (c != -1)
		return help_or_bad_option(cmd, c, argv);
	if (argc - optind != 1)
		return usage_error(cmd, "expected one module name");

	/* Accept "probe_example", "probe_example.ko" and a path to it. */
	base = strrchr(argv[optind], '/');
	base = base ? base + 1 : argv[optind];
	if (!*base || strlen(base) >= sizeof(name))
		return usage_error(cmd, "bad module name");
	snprintf(name, sizeof(name), "%s", base);
	dot = strrchr(name, '.');
	if (dot && !strcmp(dot, ".ko"))
		*dot = '\0';

	ret = need_root(cmd->name);
	if (ret)
		return ret;
	ctx = mc_kmod_new(cmd->name);
	if (!ctx)
		return MC_EXIT_KERNEL;
	err = kmod_module_new_from_name(ctx, name, &mod);
	if (err < 0) {
		mc_err("unload %s: %s", name, strerror(-err));
		kmod_unref(ctx);
		return MC_EXIT_KERNEL;
	}
	err = kmod_module_remove_module(mod, KMOD_REMOVE_NOWAIT);
	if (err < 0) {
		mc_err("unload %s: %s%s", name, strerror(-err),
		       err == -ENOENT ? ": module not loaded" :
		       err == -EAGAIN || err == -EBUSY ? ": module in use" : "");
		ret = MC_EXIT_KERNEL;
	}
	kmod_module_unref(mod);
	kmod_unref(ctx);
	return ret;
}
