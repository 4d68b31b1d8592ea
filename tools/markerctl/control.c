// SPDX-License-Identifier: GPL-2.0-only
/*
 * control.c - markerctl enable, disable, connect and disconnect: one
 * command per write(2) to the registry's control file, through
 * control_send(), which fire and fuzz use too.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "markerctl.h"

static const char *control_hint(const char *verb, int err)
{
	bool offer = !strcmp(verb, "connect") || !strcmp(verb, "disconnect");

	if (!strcmp(verb, "fire")) {
		switch (err) {
		case ENOENT:
			return "no site of that marker is loaded";
		case EINVAL:
			return "not a marker's name, or not its arguments";
		case ERANGE:
			return "an integer out of its type's range";
		case E2BIG:
			return "command longer than 255 bytes";
		default:
			return NULL;
		}
	}
	if (offer) {
		switch (err) {
		case ENOENT:
			if (strcmp(verb, "connect"))
				return "not connected";
			return "no probe of that name is offered (see offers)";
		case EEXIST:
			return "already connected";
		case ENODEV:
			return "its module is going";
		case EINVAL:
			return "not a probe's name, or its signature does not match";
		case EBUSY:
			return "a site is not at its defaults";
		default:
			return NULL;
		}
	}
	switch (err) {
	case ENOENT:
		return strcmp(verb, "enable") ? "not enabled (name the PATTERN as enabled)" :
						"no loaded marker matches";
	case EEXIST:
		return "already enabled";
	case E2BIG:
		return "command longer than 255 bytes";
	case EINVAL:
		return "the kernel did not understand the command";
	default:
		return NULL;
	}
}

/* "PATTERN" is a marker name or a glob: one word, never empty. */
bool valid_pattern(const char *pattern)
{
	return *pattern && !pattern[strcspn(pattern, " \t\n\r\f\v")];
}

/*
 * control_send() - write the command @buf to the control file in one
 * write(2), the kernel parsing each write on its own; @verb and @what name
 * it in the messages.
 */
int control_send(const char *verb, const char *what, const char *buf)
{
	char path[PATH_MAX];
	const char *hint;
	ssize_t n;
	int fd, ret, err;

	ret = mc_debugfs(path, MC_CONTROL);
	if (ret)
		return ret;
	/* debugfs files are never symbolic links: follow none */
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		mc_err("%s: cannot open %s: %s", verb, path, strerror(errno));
		return MC_EXIT_KERNEL;
	}
	n = write(fd, buf, strlen(buf));
	err = errno;
	close(fd);
	if (n < 0) {
		hint = control_hint(verb, err);
		mc_err("%s %s: %s%s%s (see dmesg)", verb, what, strerror(err),
		       hint ? ": " : "", hint ? hint : "");
		return MC_EXIT_KERNEL;
	}
	if ((size_t)n != strlen(buf)) {
		mc_err("%s %s: short write to %s (%zd of %zu bytes)", verb,
		       what, path, n, strlen(buf));
		return MC_EXIT_KERNEL;
	}
	return MC_EXIT_OK;
}

static int control_write(const char *verb, const char *pattern,
			 const char *action)
{
	size_t size;
	char *buf;
	int ret;

	size = strlen(verb) + strlen(pattern) + (action ? strlen(action) : 0) + 3;
	buf = malloc(size);
	if (!buf) {
		mc_err("%s: %s", verb, strerror(ENOMEM));
		return MC_EXIT_KERNEL;
	}
	if (action)
		snprintf(buf, size, "%s %s %s", verb, pattern, action);
	else
		snprintf(buf, size, "%s %s", verb, pattern);
	ret = control_send(verb, pattern, buf);
	free(buf);
	return ret;
}

int cmd_enable(const struct mc_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "action", required_argument, NULL, 'a' },
		{ "if", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *action = NULL, *filter = NULL;
	char *tail = NULL;
	size_t size;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":a:i:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			action = optarg;
			break;
		case 'i':
			filter = optarg;
			break;
		default:
			return help_or_bad_option(cmd, c, argv);
		}
	}
	if (argc - optind != 1)
		return usage_error(cmd, "expected one NAME or GLOB");
	if (!valid_pattern(argv[optind]))
		return usage_error(cmd, "NAME or GLOB must be one non-empty word");
	if (action && strcmp(action, "count") && strcmp(action, "print") &&
	    strcmp(action, "stack") && strcmp(action, "inline"))
		return usage_error(cmd, "ACTION is count, print, stack or inline");
	if (filter && (!filter[strspn(filter, " \t")] || strpbrk(filter, "\n\r")))
		return usage_error(cmd, "PREDICATE must be one line, not empty");

	ret = need_root_registry(cmd->name);
	/* "enable PATTERN ACTION if PREDICATE": the action said, then */
	if (!ret && filter) {
		if (!action)
			action = "count";
		size = strlen(action) + strlen(" if ") + strlen(filter) + 1;
		tail = malloc(size);
		if (!tail) {
			mc_err("%s: %s", cmd->name, strerror(ENOMEM));
			return MC_EXIT_KERNEL;
		}
		snprintf(tail, size, "%s if %s", action, filter);
	}
	if (!ret)
		ret = control_write("enable", argv[optind], tail ? tail : action);
	free(tail);
	return ret;
}

/*
 * disable, connect, disconnect: the command's name is the control verb, and
 * its one operand, WHAT, is a marker NAME or GLOB, or an offered PROBE.
 */
static int control_one(const struct mc_cmd *cmd, int argc, char **argv,
		       const char *what)
{
	char why[64];
	int c, ret;

	c = getopt_long(argc, argv, ":h", help_only, NULL);
	if (c != -1)
		return help_or_bad_option(cmd, c, argv);
	if (argc - optind != 1 || !valid_pattern(argv[optind])) {
		snprintf(why, sizeof(why), "expected one %s, one non-empty word",
			 what);
		return usage_error(cmd, why);
	}

	ret = need_root_registry(cmd->name);
	if (!ret)
		ret = control_write(cmd->name, argv[optind], NULL);
	return ret;
}

int cmd_disable(const struct mc_cmd *cmd, int argc, char **argv)
{
	return control_one(cmd, argc, argv, "NAME or GLOB");
}

/* connect, disconnect: an offered probe, by its function's name */
int cmd_connect(const struct mc_cmd *cmd, int argc, char **argv)
{
	return control_one(cmd, argc, argv, "PROBE");
}
