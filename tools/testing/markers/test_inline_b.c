// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_inline_b.c - marker_test_inline.ko: the header inline's test_inline
 * site again, in a second file (see test_inline_a.c).
 */
#include "marker_test_inline.h"

noinline void inline_b1(int i)
{
	test_inline_hit(i);
}
