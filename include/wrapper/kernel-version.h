/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kernel version the markers are built against, for the compat
 * headers of include/wrapper/: one header per kernel API that differs
 * between the supported kernels, each #if naming the upstream change.
 *
 *   #if MARKER_KERNEL_AT_LEAST(6, 7, 0)
 *
 * The oldest supported kernel is 6.1 (Debian 12); older ones stop here.
 */
#ifndef _WRAPPER_KERNEL_VERSION_H
#define _WRAPPER_KERNEL_VERSION_H

#include <linux/version.h>

/*
 * The project's only use of LINUX_VERSION_CODE, which checkpatch rightly
 * warns of in code meant for one tree (style.sh accepts it here only).
 * The kernel clamps a sublevel above 255 to 255 (6.1.256 and later read
 * as 6.1.255): compare with sublevels of at most 255.
 */
#define MARKER_KERNEL_VERSION	LINUX_VERSION_CODE

#define MARKER_KV(a, b, c)	(((a) << 16) + ((b) << 8) + (c))

/* Is the kernel a.b.c or later? */
#define MARKER_KERNEL_AT_LEAST(a, b, c) \
	(MARKER_KV(a, b, c) <= MARKER_KERNEL_VERSION)

#if !MARKER_KERNEL_AT_LEAST(6, 1, 0)
#error "markers: Linux 6.1 or later is required"
#endif

#endif /* _WRAPPER_KERNEL_VERSION_H */
