// SPDX-License-Identifier: GPL-2.0-only
/*
 * fire.c - markerctl fire and fuzz: "fire NAME ARG..." to the registry's
 * control file, with the given arguments or random ones of the marker's
 * signature.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "markerctl.h"

/* The most arguments a marker has (MARKER_MAX_ARGS) */
#define MC_MAX_ARGS		10

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

int cmd_fire(const struct mc_cmd *cmd, int argc, char **argv)
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

int cmd_fuzz(const struct mc_cmd *cmd, int argc, char **argv)
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
