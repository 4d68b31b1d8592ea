#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# hot-paths-guest.sh - make bench's measurement of scripts/graft/hot-paths/,
# run in the QEMU guest by vm.sh as the payload's run-tests.sh (intree.sh,
# stage hotpaths), once on each of two kernels built from the same tree
# and configs/hot-paths.config: "on", CONFIG_MARKERS=y (the five markers
# compiled in, disarmed), and "off", CONFIG_MARKERS=n (MARK() compiled
# away). The payload's file "variant" says which. The guest runs on one
# vCPU under -icount shift=0: hot-paths-load's nanoseconds are
# instructions.

# shellcheck disable=SC2317 # the tests are called by name
# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh
# shellcheck source=SCRIPTDIR/lib.sh
. ./lib.sh

LIST=/sys/kernel/debug/markers/list
HOT="sched_switch fs_open block_submit_bio net_dev_xmit mm_page_alloc"
VARIANT=$(cat variant)
# per phase, and runs of each (the least counts); a first run, of 200
# rounds, warms the caches the measured ones use
ROUNDS=${ROUNDS:-1000}
REPS=${REPS:-9}

echo 1 >/proc/sys/kernel/printk

# on: every marker of the patch set listed in vmlinux, one site, disarmed,
# a NOP; off: no registry at all
t_sites() {
	if [ "$VARIANT" = off ]; then
		[ ! -e "$LIST" ] || fail "CONFIG_MARKERS=n, yet $LIST exists"
		return
	fi
	for m in $HOT; do
		s=$(site "$m" kernel)
		[ "$(echo "$s" | grep -c .)" = 1 ] || fail "$m: '$s'" || return 1
		[ "$(col state "$s")" = disarmed ] || fail "$m: '$s'" || return 1
		is_nop "$(col code "$s")" || fail "$m: '$s'" || return 1
	done
}

# the workload, warm then measured; its lines copied to the log as they are.
# At the same addresses from boot to boot: where the mmap()s land decides
# whether a round frees and allocates a page table (4800 instructions a
# round of the page phase, either kernel).
t_workload() {
	echo 0 >/proc/sys/kernel/randomize_va_space
	./hot-paths-load 200 1 ./hot-paths-load /dev/ram0 >/dev/null ||
		return 1
	# what boot left running settles while the CPU idles
	sleep 2
	./hot-paths-load "$ROUNDS" "$REPS" ./hot-paths-load /dev/ram0 \
		>load.out || return 1
	echo "# hot-paths $VARIANT: reps $REPS"
	sed "s/^hot-paths-load: /# hot-paths $VARIANT: /" load.out
	[ "$(grep -c '^hot-paths-load: [a-z]* [0-9]* ns [0-9]* max [0-9]*$' load.out)" = 6 ] ||
		fail "$(cat load.out)"
}

# nothing armed the markers meanwhile
t_still_disarmed() {
	t_sites
}

TESTS="sites workload still_disarmed"

ktap_print_header
# shellcheck disable=SC2086
ktap_set_plan "$(echo $TESTS | wc -w)"
for t in $TESTS; do
	if "t_$t"; then
		ktap_test_pass "hotpaths $VARIANT: $t"
	else
		ktap_test_fail "hotpaths $VARIANT: $t"
	fi
done

echo "# kernel log follows"
dmesg
ktap_finished
