#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# debug-guest.sh - the integration suite on the debug kernel, run in the
# QEMU guest by vm.sh as the payload's run-tests.sh (intree.sh builds the
# payload, with the suite itself, run-tests.sh, as suite.sh).
#
# The kernel has lockdep, PROVE_RCU, KASAN, kmemleak and debug objects; vm.sh
# fails the run on any report of theirs in the log. Around the suite:
#
# - the boot log is printed, then cleared, so that the suite's closing
#   dmesg covers the suite only;
# - kmemleak forgets what boot left unreferenced (not the suite's doing),
#   and after the suite and the in-tree marker.ko check, scans: every
#   "unreferenced object" it prints fails the run;
# - marker.ko as built in tree (CONFIG_MARKERS=m) is loaded and finds the
#   sites of a module.
#
# The suite runs whole but for the kprobe tests of test.d/tools/, and for
# the groups the payload's ./skip names (make check: markerctl and tools,
# the user-space tools' tests; make check-debug: none): its tests of the
# markers' trace events run Debian's perf, bpftrace and trace-cmd here
# too, from the host's root, which vm.sh --hostfs shares over the 9p that
# configs/debug.config builds in.
#
# Exit: nonzero if the suite failed, a check failed or kmemleak found leaks.

# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh
# fail MSG: why a test failed, as a diagnostic line; returns 1
# shellcheck source=SCRIPTDIR/lib.sh
. ./lib.sh

KMEMLEAK=/sys/kernel/debug/kmemleak
LIST=/sys/kernel/debug/markers/list

# kmemleak's banner says "kmemleak:", which the rig takes for a report.
echo "# boot log follows"
dmesg | grep -v 'kmemleak: Kernel memory leak detector initialized'
dmesg -c >/dev/null

if [ ! -w "$KMEMLEAK" ]; then
	echo "# no $KMEMLEAK: not a kmemleak kernel"
	exit 1
fi
# Objects allocated at boot become reportable 5 s later; forget those.
sleep 6
echo scan >"$KMEMLEAK"
echo clear >"$KMEMLEAK"

rc=0
MARKERS_SUITE_DEBUG=1 sh ./suite.sh || rc=$?
dmesg -c >/dev/null		# the suite printed it

t_intree_marker_ko() {
	insmod intree-marker.ko || return 1
	insmod marker_example.ko || return 1
	n=$(grep -c '^subsys_mark[123] marker_example ' "$LIST")
	rmmod marker_example && rmmod marker || return 1
	[ "$n" = 3 ] || fail "$n sites of marker_example listed"
}

# Leaks: wait until the suite's objects are old enough, scan twice (an
# object seen referenced once is not reported), and print what is found.
t_kmemleak_scan() {
	sleep 6
	echo scan >"$KMEMLEAK"
	echo scan >"$KMEMLEAK"
	leaks=$(grep -c '^unreferenced object' "$KMEMLEAK")
	cat "$KMEMLEAK"
	[ "$leaks" = 0 ] || fail "kmemleak found $leaks leaks"
}

echo "TAP version 13"
echo "1..2"
if t_intree_marker_ko; then
	echo "ok 1 in-tree marker.ko finds module sites"
else
	echo "not ok 1 in-tree marker.ko finds module sites"
	rc=1
fi
if t_kmemleak_scan; then
	echo "ok 2 kmemleak scan: no leak"
else
	echo "not ok 2 kmemleak scan: no leak"
	rc=1
fi
echo "# kernel log since the suite's"
dmesg
exit "$rc"
