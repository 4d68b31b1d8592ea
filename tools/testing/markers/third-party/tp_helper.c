// SPDX-License-Identifier: GPL-2.0-only
/* tp_helper.c - thirdparty_example.ko: the header inline in a second file. */
#include "tp.h"

void tp_helper(const char *who, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tp_step(-(int)i, i);
	MARK(tp_who, "%s %u", who, n);
}
