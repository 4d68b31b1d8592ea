/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compat: put_unaligned() and its kin.
 */
#ifndef _WRAPPER_UNALIGNED_H
#define _WRAPPER_UNALIGNED_H

#include <wrapper/kernel-version.h>

#if MARKER_KERNEL_AT_LEAST(6, 12, 0)
/*
 * 6.12: the header is <linux/unaligned.h>, <asm/unaligned.h> is gone
 * (upstream "move asm/unaligned.h to linux/unaligned.h", v6.12-rc2).
 */
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#endif /* _WRAPPER_UNALIGNED_H */
