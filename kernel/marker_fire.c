// SPDX-License-Identifier: GPL-2.0-only
/*
 * Firing a marker by name, as if one of its sites had run: the control
 * file's "fire NAME ARG...". The arguments are parsed by the marker's
 * signature, and the probes, actions and events connected to the site
 * run with preemption disabled, as from the site's armed path. It is
 * meant for testing consumers with values the code rarely produces.
 *
 * A fired hit is counted apart, in the listing's fired column, and never
 * in the hits the actions count: it must not be mistaken for the code
 * running.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/percpu.h>
#include <linux/string.h>

#include "marker-internal.h"

/*
 * Set on the CPU that runs a fired hit, with preemption disabled, for
 * the actions (marker_actions.c) to leave the site's hits alone. A hit of
 * the same site from an interrupt taken in that window is not counted
 * either.
 */
DEFINE_PER_CPU(bool, marker_firing);

/*
 * The next argument of *@p: a blank-separated word, or a string in
 * double quotes, which may hold blanks (no escapes). NULL at the end, or
 * ERR_PTR(-EINVAL) for a quote that is not closed.
 */
static char *marker_fire_word(char **p)
{
	char *word = skip_spaces(*p), *end;

	if (!*word)
		return NULL;
	if (*word == '"') {
		end = strchr(++word, '"');
		if (!end || (end[1] && !isspace(end[1])))
			return ERR_PTR(-EINVAL);
	} else {
		end = word + strcspn(word, " \t\n\v\f\r");
	}
	*p = *end ? end + 1 : end;
	*end = '\0';
	return word;
}

/* The range of an integer type of enum marker_type, for marker_fire_parse(). */
static void marker_type_range(char type, s64 *min, u64 *max)
{
	*min = 0;
	switch (type) {
	case MARKER_TYPE_CHAR:
		*min = S8_MIN;
		*max = S8_MAX;
		break;
	case MARKER_TYPE_UCHAR:
		*max = U8_MAX;
		break;
	case MARKER_TYPE_SHORT:
		*min = S16_MIN;
		*max = S16_MAX;
		break;
	case MARKER_TYPE_USHORT:
		*max = U16_MAX;
		break;
	case MARKER_TYPE_INT:
		*min = INT_MIN;
		*max = INT_MAX;
		break;
	case MARKER_TYPE_UINT:
		*max = UINT_MAX;
		break;
	case MARKER_TYPE_LONG:
	case MARKER_TYPE_LLONG:
		*min = S64_MIN;
		*max = S64_MAX;
		break;
	default:
		*max = U64_MAX;
	}
}

/*
 * Parse @word as an argument of @type into @arg, as the site passes it:
 * signed types sign-extended, strings as a pointer to @word, a pointer
 * only as 0 (what it would point to, fire cannot make up).
 */
static int marker_fire_parse(char type, char *word, u64 *arg)
{
	s64 min, s;
	u64 max;
	bool b;
	int ret;

	switch (type) {
	case MARKER_TYPE_BOOL:
		ret = kstrtobool(word, &b);
		*arg = b;
		return ret;
	case MARKER_TYPE_STRING:
		*arg = (unsigned long)word;
		return 0;
	case MARKER_TYPE_PTR:
		*arg = 0;
		return strcmp(word, "0") ? -EINVAL : 0;
	}
	marker_type_range(type, &min, &max);
	if (min) {
		ret = kstrtoll(word, 0, &s);
		if (!ret && (s < min || s > (s64)max))
			ret = -ERANGE;
		*arg = s;
	} else {
		ret = kstrtoull(word, 0, arg);
		if (!ret && *arg > max)
			ret = -ERANGE;
	}
	return ret;
}

/*
 * Run @site's probes with @args, as __MARKER_FIRE() and the site's
 * __marker_call_all_N() would. A typed probe is called with all
 * MARKER_MAX_ARGS slots: on the 64-bit ABIs the registry supports it
 * reads the ones it takes and ignores the rest, as the stub of
 * marker_funcs_stub() does.
 */
static void marker_fire_call(struct marker_site *site, const u64 *a)
{
	typedef void (*typed_fn)(void *data, u64, u64, u64, u64, u64, u64,
				 u64, u64, u64, u64);
	const struct marker_funcs *funcs;
	const struct marker_func *f;

	lockdep_assert_held(&marker_mutex);
	preempt_disable_notrace();
	__this_cpu_write(marker_firing, true);
	funcs = __marker_site_funcs(site);
	for (f = funcs ? funcs->f : NULL; f && f < funcs->f + funcs->nr; f++) {
		void *func = READ_ONCE(f->func);

		if (f->generic)
			((marker_generic_fn)func)(f->data, site, a);
		else
			((typed_fn)func)(f->data, a[0], a[1], a[2], a[3], a[4],
					 a[5], a[6], a[7], a[8], a[9]);
	}
	__this_cpu_write(marker_firing, false);
	preempt_enable_notrace();
}

/**
 * marker_fire_command() - fire the marker @name with the arguments in @args
 * @name: the marker's name (no pattern)
 * @args: the arguments, blank-separated, a string in double quotes if it
 *	holds blanks; modified in place, and the strings passed to the probes
 *	point into it
 *
 * Runs what is connected to the first known site of @name once, and
 * counts it in the name's fired count.
 *
 * Context: process context; takes marker_mutex.
 * Return: 0; -EINVAL if @name is no marker's name, if the arguments are
 * not the marker's (their number, a value that is not of its type, a
 * pointer other than 0) or if it is an inline marker (MARK_INLINE(),
 * whose code is its sites'), or -ERANGE for an integer out of its type's
 * range; -ENOENT if no site of @name is loaded.
 */
int marker_fire_command(const char *name, char *args)
{
	u64 a[MARKER_MAX_ARGS] = { };
	struct marker_site *site;
	struct marker_rec *rec;
	struct marker_entry *e;
	unsigned int n = 0;
	char *word;
	int ret = 0;

	if (!marker_valid_name(name) || marker_is_glob(name)) {
		pr_err("control: fire: '%*pE' is not a marker's name\n",
		       (int)strlen(name), name);
		return -EINVAL;
	}

	mutex_lock(&marker_mutex);
	e = marker_entry_find(name);
	rec = e ? list_first_entry_or_null(&e->sites, struct marker_rec,
					   node) : NULL;
	site = rec ? rec->site : NULL;
	if (!site) {
		pr_err("control: fire %s: no site of it is loaded\n", name);
		ret = -ENOENT;
		goto unlock;
	}
	if (site->kind == MARKER_KIND_INLINE) {
		pr_err("control: fire %s: an inline marker runs its own code at its sites, there is nothing to fire\n",
		       name);
		ret = -EINVAL;
		goto unlock;
	}
	while ((word = marker_fire_word(&args))) {
		if (IS_ERR(word)) {
			pr_err("control: fire %s: argument %u: a quote is not closed\n",
			       name, n + 1);
			ret = PTR_ERR(word);
			goto unlock;
		}
		if (n == site->nargs) {
			n++;
			break;
		}
		ret = marker_fire_parse(site->sig[n], word, &a[n]);
		if (ret) {
			pr_err("control: fire %s: argument %u, '%*pE', is no %s%s\n",
			       name, n + 1, (int)strlen(word), word,
			       marker_type_name(site->sig[n]),
			       site->sig[n] == MARKER_TYPE_PTR ?
			       " that fire can pass: only 0" : "");
			goto unlock;
		}
		n++;
	}
	if (n != site->nargs) {
		char sig[128];

		marker_sig_print(sig, sizeof(sig), site->sig);
		pr_err("control: fire %s: %s arguments, it takes %u: %s\n",
		       name, n > site->nargs ? "too many" : "too few",
		       site->nargs, sig);
		ret = -EINVAL;
		goto unlock;
	}
	marker_fire_call(site, a);
	e->fired++;
unlock:
	mutex_unlock(&marker_mutex);
	return ret;
}
