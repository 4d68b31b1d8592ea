// SPDX-License-Identifier: GPL-2.0-only
/*
 * watch.c - markerctl watch: copy the "markers" ftrace instance's
 * trace_pipe, what the print and stack actions record, to stdout.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "markerctl.h"

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

int cmd_watch(const struct mc_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long count = 0, lines = 0;
	char path[PATH_MAX], buf[4096];
	bool counted = false;
	int c, fd, ret, err;

	while ((c = getopt_long(argc, argv, ":c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!parse_count(optarg, &count) || !count)
				return usage_error(cmd, "N is a positive number");
			counted = true;
			break;
		default:
			return help_or_bad_option(cmd, c, argv);
		}
	}
	if (optind != argc)
		return usage_error(cmd, "too many arguments");

	ret = need_root_registry(cmd->name);
	if (!ret)
		ret = mc_path(path, sizeof(path), "MARKERS_TRACEFS",
			      "/sys/kernel/tracing", MC_TRACE_PIPE);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		mc_err("watch: cannot open %s: %s", path, strerror(errno));
		return MC_EXIT_KERNEL;
	}
	for (;;) {
		/*
		 * Reading consumes: with --count, read a byte at a time so
		 * that the lines after the Nth stay in the pipe.
		 */
		ssize_t n = read(fd, buf, counted ? 1 : sizeof(buf));
		size_t len;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			mc_err("watch: cannot read %s: %s", path, strerror(errno));
			ret = MC_EXIT_KERNEL;
			break;
		}
		if (!n)		/* only a regular file, in tests, ends */
			break;
		for (len = 0; len < (size_t)n;)
			if (buf[len++] == '\n' && counted && ++lines == count)
				break;
		err = write_all(STDOUT_FILENO, buf, len);
		if (err) {
			mc_err("watch: stdout: %s", strerror(-err));
			ret = MC_EXIT_KERNEL;
			break;
		}
		if (counted && lines == count)
			break;
	}
	close(fd);
	return ret;
}
