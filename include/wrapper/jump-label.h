/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compat: static keys updated in shared text_poke_bp() batches.
 *
 * No kernel has a call that enables several keys at once: the exported
 * static-key API patches each key's entries in a batch of their own (on
 * x86, three sync IPIs to every other CPU a key). A tree that carries the
 * markers (CONFIG_MARKERS_TREE) has static_key_slow_inc_many() and
 * static_key_slow_dec_many(), which scripts/integrate.sh adds to
 * kernel/jump_label.c (scripts/graft/kernel/jump_label.c) where the
 * architecture queues jump label updates (HAVE_JUMP_LABEL_BATCH, x86
 * since upstream "jump_label: Batch updates if arch supports it",
 * v5.3-rc1). Elsewhere, Debian's kernels among them, one key at a time.
 */
#ifndef _WRAPPER_JUMP_LABEL_H
#define _WRAPPER_JUMP_LABEL_H

#include <linux/jump_label.h>

#if defined(CONFIG_MARKERS_TREE) && defined(HAVE_JUMP_LABEL_BATCH)
#define MARKER_KEYS_BATCHED	true

unsigned int static_key_slow_inc_many(struct static_key **keys, unsigned int nr);
unsigned int static_key_slow_dec_many(struct static_key **keys, unsigned int nr);

/*
 * marker_keys_update() - add a user to each of @keys (@on), or take one
 * away; @keys is sorted in place. Returns how many keys were enabled or
 * disabled. Context: process context, may sleep.
 */
static inline unsigned int marker_keys_update(struct static_key **keys,
					      unsigned int nr, bool on)
{
	return on ? static_key_slow_inc_many(keys, nr) :
		    static_key_slow_dec_many(keys, nr);
}
#else
#define MARKER_KEYS_BATCHED	false

static inline unsigned int marker_keys_update(struct static_key **keys,
					      unsigned int nr, bool on)
{
	unsigned int i, edges = 0;

	for (i = 0; i < nr; i++) {
		if (on) {
			edges += !static_key_count(keys[i]);
			static_key_slow_inc(keys[i]);
		} else {
			static_key_slow_dec(keys[i]);
			edges += !static_key_count(keys[i]);
		}
	}
	return edges;
}
#endif

#endif /* _WRAPPER_JUMP_LABEL_H */
