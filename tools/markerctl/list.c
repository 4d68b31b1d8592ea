// SPDX-License-Identifier: GPL-2.0-only
/*
 * list.c - markerctl list: the registry's list file as an aligned table,
 * with -v each marker's consumers from the probes file, or with --json a
 * JSON array that json-c writes.
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
#include <unistd.h>

#include <json-c/json.h>

#include "markerctl.h"

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

void free_sites(struct mc_sites *sites)
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
int read_sites(struct mc_sites *sites)
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

/*
 * utf8_clean() - a copy of @str with each byte that is not valid UTF-8
 * replaced by U+FFFD: json-c copies bytes as they are.
 * Return: the copy, to be freed, or NULL if out of memory.
 */
static char *utf8_clean(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char *copy = malloc(3 * strlen(str) + 1), *p = copy;
	size_t len;

	if (!copy)
		return NULL;
	while (*s) {
		len = utf8_len(s);
		if (!len) {
			memcpy(p, "\xef\xbf\xbd", 3);	/* U+FFFD */
			p += 3;
			s++;
			continue;
		}
		memcpy(p, s, len);
		p += len;
		s += len;
	}
	*p = '\0';
	return copy;
}

/*
 * json_add() - add @val, a new json-c value, to @obj as @key.
 * Return: false, @val freed, if @val is NULL or json-c is out of memory.
 */
static bool json_add(struct json_object *obj, const char *key,
		     struct json_object *val)
{
	if (val && !json_object_object_add(obj, key, val))
		return true;
	json_object_put(val);
	return false;
}

static bool json_add_string(struct json_object *obj, const char *key,
			    const char *str)
{
	char *clean = utf8_clean(str);
	bool ok = clean && json_add(obj, key, json_object_new_string(clean));

	free(clean);
	return ok;
}

static bool json_add_count(struct json_object *obj, const char *key,
			   unsigned long long val)
{
	return json_add(obj, key, json_object_new_uint64(val));
}

/* One site as a JSON object, or NULL if out of memory */
static struct json_object *site_json(const struct mc_site *s)
{
	struct json_object *obj = json_object_new_object();

	if (obj && json_add_string(obj, "name", s->name) &&
	    json_add_string(obj, "module", s->module) &&
	    json_add_string(obj, "mode", s->mode) &&
	    json_add_string(obj, "state", s->state) &&
	    json_add_count(obj, "probes", s->probes) &&
	    json_add_count(obj, "hits", s->hits) &&
	    json_add_count(obj, "fired", s->fired) &&
	    json_add_string(obj, "signature", s->sig) &&
	    json_add_string(obj, "code", s->code) &&
	    json_add_string(obj, "symbol", s->symbol) &&
	    json_add_string(obj, "kind", s->kind) &&
	    json_add_string(obj, "consumers", s->consumers) &&
	    json_add_string(obj, "format", s->format) &&
	    json_add_string(obj, "event", s->event))
		return obj;
	json_object_put(obj);
	return NULL;
}

/*
 * print_object() - one site's line: json-c's spaced form, { "key": value,
 * ... }, without the blanks inside the braces, as list --json has always
 * printed it (the guest tests compare it byte for byte).
 */
static void print_object(const char *text, bool last)
{
	size_t len = strlen(text);

	if (len >= 4 && !strncmp(text, "{ ", 2) && !strcmp(text + len - 2, " }"))
		printf("  {%.*s}%s\n", (int)(len - 4), text + 2, last ? "" : ",");
	else
		printf("  %s%s\n", text, last ? "" : ",");
}

/*
 * print_json() - a JSON array, one object per site and per line. Every
 * line is made before the first is printed: out of memory, none is.
 * Return: 0, or MC_EXIT_KERNEL if out of memory.
 */
static int print_json(const struct mc_sites *sites)
{
	const int flags = JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE;
	struct json_object *array, *obj;
	const char **text;
	int ret = MC_EXIT_KERNEL;
	size_t i;

	if (!sites->nr) {
		puts("[]");
		return MC_EXIT_OK;
	}
	/* the array holds the objects; each text is kept in its object */
	array = json_object_new_array();
	text = calloc(sites->nr, sizeof(*text));
	if (!array || !text)
		goto out;
	for (i = 0; i < sites->nr; i++) {
		obj = site_json(&sites->site[i]);
		if (!obj)
			goto out;
		if (json_object_array_add(array, obj)) {
			json_object_put(obj);
			goto out;
		}
		text[i] = json_object_to_json_string_ext(obj, flags);
		if (!text[i])
			goto out;
	}
	puts("[");
	for (i = 0; i < sites->nr; i++)
		print_object(text[i], i + 1 == sites->nr);
	puts("]");
	ret = MC_EXIT_OK;
out:
	if (ret)
		mc_err("list: %s", strerror(ENOMEM));
	free(text);
	json_object_put(array);
	return ret;
}

int cmd_list(const struct mc_cmd *cmd, int argc, char **argv)
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
			ret = print_json(&sites);
		else
			print_table(&sites, probes_file);
		if (!ret && fflush(stdout)) {
			mc_err("list: %s", strerror(errno));
			ret = MC_EXIT_KERNEL;
		}
	}
	if (probes_file)
		fclose(probes_file);
	free_sites(&sites);
	return ret;
}
