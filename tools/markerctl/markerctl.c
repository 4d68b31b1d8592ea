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
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libkmod.h>

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

/* The most arguments a marker has (MARKER_MAX_ARGS) */
#define MC_MAX_ARGS		10

static const char *progname = "markerctl";

/* An error message on stderr, "markerctl: " first; the format is checked. */
#define mc_err(fmt, ...)	fprintf(stderr, "markerctl: " fmt "\n", ##__VA_ARGS__)

/*
 * mc_path() - @rel under @dflt or, in the test build, under the directory
 * that @env names if it is set.
 * Return: 0, or MC_EXIT_USAGE if the path does not fit in @buf.
 */
static int mc_path(char *buf, size_t size, const char *env, const char *dflt,
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

static int mc_debugfs(char *buf, const char *rel)
{
	return mc_path(buf, PATH_MAX, "MARKERS_DEBUGFS", "/sys/kernel/debug", rel);
}

/* Every command but --help talks to root-only files or the module loader. */
static int need_root(const char *cmd)
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
static int need_registry(const char *cmd)
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
static int need_root_registry(const char *cmd)
{
	int ret = need_root(cmd);

	return ret ? ret : need_registry(cmd);
}

/*
 * Subcommand option parsing: getopt_long() on the subcommand's own argv
 * (argv[0] is its name), with our messages instead of getopt's.
 */
static const struct option help_only[] = {
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

/* One help text per command: the usage line, then what it does. */
struct mc_cmd {
	const char *name;
	int (*run)(const struct mc_cmd *cmd, int argc, char **argv);
	const char *usage;
	const char *summary;
	const char *help;
};

static int usage_error(const struct mc_cmd *cmd, const char *what)
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
static int help_or_bad_option(const struct mc_cmd *cmd, int c, char **argv)
{
	if (c == 'h')
		return print_help(cmd);
	return bad_option(cmd->name, c, argv);
}

/*
 * list
 */

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

static bool parse_count(const char *s, unsigned long long *val)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*val = strtoull(s, &end, 10);
	return !errno && !*end;
}

/*
 * parse_site() - split one line of the list file:
 *	name module mode state probes hits fired signature code symbol kind
 *	consumers "format"
 * The format runs from the first '"' to the last one, spaces included.
 * Return: true if @line had that shape.
 */
static bool parse_site(char *line, struct mc_site *s)
{
	const char *field[12];
	char *p = line, *quote;
	size_t len = strlen(line);
	int i;

	while (len && (line[len - 1] == '\n' || line[len - 1] == ' '))
		line[--len] = '\0';
	for (i = 0; i < 12; i++) {
		field[i] = p;
		p = strchr(p, ' ');
		if (!p || p == field[i])
			return false;
		*p++ = '\0';
	}
	quote = strrchr(p, '"');
	if (*p != '"' || quote == p || quote[1])
		return false;
	*quote = '\0';

	s->line = line;
	s->name = field[0];
	s->module = field[1];
	s->mode = field[2];
	s->state = field[3];
	s->sig = field[7];
	s->code = field[8];
	s->symbol = field[9];
	s->kind = field[10];
	s->consumers = field[11];
	s->format = p + 1;
	return parse_count(field[4], &s->probes) &&
	       parse_count(field[5], &s->hits) && parse_count(field[6], &s->fired);
}

static void free_sites(struct mc_sites *sites)
{
	size_t i;

	for (i = 0; i < sites->nr; i++)
		free(sites->site[i].line);
	free(sites->site);
}

/*
 * read_sites() - read and parse the whole list file into @sites.
 * Return: 0, MC_EXIT_USAGE (its path) or MC_EXIT_KERNEL; @sites is to be
 * freed either way.
 */
static int read_sites(struct mc_sites *sites)
{
	unsigned int lineno = 0;
	char path[PATH_MAX];
	int ret;
	FILE *f;

	ret = mc_debugfs(path, MC_LIST);
	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f) {
		mc_err("list: cannot open %s: %s", path, strerror(errno));
		return MC_EXIT_KERNEL;
	}
	for (;;) {
		char *line = NULL;
		size_t n = 0;

		if (getline(&line, &n, f) < 0) {
			free(line);
			break;
		}
		lineno++;
		if (line[0] == '#' || line[0] == '\n') {
			free(line);
			continue;
		}
		if (sites->nr == sites->alloc) {
			size_t alloc = sites->alloc ? 2 * sites->alloc : 32;
			struct mc_site *site;

			site = realloc(sites->site, alloc * sizeof(*site));
			if (!site) {
				free(line);
				mc_err("list: %s", strerror(ENOMEM));
				ret = MC_EXIT_KERNEL;
				break;
			}
			sites->site = site;
			sites->alloc = alloc;
		}
		if (!parse_site(line, &sites->site[sites->nr])) {
			free(line);
			mc_err("list: %s:%u: unexpected line", path, lineno);
			ret = MC_EXIT_KERNEL;
			break;
		}
		sites->nr++;
	}
	if (!ret && ferror(f)) {
		mc_err("list: cannot read %s: %s", path, strerror(errno));
		ret = MC_EXIT_KERNEL;
	}
	fclose(f);
	return ret;
}

/*
 * event_state() - the state of the trace event of the marker @name, from
 * its tracefs enable file: "on" (recording), "trigger" (armed for a trigger,
 * soft-disabled: "0*"), "off", or "-" (no event, or a name that is not an
 * identifier, which no event has).
 */
static const char *event_state(const char *name)
{
	char rel[PATH_MAX], path[PATH_MAX], buf[8];
	const char *p;
	ssize_t n;
	int fd;

	if (!*name)
		return "-";
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return "-";
	if ((size_t)snprintf(rel, sizeof(rel), "events/markers/%s/enable",
			     name) >= sizeof(rel) ||
	    mc_path(path, sizeof(path), "MARKERS_TRACEFS",
		    "/sys/kernel/tracing", rel))
		return "-";
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return "-";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return "-";
	buf[n] = '\0';
	if (buf[0] == '1')
		return "on";
	if (buf[0] == '0')
		return strchr(buf, '*') ? "trigger" : "off";
	return "-";
}

static void widen(int *width, const char *s)
{
	size_t len = strlen(s);

	if (len > (size_t)*width)
		*width = (int)len;
}

static void widen_count(int *width, unsigned long long val)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%llu", val);
	widen(width, buf);
}

/*
 * list -v: after the last site of a name that has probes, the consumers
 * connected to it, one line each, from the probes file (@probes, read
 * again for each name):
 *	marker function module signature kind sites hits
 * A consumer whose marker is a pattern counts the hits of every marker
 * it matches; the line names the pattern. The action inline takes only
 * inline markers, the others only the rest.
 */
static void print_consumers(FILE *probes, const struct mc_site *s)
{
	char marker[256], func[256], module[256], sig[64], kind[16];
	unsigned long long sites, hits;
	bool is_inline = !strcmp(s->kind, "inline");
	char line[1024];
	int end;

	rewind(probes);
	while (fgets(line, sizeof(line), probes)) {
		end = 0;
		if (line[0] == '#' ||
		    sscanf(line, "%255s %255s %255s %63s %15s %llu %llu%n", marker,
			   func, module, sig, kind, &sites, &hits, &end) != 7)
			continue;
		if (!sites || fnmatch(marker, s->name, 0) ||
		    is_inline != !strcmp(func, "marker_inline"))
			continue;
		printf("    consumer: %s %s [%s]", kind, func, module);
		if (strcmp(marker, s->name))
			printf(" for %s", marker);
		printf(", hits %llu", hits);
		/* the predicate ends the line: " if PREDICATE" */
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line + end, " if ", 4))
			printf(", if %s", line + end + 4);
		putchar('\n');
	}
}

/*
 * The table: one site per line, columns aligned, the format quoted last;
 * with @probes_file (list -v), each name's consumers after its sites.
 */
static void print_table(const struct mc_sites *sites, FILE *probes_file)
{
	int name = 0, module = 0, mode = 0, state = 0, probes = 0, hits = 0;
	int fired = 0, sig = 0, event = 0, kind = 0, consumers = 0;
	bool connected = false;
	size_t i;

	widen(&name, "NAME");
	widen(&module, "MODULE");
	widen(&mode, "MODE");
	widen(&state, "STATE");
	widen(&probes, "PROBES");
	widen(&hits, "HITS");
	widen(&fired, "FIRED");
	widen(&sig, "SIGNATURE");
	widen(&event, "EVENT");
	widen(&kind, "KIND");
	widen(&consumers, "CONSUMERS");
	for (i = 0; i < sites->nr; i++) {
		const struct mc_site *s = &sites->site[i];

		widen(&name, s->name);
		widen(&module, s->module);
		widen(&mode, s->mode);
		widen(&state, s->state);
		widen_count(&probes, s->probes);
		widen_count(&hits, s->hits);
		widen_count(&fired, s->fired);
		widen(&sig, s->sig);
		widen(&event, s->event);
		widen(&kind, s->kind);
		widen(&consumers, s->consumers);
	}
	printf("%-*s  %-*s  %-*s  %-*s  %*s  %*s  %*s  %-*s  %-*s  %-*s  %-*s  FORMAT\n",
	       name, "NAME", module, "MODULE", mode, "MODE", state, "STATE",
	       probes, "PROBES", hits, "HITS", fired, "FIRED", sig, "SIGNATURE",
	       event, "EVENT", kind, "KIND", consumers, "CONSUMERS");
	for (i = 0; i < sites->nr; i++) {
		const struct mc_site *s = &sites->site[i];

		printf("%-*s  %-*s  %-*s  %-*s  %*llu  %*llu  %*llu  ",
		       name, s->name, module, s->module, mode, s->mode,
		       state, s->state, probes, s->probes, hits, s->hits,
		       fired, s->fired);
		printf("%-*s  %-*s  %-*s  %-*s  \"%s\"\n", sig, s->sig,
		       event, s->event, kind, s->kind, consumers, s->consumers,
		       s->format);
		connected |= s->probes > 0;
		if (i + 1 < sites->nr && !strcmp(s->name, sites->site[i + 1].name))
			continue;
		if (probes_file && connected)
			print_consumers(probes_file, s);
		connected = false;
	}
}

/*
 * utf8_len() - the length of the valid UTF-8 sequence at @s, 0 if invalid
 * (overlong forms, surrogates and code points past U+10FFFF included).
 */
static size_t utf8_len(const unsigned char *s)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* A JSON string: quotes, backslashes and control characters escaped, and
 * bytes that are not UTF-8 replaced by U+FFFD.
 */
static void json_string(const char *str)
{
	/* the characters with a short escape, and the letter each takes */
	static const char short_esc[] = "\"\\\b\f\n\r\t";
	static const char short_letter[] = "\"\\bfnrt";
	const unsigned char *s = (const unsigned char *)str;

	putchar('"');
	while (*s) {
		const char *esc = strchr(short_esc, *s);
		size_t len = utf8_len(s);

		if (esc)
			printf("\\%c", short_letter[esc - short_esc]);
		else if (*s < 0x20)
			printf("\\u%04x", *s);
		else if (!len)
			fputs("\\ufffd", stdout);
		else
			fwrite(s, 1, len, stdout);
		s += len ? len : 1;
	}
	putchar('"');
}

static void json_field(const char *key, const char *val, bool last)
{
	printf("\"%s\": ", key);
	json_string(val);
	fputs(last ? "" : ", ", stdout);
}

/* A JSON array, one object per site and per line. */
static void print_json(const struct mc_sites *sites)
{
	size_t i;

	if (!sites->nr) {
		puts("[]");
		return;
	}
	puts("[");
	for (i = 0; i < sites->nr; i++) {
		const struct mc_site *s = &sites->site[i];

		fputs("  {", stdout);
		json_field("name", s->name, false);
		json_field("module", s->module, false);
		json_field("mode", s->mode, false);
		json_field("state", s->state, false);
		printf("\"probes\": %llu, \"hits\": %llu, \"fired\": %llu, ",
		       s->probes, s->hits, s->fired);
		json_field("signature", s->sig, false);
		json_field("code", s->code, false);
		json_field("symbol", s->symbol, false);
		json_field("kind", s->kind, false);
		json_field("consumers", s->consumers, false);
		json_field("format", s->format, false);
		json_field("event", s->event, true);
		puts(i + 1 < sites->nr ? "}," : "}");
	}
	puts("]");
}

static int cmd_list(const struct mc_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct mc_sites sites = { NULL, 0, 0 };
	bool json = false, verbose = false;
	FILE *probes_file = NULL;
	char path[PATH_MAX];
	int c, ret;

	while ((c = getopt_long(argc, argv, ":hv", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			return help_or_bad_option(cmd, c, argv);
		}
	}
	if (optind != argc)
		return usage_error(cmd, "too many arguments");
	if (json && verbose)
		return usage_error(cmd, "--verbose is for the table, not --json");

	ret = need_root_registry(cmd->name);
	if (!ret)
		ret = read_sites(&sites);
	if (!ret && verbose)
		ret = mc_debugfs(path, MC_PROBES);
	if (!ret && verbose) {
		probes_file = fopen(path, "re");
		if (!probes_file) {
			mc_err("list: cannot open %s: %s", path, strerror(errno));
			ret = MC_EXIT_KERNEL;
		}
	}
	if (!ret) {
		size_t i;

		for (i = 0; i < sites.nr; i++)
			sites.site[i].event = event_state(sites.site[i].name);
		if (json)
			print_json(&sites);
		else
			print_table(&sites, probes_file);
		if (fflush(stdout)) {
			mc_err("list: %s", strerror(errno));
			ret = MC_EXIT_KERNEL;
		}
	}
	if (probes_file)
		fclose(probes_file);
	free_sites(&sites);
	return ret;
}

/*
 * enable, disable: one command per write(2) to the control file
 */

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
static bool valid_pattern(const char *pattern)
{
	return *pattern && !pattern[strcspn(pattern, " \t\n\r\f\v")];
}

/*
 * control_send() - write the command @buf to the control file in one
 * write(2), the kernel parsing each write on its own; @verb and @what name
 * it in the messages.
 */
static int control_send(const char *verb, const char *what, const char *buf)
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

static int cmd_enable(const struct mc_cmd *cmd, int argc, char **argv)
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

static int cmd_disable(const struct mc_cmd *cmd, int argc, char **argv)
{
	return control_one(cmd, argc, argv, "NAME or GLOB");
}

/* connect, disconnect: an offered probe, by its function's name */
static int cmd_connect(const struct mc_cmd *cmd, int argc, char **argv)
{
	return control_one(cmd, argc, argv, "PROBE");
}

/*
 * load, unload: libkmod
 */

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

static int cmd_load(const struct mc_cmd *cmd, int argc, char **argv)
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

static int cmd_unload(const struct mc_cmd *cmd, int argc, char **argv)
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

/*
 * watch: copy the "markers" ftrace instance's trace_pipe to stdout
 */

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

static int cmd_watch(const struct mc_cmd *cmd, int argc, char **argv)
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

/*
 * fire, fuzz: "fire NAME ARG..." to the control file
 */

/* The longest command the control file takes (MARKER_CONTROL_MAX). */
#define MC_CONTROL_MAX		255

/* An ARG the control file can carry: in double quotes if it has blanks. */
static bool valid_arg(const char *arg)
{
	return !strpbrk(arg, "\"\n");
}

/*
 * fire_send() - fire @name with the @argc arguments in @argv, each quoted
 * if it is empty or holds a blank; @echo: print the command on stdout.
 */
static int fire_send(const char *name, int argc, char **argv, bool echo)
{
	char buf[MC_CONTROL_MAX + 2];
	size_t len;
	int i;

	len = snprintf(buf, sizeof(buf), "fire %s", name);
	for (i = 0; i < argc && len < sizeof(buf); i++) {
		bool quote = !*argv[i] || strpbrk(argv[i], " \t\v\f\r");

		len += snprintf(buf + len, sizeof(buf) - len, quote ? " \"%s\"" : " %s",
				argv[i]);
	}
	if (len >= sizeof(buf)) {
		mc_err("fire %s: command longer than %d bytes", name, MC_CONTROL_MAX);
		return MC_EXIT_USAGE;
	}
	if (echo)
		printf("%s\n", buf);
	return control_send("fire", name, buf);
}

static int cmd_fire(const struct mc_cmd *cmd, int argc, char **argv)
{
	int c, i, ret;

	c = getopt_long(argc, argv, "+:h", help_only, NULL);
	if (c != -1)
		return help_or_bad_option(cmd, c, argv);
	if (argc - optind < 1 || !valid_pattern(argv[optind]))
		return usage_error(cmd, "expected a NAME, one non-empty word");
	for (i = optind + 1; i < argc; i++)
		if (!valid_arg(argv[i]))
			return usage_error(cmd, "an ARG cannot hold a double quote or a newline");

	ret = need_root_registry(cmd->name);
	if (!ret)
		ret = fire_send(argv[optind], argc - optind - 1, argv + optind + 1,
				false);
	return ret;
}

/* The range of each integer type of a signature (enum marker_type). */
static const struct mc_type {
	char code;
	long long min;
	unsigned long long max;
} mc_types[] = {
	{ 'b', 0, 1 },
	{ 'c', SCHAR_MIN, SCHAR_MAX },
	{ 'C', 0, UCHAR_MAX },
	{ 'h', SHRT_MIN, SHRT_MAX },
	{ 'H', 0, USHRT_MAX },
	{ 'i', INT_MIN, INT_MAX },
	{ 'I', 0, UINT_MAX },
	{ 'l', LONG_MIN, LONG_MAX },
	{ 'L', 0, ULONG_MAX },
	{ 'q', LLONG_MIN, LLONG_MAX },
	{ 'Q', 0, ULLONG_MAX },
};

/* xorshift64*: the same values for the same --seed, on every machine */
static unsigned long long fuzz_next(unsigned long long *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dULL;
}

/*
 * fuzz_value() - a random argument of signature type @code into @buf: for
 * integers, one time in two a value at an edge of the type's range (0, 1,
 * -1, the least, the greatest), otherwise any; strings of 0 to 16
 * printable characters; pointers 0, the only one fire takes.
 * Return: false if @code is no type of a signature.
 */
static bool fuzz_value(char code, unsigned long long *state, char *buf,
		       size_t size)
{
	unsigned long long r = fuzz_next(state), v, span;
	const struct mc_type *t = NULL;
	size_t i, len;

	if (code == 'p') {
		snprintf(buf, size, "0");
		return true;
	}
	if (code == 's') {
		len = r % 17 < size ? r % 17 : size - 1;
		for (i = 0; i < len; i++) {
			buf[i] = ' ' + fuzz_next(state) % ('~' - ' ' + 1);
			if (buf[i] == '"')
				buf[i] = '\'';
		}
		buf[len] = '\0';
		return true;
	}
	for (i = 0; i < ARRAY_SIZE(mc_types); i++)
		if (mc_types[i].code == code)
			t = &mc_types[i];
	if (!t)
		return false;
	/* r's low bit: an edge or any value; v: which edge, or the value */
	v = fuzz_next(state);
	span = t->max - (unsigned long long)t->min;
	if (t->min) {
		long long edge[] = { 0, 1, -1, t->min, (long long)t->max };

		if (r & 1)
			snprintf(buf, size, "%lld", edge[v % ARRAY_SIZE(edge)]);
		else
			snprintf(buf, size, "%lld", (long long)((unsigned long long)t->min +
				 (span == ULLONG_MAX ? v : v % (span + 1))));
	} else {
		unsigned long long edge[] = { 0, 1, t->max, t->max - 1 };

		if (r & 1)
			snprintf(buf, size, "%llu", edge[v % ARRAY_SIZE(edge)]);
		else
			snprintf(buf, size, "%llu", span == ULLONG_MAX ? v : v % (span + 1));
	}
	return true;
}

static int cmd_fuzz(const struct mc_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "count", required_argument, NULL, 'c' },
		{ "seed", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long long count = 100, seed = 0, state, n;
	struct mc_sites sites = { NULL, 0, 0 };
	char val[MC_MAX_ARGS][24], *args[MC_MAX_ARGS];
	const char *name, *sig = NULL;
	bool seeded = false;
	size_t i, nargs;
	int c, ret;

	while ((c = getopt_long(argc, argv, ":c:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (!parse_count(optarg, &count) || !count)
				return usage_error(cmd, "N is a positive number");
			break;
		case 's':
			if (!parse_count(optarg, &seed))
				return usage_error(cmd, "S is a number");
			seeded = true;
			break;
		default:
			return help_or_bad_option(cmd, c, argv);
		}
	}
	if (argc - optind != 1 || !valid_pattern(argv[optind]))
		return usage_error(cmd, "expected one NAME, one non-empty word");
	name = argv[optind];

	ret = need_root_registry(cmd->name);
	if (!ret)
		ret = read_sites(&sites);
	for (i = 0; !ret && i < sites.nr && !sig; i++)
		if (!strcmp(sites.site[i].name, name))
			sig = sites.site[i].sig;
	if (!ret && !sig) {
		mc_err("fuzz: no site of %s is loaded", name);
		ret = MC_EXIT_KERNEL;
	}
	if (ret)
		goto out;
	if (!strcmp(sig, "-"))
		sig = "";
	nargs = strlen(sig);
	if (nargs > MC_MAX_ARGS) {
		mc_err("fuzz: %s: signature '%s' of more than %d arguments",
		       name, sig, MC_MAX_ARGS);
		ret = MC_EXIT_KERNEL;
		goto out;
	}
	if (!seeded)
		seed = (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32);
	/* xorshift's state must not be 0 */
	state = seed ^ 0x9e3779b97f4a7c15ULL;
	printf("# markerctl fuzz %s --count %llu --seed %llu\n", name, count, seed);
	for (n = 0; !ret && n < count; n++) {
		for (i = 0; i < nargs; i++) {
			args[i] = val[i];
			if (!fuzz_value(sig[i], &state, val[i], sizeof(val[i]))) {
				mc_err("fuzz: %s: unknown type '%c' in signature '%s'",
				       name, sig[i], sig);
				ret = MC_EXIT_KERNEL;
				goto out;
			}
		}
		fflush(stdout);
		ret = fire_send(name, (int)nargs, args, true);
	}
	if (!ret && fflush(stdout)) {
		mc_err("fuzz: %s", strerror(errno));
		ret = MC_EXIT_KERNEL;
	}
out:
	free_sites(&sites);
	return ret;
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
