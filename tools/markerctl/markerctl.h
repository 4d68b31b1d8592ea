/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * markerctl.h - what the files of markerctl share.
 *
 *	markerctl.c	main(), the command table with its help texts, and
 *			what every command uses: the paths, the root and
 *			registry checks, option parsing and usage errors
 *	list.c		list: the list and probes files, the table, -v and
 *			--json (json-c)
 *	control.c	enable, disable, connect, disconnect: the control file
 *	module.c	load, unload: libkmod
 *	fire.c		fire, fuzz: "fire NAME ARG..." to the control file
 *	watch.c		watch: the "markers" ftrace instance's trace_pipe
 */
#ifndef MARKERCTL_H
#define MARKERCTL_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#define MC_EXIT_OK		0	/* success */
#define MC_EXIT_USAGE		1	/* bad command, option or argument */
#define MC_EXIT_KERNEL		2	/* the kernel refused: errno printed */
#define MC_EXIT_NO_REGISTRY	3	/* marker.ko is not loaded */
#define MC_EXIT_NOT_ROOT	4	/* not root */

/* The registry's module name, and the files it provides */
#define MC_REGISTRY		"marker"
#define MC_LIST			"markers/list"
#define MC_PROBES		"markers/probes"
#define MC_CONTROL		"markers/control"
#define MC_TRACE_PIPE		"instances/markers/trace_pipe"

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* An error message on stderr, "markerctl: " first; the format is checked. */
#define mc_err(fmt, ...)	fprintf(stderr, "markerctl: " fmt "\n", ##__VA_ARGS__)

/* One help text per command: the usage line, then what it does. */
struct mc_cmd {
	const char *name;
	int (*run)(const struct mc_cmd *cmd, int argc, char **argv);
	const char *usage;
	const char *summary;
	const char *help;
};

/* markerctl.c: the helpers of every command */
int mc_path(char *buf, size_t size, const char *env, const char *dflt,
	    const char *rel);
int mc_debugfs(char *buf, const char *rel);
int need_root(const char *cmd);
int need_registry(const char *cmd);
int need_root_registry(const char *cmd);
extern const struct option help_only[];
int usage_error(const struct mc_cmd *cmd, const char *what);
int help_or_bad_option(const struct mc_cmd *cmd, int c, char **argv);
bool parse_count(const char *s, unsigned long long *val);

/* list.c: the list file's sites, which fuzz reads too */

/* One line of the list file, split in place: the strings point into @line. */
struct mc_site {
	char *line;
	const char *name;
	const char *module;
	const char *mode;
	const char *state;
	unsigned long long probes;
	unsigned long long hits;
	unsigned long long fired;
	const char *sig;
	const char *code;
	const char *symbol;
	const char *kind;
	const char *consumers;
	const char *format;
	const char *event;
};

struct mc_sites {
	struct mc_site *site;
	size_t nr;
	size_t alloc;
};

int read_sites(struct mc_sites *sites);
void free_sites(struct mc_sites *sites);

/* control.c: the control file, which fire and fuzz write too */
bool valid_pattern(const char *pattern);
int control_send(const char *verb, const char *what, const char *buf);

/* The commands, in the order of commands[] */
int cmd_list(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_enable(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_disable(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_connect(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_load(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_unload(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_fire(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_fuzz(const struct mc_cmd *cmd, int argc, char **argv);
int cmd_watch(const struct mc_cmd *cmd, int argc, char **argv);

#endif /* MARKERCTL_H */
