// SPDX-License-Identifier: GPL-2.0-only
/*
 * markerctl - control the static markers registry from user space.
 *
 *	markerctl list [--json]
 *	markerctl enable NAME|GLOB [--action count|print|stack|inline]
 *		[--if PREDICATE]
 *	markerctl disable NAME|GLOB
 *	markerctl load PROBE.ko [param=value...]
 *	markerctl unload PROBE
 *	markerctl watch [--count N]
 *	markerctl fire NAME [ARG...]
 *	markerctl fuzz NAME [--count N] [--seed S]
 *
 * It reads the registry's debugfs files, writes its control file, streams
 * the "markers" ftrace instance and loads probe modules with libkmod. The
 * formats, the rules and the exit codes are in
 * Documentation/markers-admin.rst.
 *
 * Built for tests (make markerctl-test, -DMC_TEST_PATHS), MARKERS_DEBUGFS,
 * MARKERS_TRACEFS and MARKERS_SYSFS replace /sys/kernel/debug,
 * /sys/kernel/tracing and /sys; markerctl itself reads only those.
 *
 * This file has main(), the commands' table and the helpers they share;
 * each command's code is in its own file (markerctl.h says which).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "markerctl.h"

static const char *progname = "markerctl";

/*
 * mc_path() - @rel under @dflt or, in the test build, under the directory
 * that @env names if it is set.
 * Return: 0, or MC_EXIT_USAGE if the path does not fit in @buf.
 */
int mc_path(char *buf, size_t size, const char *env, const char *dflt,
	    const char *rel)
{
#ifdef MC_TEST_PATHS
	const char *dir = getenv(env);
#else
	const char *dir = NULL;
#endif
	int len;

	if (!dir || !*dir)
		dir = dflt;
	len = snprintf(buf, size, "%s/%s", dir, rel);
	if (len < 0 || (size_t)len >= size) {
		mc_err("%s: path too long", env);
		return MC_EXIT_USAGE;
	}
	return 0;
}

int mc_debugfs(char *buf, const char *rel)
{
	return mc_path(buf, PATH_MAX, "MARKERS_DEBUGFS", "/sys/kernel/debug", rel);
}

/* Every command but --help talks to root-only files or the module loader. */
int need_root(const char *cmd)
{
	if (geteuid() == 0)
		return 0;
	mc_err("%s: must be run as root", cmd);
	return MC_EXIT_NOT_ROOT;
}

/*
 * need_registry() - is marker.ko loaded, with its debugfs directory?
 * Return: 0, or MC_EXIT_NO_REGISTRY after saying which is missing.
 */
int need_registry(const char *cmd)
{
	char dir[PATH_MAX], mod[PATH_MAX];
	int ret;

	ret = mc_debugfs(dir, "markers");
	if (!ret)
		ret = mc_path(mod, sizeof(mod), "MARKERS_SYSFS", "/sys",
			      "module/" MC_REGISTRY);
	if (ret)
		return ret;
	if (!access(dir, F_OK))
		return 0;
	if (!access(mod, F_OK))
		mc_err("%s: %s.ko is loaded but %s is missing: is debugfs mounted?",
		       cmd, MC_REGISTRY, dir);
	else
		mc_err("%s: the registry is not loaded (load %s.ko first)",
		       cmd, MC_REGISTRY);
	return MC_EXIT_NO_REGISTRY;
}

/* need_root(), then need_registry(): what most commands check first */
int need_root_registry(const char *cmd)
{
	int ret = need_root(cmd);

	return ret ? ret : need_registry(cmd);
}

/*
 * Subcommand option parsing: getopt_long() on the subcommand's own argv
 * (argv[0] is its name), with our messages instead of getopt's.
 */
const struct option help_only[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int bad_option(const char *cmd, int c, char **argv)
{
	if (c == ':')
		mc_err("%s: option '%s' needs an argument", cmd, argv[optind - 1]);
	else
		mc_err("%s: unknown option '%s'", cmd, argv[optind - 1]);
	return MC_EXIT_USAGE;
}

int usage_error(const struct mc_cmd *cmd, const char *what)
{
	mc_err("%s: %s", cmd->name, what);
	fprintf(stderr, "Usage: %s %s\nTry '%s %s --help'.\n", progname,
		cmd->usage, progname, cmd->name);
	return MC_EXIT_USAGE;
}

static int print_help(const struct mc_cmd *cmd)
{
	printf("Usage: %s %s\n\n%s", progname, cmd->usage, cmd->help);
	return MC_EXIT_OK;
}

/* An option @c that getopt_long() returned and no case took: -h, or bad */
int help_or_bad_option(const struct mc_cmd *cmd, int c, char **argv)
{
	if (c == 'h')
		return print_help(cmd);
	return bad_option(cmd->name, c, argv);
}

/* A count: decimal digits only, no sign, that fit an unsigned long long */
bool parse_count(const char *s, unsigned long long *val)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*val = strtoull(s, &end, 10);
	return !errno && !*end;
}

static const struct mc_cmd commands[] = {
	{
		"list", cmd_list, "list [--json | -v]", "list every marker site",
		"List every marker site the registry knows, one per line: name,\n"
		"module, mode (near-zero or portable), state (disarmed, armed,\n"
		"busy or retrying), probes, hits, fired (the times \"fire\" ran its\n"
		"probes), signature (one character per argument, '-' for none),\n"
		"event, kind (call: MARK(); inline: MARK_INLINE(), which runs its\n"
		"own code), consumers (the connected probes by kind: typed,\n"
		"generic, action, event) and the quoted format, in aligned columns\n"
		"after a header line.\n\n"
		"  -v, --verbose\n"
		"            after each marker's sites, one line per consumer\n"
		"            connected to it: its kind, function, module, the\n"
		"            pattern it was enabled for, and its own hit count\n"
		"            (a pattern's: over every marker it matches)\n"
		"  --json    a JSON array instead: one object per site and per line,\n"
		"            with the fields above and \"code\"; probes, hits and\n"
		"            fired are numbers\n",
	},
	{
		"enable", cmd_enable,
		"enable NAME|GLOB [--action count|print|stack|inline] [--if PREDICATE]",
		"connect an action to markers",
		"Connect one of the registry's actions to every site of each marker\n"
		"that NAME, or the glob GLOB (* ? [...], quoted for the shell),\n"
		"matches, now or when its module loads. count, print and stack count\n"
		"hits (see list).\n\n"
		"  --action count   only count (the default)\n"
		"  --action print   record the marker's trace event, its name and\n"
		"                   formatted arguments, into the ftrace instance\n"
		"                   \"markers\" (see watch)\n"
		"  --action stack   print them with a stack trace\n"
		"  --action inline  arm inline markers (MARK_INLINE()): their\n"
		"                   sites run their own code; the only action\n"
		"                   they take, and a GLOB passes over the others\n"
		"  --if PREDICATE   run the action only on the hits where\n"
		"                   PREDICATE, on the marker's arguments, is\n"
		"                   true: 'arg1 > 3 && name == \"eth*\"' (fields\n"
		"                   argN or the names of the format, == != < <=\n"
		"                   > >=, && || ! and parentheses; a string with\n"
		"                   * ? [ is a glob)\n\n"
		"Exits 2 if no loaded marker matches, or NAME|GLOB is already\n"
		"enabled; the kernel log says why.\n",
	},
	{
		"disable", cmd_disable, "disable NAME|GLOB", "disconnect it",
		"Disconnect the action that \"enable NAME|GLOB\" connected: name\n"
		"the marker or the glob exactly as it was enabled. Exits 2 if it\n"
		"is not enabled.\n",
	},
	{
		"connect", cmd_connect, "connect PROBE", "connect an offered probe",
		"Connect the probe that a probe module offered (markers/offers),\n"
		"named by its function, to the marker it was written for. While it\n"
		"is connected, the registry holds a reference on its module, which\n"
		"cannot be unloaded. Exits 2 if no probe of that name is offered,\n"
		"it is connected already, or the registry refuses it (signature,\n"
		"a site not at its defaults); the kernel log says why.\n",
	},
	{
		"disconnect", cmd_connect, "disconnect PROBE", "disconnect it",
		"Disconnect the offered probe PROBE and, after a grace period,\n"
		"release its module. Exits 2 if it is not connected.\n",
	},
	{
		"load", cmd_load, "load PROBE.ko [param=value...]", "load a probe module",
		"Load the probe module PROBE.ko (a path) with the given module\n"
		"parameters, as insmod does, through libkmod. The registry must be\n"
		"loaded first; \"load marker.ko\" loads the registry itself.\n",
	},
	{
		"unload", cmd_unload, "unload PROBE", "unload a probe module",
		"Unload the module named PROBE (\"probe_example\"; a trailing .ko\n"
		"and a directory are ignored), as rmmod does, through libkmod.\n"
		"Does not need the registry.\n",
	},
	{
		"fire", cmd_fire, "fire NAME [ARG...]", "run a marker's probes by name",
		"Run what is connected to the marker NAME (probes, actions, its\n"
		"trace event) once, as if one of its sites had run, with the ARGs\n"
		"as its arguments: one per argument of its signature, integers in\n"
		"decimal, 0x hex or 0 octal, bool as 0/1/y/n, any string, and a\n"
		"pointer only as 0. Counted in the listing's FIRED column, never in\n"
		"HITS. Exits 2 if no site of NAME is loaded or an ARG does not fit\n"
		"its type; the kernel log says why.\n",
	},
	{
		"fuzz", cmd_fuzz, "fuzz NAME [--count N] [--seed S]",
		"fire a marker with random arguments",
		"Fire the marker NAME N times (100 by default) with random arguments\n"
		"of its signature, integers often at the edges of their type's\n"
		"range, to try its probes on values the code rarely produces. Prints\n"
		"the seed, then each command as sent; --seed S repeats a run.\n"
		"Stops at the first refusal (exit 2).\n",
	},
	{
		"watch", cmd_watch, "watch [--count N]", "stream what print and stack record",
		"Copy the output of the print and stack actions, the trace_pipe of\n"
		"the ftrace instance \"markers\", to stdout until interrupted.\n"
		"Reading consumes: each line is shown to one reader only.\n\n"
		"  --count N   exit after N lines\n",
	},
};

static void print_usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: %s COMMAND [ARGS]\n\n"
		"Control the static markers registry, marker.ko.\n\nCommands:\n",
		progname);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-47s %s\n", commands[i].usage, commands[i].summary);
	fprintf(f, "\n'%s COMMAND --help' describes each one. Every command needs root.\n\n"
		"Exit status:\n"
		"  0  success\n"
		"  1  usage error: bad command, option or argument, PROBE.ko not found\n"
		"  2  the kernel refused: the errno's message is printed (enable,\n"
		"     disable, connect, disconnect and fire: the kernel log says why)\n"
		"  3  the registry is not loaded (or debugfs is not mounted)\n"
		"  4  not root\n\n"
#ifdef MC_TEST_PATHS
		"Environment, for tests: MARKERS_DEBUGFS, MARKERS_TRACEFS and\n"
		"MARKERS_SYSFS replace /sys/kernel/debug, /sys/kernel/tracing and /sys.\n"
#endif
		"See Documentation/markers-admin.rst.\n", progname);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		print_usage(stderr);
		return MC_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		print_usage(stdout);
		return MC_EXIT_OK;
	}
	opterr = 0;
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(&commands[i], argc - 1, argv + 1);
	mc_err("unknown command '%s'", argv[1]);
	fprintf(stderr, "Try '%s --help'.\n", progname);
	return MC_EXIT_USAGE;
}
