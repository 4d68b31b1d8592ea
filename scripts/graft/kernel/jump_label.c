// SPDX-License-Identifier: GPL-2.0-only
/*
 * Several static keys updated in shared text_poke_bp() batches.
 *
 * Not a file of its own: scripts/integrate.sh inserts this text into the
 * kernel's kernel/jump_label.c, before __jump_label_update(), and one call
 * of jump_label_many_add() into the batching __jump_label_update(); as an
 * upstream patch it would be those two hunks. Written for the
 * jump_label.c of Debian's 6.1 and 6.12, which agree from
 * static_key_slow_inc_cpuslocked() to __jump_label_update() (Debian's 6.1
 * has the later kernels' static_key_fast_inc_not_disabled() and
 * guard(mutex) form, backported).
 *
 * static_key_slow_inc() patches the entries of its key in one batch: on
 * x86 three sync IPIs to every other CPU, however few entries. Markers
 * give each name a key of its own, so arming 1000 names that way is 1000
 * batches. static_key_slow_inc_many() and static_key_slow_dec_many()
 * collect the entries of every key they enable or disable, sort them by
 * address (text_poke_queue() starts a new batch whenever an address goes
 * back) and queue them all: one batch for each TP_VEC_MAX (256) entries.
 */
#ifdef HAVE_JUMP_LABEL_BATCH
/* their declarations: upstream, include/linux/jump_label.h */
#include <wrapper/jump-label.h>

/*
 * The entries of the keys a *_many() call enables or disables, collected by
 * __jump_label_update() while jump_label_many_on; all under
 * jump_label_mutex.
 */
static struct jump_entry **jump_label_many;
static unsigned int jump_label_many_nr, jump_label_many_max;
static bool jump_label_many_on;

/*
 * Called by __jump_label_update() for each entry it would queue: true when
 * @entry is kept for jump_label_many_apply(). False outside a *_many()
 * call, and when the array cannot grow: the entry is then queued and
 * patched at once, as static_key_slow_inc() does.
 */
static bool jump_label_many_add(struct jump_entry *entry)
{
	struct jump_entry **more;
	unsigned int size;

	lockdep_assert_held(&jump_label_mutex);
	if (!jump_label_many_on)
		return false;
	if (jump_label_many_nr == jump_label_many_max) {
		size = max(2 * jump_label_many_max, 64U);
		more = krealloc_array(jump_label_many, size, sizeof(*more),
				      GFP_KERNEL);
		if (!more)
			return false;
		jump_label_many = more;
		jump_label_many_max = size;
	}
	jump_label_many[jump_label_many_nr++] = entry;
	return true;
}

static int jump_label_many_cmp(const void *a, const void *b)
{
	unsigned long ca = jump_entry_code(*(struct jump_entry * const *)a);
	unsigned long cb = jump_entry_code(*(struct jump_entry * const *)b);

	return ca < cb ? -1 : ca > cb;
}

/* Patch the collected entries, in address order, and forget them. */
static void jump_label_many_apply(void)
{
	struct jump_entry *entry;
	enum jump_label_type type;
	unsigned int i;

	lockdep_assert_held(&jump_label_mutex);
	sort(jump_label_many, jump_label_many_nr, sizeof(*jump_label_many),
	     jump_label_many_cmp, NULL);
	for (i = 0; i < jump_label_many_nr; i++) {
		entry = jump_label_many[i];
		type = jump_label_type(entry);
		if (!arch_jump_label_transform_queue(entry, type)) {
			/* the queue is full: patch it and start another */
			arch_jump_label_transform_apply();
			WARN_ON_ONCE(!arch_jump_label_transform_queue(entry, type));
		}
	}
	arch_jump_label_transform_apply();
	kfree(jump_label_many);
	jump_label_many = NULL;
	jump_label_many_nr = 0;
	jump_label_many_max = 0;
}

static int jump_label_many_key_cmp(const void *a, const void *b)
{
	unsigned long ka = (unsigned long)*(struct static_key * const *)a;
	unsigned long kb = (unsigned long)*(struct static_key * const *)b;

	return ka < kb ? -1 : ka > kb;
}

/*
 * Add @n users to @key (@n < 0: take -@n away). True when that gives it
 * its first user or takes its last: the key is then -1 ("enabling in
 * progress": static_key_enabled() is true for jump_label_type(), and other
 * updaters wait on the mutex; see static_key_slow_inc_cpuslocked()) or 0,
 * and its entries need patching. Taking more users than the key has warns
 * once and leaves it as it is.
 */
static bool static_key_add_edge(struct static_key *key, int n)
{
	int v = atomic_read(&key->enabled), to;

	do {
		/* -1 is never seen under the mutex */
		if (WARN_ON_ONCE(v < 0 || v + n < 0))
			return false;
		to = v ? v + n : -1;
	} while (!atomic_try_cmpxchg(&key->enabled, &v, to));
	return !v || !to;
}

/*
 * static_key_slow_inc_many() and static_key_slow_dec_many() for @inc:
 * @keys sorted, so that a key's repeats are together; each key's count
 * changed by its number of repeats; the entries of the keys that gain
 * their first user or lose their last patched together.
 */
static unsigned int static_key_slow_many(struct static_key **keys,
					 unsigned int nr, bool inc)
{
	unsigned int i, j, edges = 0;
	struct static_key *key;
	int n;

	sort(keys, nr, sizeof(*keys), jump_label_many_key_cmp, NULL);
	cpus_read_lock();
	mutex_lock(&jump_label_mutex);
	jump_label_many_on = true;
	for (i = 0; i < nr; i = j) {
		key = keys[i];
		for (j = i + 1; j < nr && keys[j] == key; j++)
			;
		n = inc ? j - i : -(int)(j - i);
		STATIC_KEY_CHECK_USE(key);
		if (!static_key_add_edge(key, n))
			continue;
		jump_label_update(key);
		edges++;
	}
	jump_label_many_on = false;
	jump_label_many_apply();
	if (inc) {
		for (i = 0; i < nr; i = j) {
			for (j = i + 1; j < nr && keys[j] == keys[i]; j++)
				;
			/*
			 * Those who see the count positive must also see the
			 * text changes, as in static_key_slow_inc_cpuslocked().
			 */
			if (atomic_read(&keys[i]->enabled) == -1)
				atomic_set_release(&keys[i]->enabled, j - i);
		}
	}
	mutex_unlock(&jump_label_mutex);
	cpus_read_unlock();
	return edges;
}

/**
 * static_key_slow_inc_many() - static_key_slow_inc() of several keys at once
 * @keys: the keys, in any order, each as many times as it gains users;
 *	sorted in place
 * @nr: how many pointers @keys holds
 *
 * The jump entries of the keys that gain their first user are patched
 * together, in text_poke_bp() batches of up to TP_VEC_MAX entries, rather
 * than a batch for each key. Each key is enabled when this returns.
 *
 * Context: process context, may sleep; takes cpus_read_lock() and
 * jump_label_mutex, as static_key_slow_inc() does.
 * Return: how many keys were enabled (had no users before).
 */
unsigned int static_key_slow_inc_many(struct static_key **keys, unsigned int nr)
{
	return static_key_slow_many(keys, nr, true);
}
EXPORT_SYMBOL_GPL(static_key_slow_inc_many);

/**
 * static_key_slow_dec_many() - static_key_slow_dec() of several keys at once
 * @keys: the keys, in any order, each as many times as it loses users;
 *	sorted in place
 * @nr: how many pointers @keys holds
 *
 * The jump entries of the keys that lose their last user are patched
 * together, as in static_key_slow_inc_many(). Taking more users from a key
 * than it has warns once and leaves that key as it is.
 *
 * Context: process context, may sleep; takes cpus_read_lock() and
 * jump_label_mutex, as static_key_slow_dec() does.
 * Return: how many keys were disabled (have no users left).
 */
unsigned int static_key_slow_dec_many(struct static_key **keys, unsigned int nr)
{
	return static_key_slow_many(keys, nr, false);
}
EXPORT_SYMBOL_GPL(static_key_slow_dec_many);

#endif /* HAVE_JUMP_LABEL_BATCH */
