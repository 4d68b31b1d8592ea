/* SPDX-License-Identifier: GPL-2.0-only */
/* tp.h - a marker in a header inline, used from both files. */
#ifndef _TP_H
#define _TP_H

#include <linux/marker.h>
#include <linux/types.h>

static inline void tp_step(int i, u64 total)
{
	MARK(tp_step, "i=%d total=%llu", i, total);
}

void tp_helper(const char *who, unsigned int n);

#endif
