/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel version the markers are built against, for the compat
 * headers of include/wrapper/: one header per kernel API that differs
 * between the supported kernels, each #if naming the upstream change.
 *
 *   #if MARKER_KERNEL_VERSION >= MARKER_KV(6, 7, 0)
 *
 * The oldest supported kernel is 6.1 (Debian 12); older ones stop here.
 */
#ifndef _WRAPPER_KERNEL_VERSION_H
#define _WRAPPER_KERNEL_VERSION_H

#include <linux/version.h>

#define MARKER_KERNEL_VERSION	LINUX_VERSION_CODE

/* As KERNEL_VERSION(): a sublevel above 255 (6.1.256...) reads as 255. */
#define MARKER_KV(a, b, c) \
	(((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))

#if MARKER_KERNEL_VERSION < MARKER_KV(6, 1, 0)
#error "markers: Linux 6.1 or later is required"
#endif

#endif /* _WRAPPER_KERNEL_VERSION_H */
