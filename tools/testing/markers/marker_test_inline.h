/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * marker_test_inline.h - a marker in a header inline, included by the two
 * files of marker_test_inline.ko: every file that calls the helper gets a
 * copy of the site, each with a kprobe symbol of its own.
 */
#ifndef _MARKER_TEST_INLINE_H
#define _MARKER_TEST_INLINE_H

#include <linux/marker.h>

static inline void test_inline_hit(int i)
{
	MARK(test_inline, "%d", i);
}

void inline_b1(int i);

#endif
