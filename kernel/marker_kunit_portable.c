// SPDX-License-Identifier: GPL-2.0-only
/*
 * The marker_registry KUnit suite's second copy of its sites, compiled in
 * portable mode (jump target compared and branched on) whatever the
 * architecture picks, so both modes are tested in one kernel.
 * See marker_kunit.c.
 */
#define MARKERS_FORCE_PORTABLE

#include <linux/marker.h>
#include <linux/stringify.h>

#include "marker_kunit.h"

#define MKT_SUFFIX	portable
#define MKT_TARGETS	mkt_portable_targets
#define MKT_DESC	"portable"
#include "marker_kunit_sites.h"
