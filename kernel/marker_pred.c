// SPDX-License-Identifier: GPL-2.0-only
/*
 * Predicates: a probe's filter ("arg1 > 3 && name == \"eth*\""), compiled
 * once when the probe is registered into a small postfix program, checked
 * against the signature of every site the probe connects to, and run at
 * each hit before the probe: a false predicate costs the program, and no
 * call of the probe.
 *
 *   expr	:= and { "||" and }
 *   and	:= unary { "&&" unary }
 *   unary	:= "!" unary | "(" expr ")" | field OP value
 *   field	:= argN (N from 1) | the name the format gives an argument
 *		   ("len=%d"): the fields of the marker's trace event
 *   OP		:= == != < <= > >=; for a string, == and != only
 *   value	:= an integer (kstrtoll(), base 0) | "a string": with one of
 *		   * ? [ a glob pattern (glob_match())
 *
 * A comparison pushes its truth on a stack of bits (a u64); && and || pop
 * two and push one; ! flips the top. Nothing is parsed or allocated at a
 * hit, and the program has no jump: every comparison runs.
 *
 * A site connects a probe that has a predicate through marker_pred_call(),
 * a generic probe that runs the program and then the probe, which counts
 * the probe's calls in its own count (struct marker_probe.hits).
 */
#include <linux/ctype.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "marker-internal.h"

#define MARKER_PRED_MAX		32	/* instructions: 16 comparisons */
#define MARKER_PRED_LEN		256	/* the text; its names and strings */
#define MARKER_PRED_DEPTH	16	/* nested parentheses and ! */
#define MARKER_PRED_STR		128	/* the bytes of a string compared */

enum marker_pred_op {
	MARKER_PRED_EQ,
	MARKER_PRED_NE,
	MARKER_PRED_LT,
	MARKER_PRED_LE,
	MARKER_PRED_GT,
	MARKER_PRED_GE,
	MARKER_PRED_STR_EQ,	/* the first ops on a string argument */
	MARKER_PRED_STR_NE,
	MARKER_PRED_GLOB,
	MARKER_PRED_NOT_GLOB,
	MARKER_PRED_AND,	/* the first ops on the stack only */
	MARKER_PRED_OR,
	MARKER_PRED_NOT,
};

/**
 * struct marker_pred_insn - one instruction of a predicate's program
 * @op: enum marker_pred_op
 * @arg: the argument compared, from 0
 * @name: the field's name as written, in the pool; NULL for argN
 * @val: the integer compared with
 * @str: the string or glob compared with, in the pool
 */
struct marker_pred_insn {
	u8 op;
	u8 arg;
	const char *name;
	u64 val;
	const char *str;
};

/**
 * struct marker_pred - a compiled predicate
 * @n: the number of instructions
 * @insn: the program, postfix
 * @text: the predicate as given, for the probes file
 * @pool: the names and strings the instructions point to
 *
 * Written once by marker_pred_compile(); read-only while a site can run
 * it, and freed by the registry after the grace period that follows the
 * probe's unregistration, with the probe's count.
 */
struct marker_pred {
	unsigned int n;
	struct marker_pred_insn insn[MARKER_PRED_MAX];
	char text[MARKER_PRED_LEN];
	char pool[MARKER_PRED_LEN];
};

/* What marker_pred_compile() reads and writes while it parses. */
struct marker_pred_parser {
	struct marker_pred *pred;
	const char *p;
	size_t used;
	unsigned int depth;
	const char *why;
};

/* -- Parsing ----------------------------------------------------------------- */

static int marker_pred_expr(struct marker_pred_parser *ps);

static int marker_pred_fail(struct marker_pred_parser *ps, const char *why)
{
	if (!ps->why)
		ps->why = why;
	return -EINVAL;
}

/* Consume @tok if the text continues with it. */
static bool marker_pred_accept(struct marker_pred_parser *ps,
			       const char *tok)
{
	ps->p = skip_spaces(ps->p);
	if (strncmp(ps->p, tok, strlen(tok)))
		return false;
	ps->p += strlen(tok);
	return true;
}

static int marker_pred_emit(struct marker_pred_parser *ps,
			    const struct marker_pred_insn *in)
{
	if (ps->pred->n == MARKER_PRED_MAX)
		return marker_pred_fail(ps, "too long: at most 16 comparisons");
	ps->pred->insn[ps->pred->n++] = *in;
	return 0;
}

/* Copy @len bytes of @s into the pool, NUL-terminated. */
static const char *marker_pred_keep(struct marker_pred_parser *ps,
				    const char *s, size_t len)
{
	char *dst = ps->pred->pool + ps->used;

	/* the pool is as long as the text: it always has room */
	if (WARN_ON_ONCE(ps->used + len + 1 > sizeof(ps->pred->pool)))
		return NULL;
	memcpy(dst, s, len);
	dst[len] = '\0';
	ps->used += len + 1;
	return dst;
}

/* The field: argN, or a name to resolve against the marker's format. */
static int marker_pred_field(struct marker_pred_parser *ps,
			     struct marker_pred_insn *in)
{
	const char *start = skip_spaces(ps->p), *end = start;
	unsigned int n;

	while (isalnum(*end) || *end == '_')
		end++;
	if (end == start || isdigit(*start))
		return marker_pred_fail(ps,
			"a comparison starts with a field: argN or a name");
	if (end - start >= MARKER_FIELD_MAX)
		return marker_pred_fail(ps, "a field name is longer than 31 bytes");
	ps->p = end;
	if (end - start > 3 && !strncmp(start, "arg", 3) &&
	    isdigit(start[3]) && start[3] != '0') {
		for (n = 0, start += 3; start < end && isdigit(*start) &&
		     n <= MARKER_MAX_ARGS; start++)
			n = n * 10 + (*start - '0');
		if (start != end || n > MARKER_MAX_ARGS)
			return marker_pred_fail(ps, "argN: N is from 1 to 10");
		in->arg = n - 1;
		return 0;
	}
	in->name = marker_pred_keep(ps, start, end - start);
	return in->name ? 0 : -EINVAL;
}

static int marker_pred_parse_op(struct marker_pred_parser *ps,
				struct marker_pred_insn *in)
{
	static const struct {
		const char *tok;
		u8 op;
	} ops[] = {	/* the two-byte ones first */
		{ "==", MARKER_PRED_EQ }, { "!=", MARKER_PRED_NE },
		{ "<=", MARKER_PRED_LE }, { ">=", MARKER_PRED_GE },
		{ "<", MARKER_PRED_LT }, { ">", MARKER_PRED_GT },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (marker_pred_accept(ps, ops[i].tok)) {
			in->op = ops[i].op;
			return 0;
		}
	}
	return marker_pred_fail(ps,
		"a field is compared with == != < <= > or >=");
}

#define MARKER_PRED_VALUE	"a field is compared with an integer or a \"string\""

/* A string in double quotes (no escapes), or an integer. */
static int marker_pred_value(struct marker_pred_parser *ps,
			     struct marker_pred_insn *in)
{
	const char *start = skip_spaces(ps->p), *end;
	char num[24];
	s64 neg;
	int ret;

	if (*start == '"') {
		end = strchr(++start, '"');
		if (!end)
			return marker_pred_fail(ps, "a string is not closed");
		if (in->op != MARKER_PRED_EQ && in->op != MARKER_PRED_NE)
			return marker_pred_fail(ps, "a string is compared with == or != only");
		in->str = marker_pred_keep(ps, start, end - start);
		if (!in->str)
			return -EINVAL;
		ps->p = end + 1;
		if (strpbrk(in->str, "*?["))
			in->op = in->op == MARKER_PRED_EQ ? MARKER_PRED_GLOB :
							    MARKER_PRED_NOT_GLOB;
		else
			in->op = in->op == MARKER_PRED_EQ ? MARKER_PRED_STR_EQ :
							    MARKER_PRED_STR_NE;
		return 0;
	}
	end = start + (*start == '-' || *start == '+');
	while (isalnum(*end))
		end++;
	if (end == start || end - start >= sizeof(num))
		return marker_pred_fail(ps, MARKER_PRED_VALUE);
	memcpy(num, start, end - start);
	num[end - start] = '\0';
	if (*num == '-') {
		ret = kstrtoll(num, 0, &neg);
		in->val = neg;
	} else {
		ret = kstrtoull(num, 0, &in->val);
	}
	if (ret)
		return marker_pred_fail(ps, MARKER_PRED_VALUE);
	ps->p = end;
	return 0;
}

static int marker_pred_unary(struct marker_pred_parser *ps)
{
	struct marker_pred_insn in = { };
	int ret;

	if (++ps->depth > MARKER_PRED_DEPTH)
		return marker_pred_fail(ps, "nested too deep: at most 16 ( and !");
	if (marker_pred_accept(ps, "!")) {
		ret = marker_pred_unary(ps);
		in.op = MARKER_PRED_NOT;
		ret = ret ?: marker_pred_emit(ps, &in);
	} else if (marker_pred_accept(ps, "(")) {
		ret = marker_pred_expr(ps);
		if (!ret && !marker_pred_accept(ps, ")"))
			ret = marker_pred_fail(ps, "a ( is not closed");
	} else {
		ret = marker_pred_field(ps, &in) ?:
		      marker_pred_parse_op(ps, &in) ?:
		      marker_pred_value(ps, &in) ?:
		      marker_pred_emit(ps, &in);
	}
	ps->depth--;
	return ret;
}

static int marker_pred_and(struct marker_pred_parser *ps)
{
	struct marker_pred_insn in = { .op = MARKER_PRED_AND };
	int ret = marker_pred_unary(ps);

	while (!ret && marker_pred_accept(ps, "&&"))
		ret = marker_pred_unary(ps) ?: marker_pred_emit(ps, &in);
	return ret;
}

static int marker_pred_expr(struct marker_pred_parser *ps)
{
	struct marker_pred_insn in = { .op = MARKER_PRED_OR };
	int ret = marker_pred_and(ps);

	while (!ret && marker_pred_accept(ps, "||"))
		ret = marker_pred_and(ps) ?: marker_pred_emit(ps, &in);
	return ret;
}

/* -- Checking against a site ------------------------------------------------- */

static bool marker_pred_is_cmp(const struct marker_pred_insn *in)
{
	return in->op < MARKER_PRED_AND;
}

static bool marker_pred_is_str(const struct marker_pred_insn *in)
{
	return in->op >= MARKER_PRED_STR_EQ && in->op < MARKER_PRED_AND;
}

/* Give each named field of @pred its argument in the site's format. */
static int marker_pred_bind(struct marker_pred *pred,
			    const struct marker_rec *rec,
			    const struct marker_probe *probe)
{
	const struct marker_site *site = rec->site;
	char names[MARKER_MAX_ARGS][MARKER_FIELD_MAX];
	unsigned int i, a, nargs = min_t(unsigned int, site->nargs,
					 MARKER_MAX_ARGS);

	marker_field_names(site->format, nargs, names);
	for (i = 0; i < pred->n; i++) {
		struct marker_pred_insn *in = &pred->insn[i];

		if (!marker_pred_is_cmp(in) || !in->name)
			continue;
		for (a = 0; a < nargs && strcmp(names[a], in->name); a++)
			;
		if (a == nargs) {
			pr_err("%s: predicate \"%s\" of %ps: the marker in %s has no field %s\n",
			       site->name, pred->text, probe->func,
			       module_name(rec->mod), in->name);
			return -EINVAL;
		}
		in->arg = a;
	}
	return 0;
}

/**
 * marker_pred_fits() - can @pred run on the arguments of @site?
 * @pred: a compiled predicate
 * @site: a site the probe names
 * @why: where to say why not, or NULL
 * @len: the size of @why
 *
 * Every field must be one of @site's arguments, a named one at the place
 * the probe's first site gave it, and compared as its type is: a string
 * with a string, any other argument with an integer.
 *
 * Context: any; reads only.
 * Return: true if it can.
 */
bool marker_pred_fits(const struct marker_pred *pred,
		      const struct marker_site *site, char *why, size_t len)
{
	char names[MARKER_MAX_ARGS][MARKER_FIELD_MAX];
	unsigned int i;
	bool is_str;

	marker_field_names(site->format, min_t(unsigned int, site->nargs,
					       MARKER_MAX_ARGS), names);
	for (i = 0; i < pred->n; i++) {
		const struct marker_pred_insn *in = &pred->insn[i];

		if (!marker_pred_is_cmp(in))
			continue;
		if (in->arg >= site->nargs) {
			if (why)
				snprintf(why, len, "arg%u: it has %u argument%s",
					 in->arg + 1, site->nargs,
					 site->nargs == 1 ? "" : "s");
			return false;
		}
		if (in->name && strcmp(names[in->arg], in->name)) {
			if (why)
				snprintf(why, len, "no field %s at argument %u (%s there)",
					 in->name, in->arg + 1, names[in->arg]);
			return false;
		}
		is_str = site->sig[in->arg] == MARKER_TYPE_STRING;
		if (marker_pred_is_str(in) != is_str) {
			if (why)
				snprintf(why, len, "%s is %s, compared with %s",
					 in->name ?: names[in->arg],
					 marker_type_name(site->sig[in->arg]),
					 marker_pred_is_str(in) ?
					 "a string" : "an integer");
			return false;
		}
	}
	return true;
}

/**
 * marker_pred_compile() - compile a probe's filter
 * @probe: the probe; @probe->filter is the predicate
 * @rec: the registry's record of the first site @probe names, or NULL if
 *	none is loaded: the names of the fields are taken from its format
 *
 * Context: process context (allocates with GFP_KERNEL).
 * Return: the program, for marker_pred_fits() and marker_pred_call();
 * ERR_PTR(-EINVAL) for a predicate that does not parse, names a field
 * the site does not have or that no site gives a name to yet, having said
 * why in one line; ERR_PTR(-ENOMEM).
 */
struct marker_pred *marker_pred_compile(const struct marker_probe *probe,
					const struct marker_rec *rec)
{
	struct marker_pred_parser ps = { };
	struct marker_pred *pred;
	unsigned int i;
	int ret;

	if (strnlen(probe->filter, MARKER_PRED_LEN) == MARKER_PRED_LEN) {
		pr_err("%s: predicate of %ps: longer than %d bytes\n",
		       probe->marker, probe->func, MARKER_PRED_LEN - 1);
		return ERR_PTR(-EINVAL);
	}
	pred = kzalloc(sizeof(*pred), GFP_KERNEL);
	if (!pred)
		return ERR_PTR(-ENOMEM);
	strscpy(pred->text, probe->filter, sizeof(pred->text));
	ps.pred = pred;
	ps.p = pred->text;
	ret = marker_pred_expr(&ps);
	if (!ret && *skip_spaces(ps.p))
		ret = marker_pred_fail(&ps, "&&, || or the end expected");
	if (ret) {
		pr_err("%s: predicate \"%s\" of %ps: %s, at \"%s\"\n",
		       probe->marker, pred->text, probe->func, ps.why,
		       skip_spaces(ps.p));
		goto free_pred;
	}
	for (i = 0; i < pred->n; i++) {
		if (!marker_pred_is_cmp(&pred->insn[i]) ||
		    !pred->insn[i].name)
			continue;
		if (!rec) {
			pr_err("%s: predicate \"%s\" of %ps names the field %s, and no site of the marker is loaded to say which argument it is: use argN\n",
			       probe->marker, pred->text, probe->func,
			       pred->insn[i].name);
			ret = -EINVAL;
			goto free_pred;
		}
		ret = marker_pred_bind(pred, rec, probe);
		if (ret)
			goto free_pred;
		break;
	}
	return pred;

free_pred:
	kfree(pred);
	return ERR_PTR(ret);
}

/* The predicate as given. */
const char *marker_pred_text(const struct marker_pred *pred)
{
	return pred->text;
}

void marker_pred_free(struct marker_pred *pred)
{
	kfree(pred);
}

/* -- Running ----------------------------------------------------------------- */

static bool marker_type_signed(char type)
{
	return type == MARKER_TYPE_CHAR || type == MARKER_TYPE_SHORT ||
	       type == MARKER_TYPE_INT || type == MARKER_TYPE_LONG ||
	       type == MARKER_TYPE_LLONG;
}

/* An integer comparison; the site passes signed types sign-extended. */
static bool marker_pred_int(const struct marker_pred_insn *in, char type,
			    u64 a)
{
	int c;

	if (marker_type_signed(type))
		c = ((s64)a > (s64)in->val) - ((s64)a < (s64)in->val);
	else
		c = (a > in->val) - (a < in->val);
	switch (in->op) {
	case MARKER_PRED_EQ:
		return !c;
	case MARKER_PRED_NE:
		return c;
	case MARKER_PRED_LT:
		return c < 0;
	case MARKER_PRED_LE:
		return c <= 0;
	case MARKER_PRED_GT:
		return c > 0;
	default:
		return c >= 0;
	}
}

/*
 * A string comparison: the site's string is copied without faulting (a
 * bad pointer reads "(fault)"), its first MARKER_PRED_STR - 1 bytes. Out
 * of line: the kernel's stack auto-initialisation zeroes its buffer at
 * each call, which the integer comparisons must not pay for.
 */
static noinline bool marker_pred_str(const struct marker_pred_insn *in, u64 a)
{
	char buf[MARKER_PRED_STR];
	const char *s;
	size_t used = 0;
	bool eq;

	s = marker_copy_str(buf, &used, sizeof(buf),
			    (const char *)(unsigned long)a);
	if (in->op == MARKER_PRED_GLOB || in->op == MARKER_PRED_NOT_GLOB)
		eq = glob_match(in->str, s);
	else
		eq = !strcmp(in->str, s);
	return eq == (in->op == MARKER_PRED_STR_EQ ||
		      in->op == MARKER_PRED_GLOB);
}

/**
 * marker_pred_run() - evaluate a predicate on a hit's arguments
 * @pred: the program, which marker_pred_fits() accepted for @site
 * @site: the site that was hit
 * @args: its arguments, as u64
 *
 * Context: any, as a probe: preemption disabled, in any context.
 * Return: the predicate's value.
 */
bool marker_pred_run(const struct marker_pred *pred,
		     const struct marker_site *site, const u64 *args)
{
	const struct marker_pred_insn *in, *end = pred->insn + pred->n;
	u64 st = 0;	/* the stack of truths, its top in bit 0 */
	bool b;

	for (in = pred->insn; in < end; in++) {
		switch (in->op) {
		case MARKER_PRED_AND:
			st = (st >> 2) << 1 | (st & (st >> 1) & 1);
			continue;
		case MARKER_PRED_OR:
			st = (st >> 2) << 1 | ((st | (st >> 1)) & 1);
			continue;
		case MARKER_PRED_NOT:
			st ^= 1;
			continue;
		case MARKER_PRED_STR_EQ:
		case MARKER_PRED_STR_NE:
		case MARKER_PRED_GLOB:
		case MARKER_PRED_NOT_GLOB:
			b = marker_pred_str(in, args[in->arg]);
			break;
		default:
			b = marker_pred_int(in, site->sig[in->arg],
					    args[in->arg]);
		}
		st = st << 1 | b;
	}
	return st & 1;
}

/* A typed probe, with all MARKER_MAX_ARGS slots, those past the site's 0. */
static noinline void marker_pred_call_typed(const struct marker_probe *probe,
					    const struct marker_site *site,
					    const u64 *args)
{
	typedef void (*typed_fn)(void *data, u64, u64, u64, u64, u64, u64,
				 u64, u64, u64, u64);
	u64 a[MARKER_MAX_ARGS] = { };

	memcpy(a, args, min_t(unsigned int, site->nargs, MARKER_MAX_ARGS) *
	       sizeof(*a));
	((typed_fn)probe->func)(probe->data, a[0], a[1], a[2], a[3], a[4],
				a[5], a[6], a[7], a[8], a[9]);
}

/**
 * marker_pred_call() - what a site calls for a probe that has a predicate
 * @data: the probe (struct marker_probe)
 * @site: the site that was hit
 * @args: its arguments, as u64
 *
 * Runs the probe's predicate, then, if true, counts the call in the
 * probe's count (not for "fire") and calls the probe: a generic one with
 * @args, a typed one with the arguments as C arguments (on the 64-bit
 * ABIs the registry supports, a u64 slot passes any integer or pointer
 * argument, as marker_fire_call() calls them).
 *
 * Context: any, as a probe: preemption disabled, in any context.
 */
void marker_pred_call(void *data, struct marker_site *site, const u64 *args)
{
	const struct marker_probe *probe = data;

	if (!marker_pred_run(probe->pred, site, args))
		return;
	if (!this_cpu_read(marker_firing))
		this_cpu_inc(*probe->hits);
	if (probe->generic)
		((marker_generic_fn)probe->func)(probe->data, site, args);
	else
		marker_pred_call_typed(probe, site, args);
}
