# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# kernel-bad.sh - what fails a run wherever it appears in a kernel log: a
# crash, a warning, a lockdep or RCU splat, a hang, a leak. One list for
# every log the rig judges: vm.sh greps each guest's console with it,
# intree.sh the log of kunit.py's guest. Sourced by bash scripts:
#
#	. "$here/kernel-bad.sh"
#	grep -E -- "$KERNEL_BAD" "$log"

KERNEL_BAD_PATTERNS=(
	'Oops'
	'WARNING:'
	'BUG:'
	'Call Trace:'
	'blocked for more than'
	'Kernel panic'
	'general protection fault'
	'KASAN'
	'UBSAN'
	'possible circular locking'
	'possible recursive locking'
	'suspicious RCU usage'
	'kmemleak:'
	'soft lockup'
	'hard LOCKUP'
	'rcu_.*self-detected stall'
	'unreferenced object'
)
# shellcheck disable=SC2034	# for the scripts that source this file
KERNEL_BAD=$(IFS='|'; echo "${KERNEL_BAD_PATTERNS[*]}")
