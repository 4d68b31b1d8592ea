# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# kernel-bad.sh - what fails a run wherever it appears in a kernel log: a
# crash, a warning, a lockdep or RCU splat, a hang, a leak. One list for
# every log the rig judges: vm.sh greps each guest's console with it,
# intree.sh the log of kunit.py's guest, and in the guest test.d/stress/
# counts the reports of its run in dmesg. POSIX sh, for the guest's busybox
# sh too (vm.sh copies it into every payload, beside ktap.sh). Sourced:
#
#	. "$here/kernel-bad.sh"		(host; in the guest: . ./kernel-bad.sh)
#	grep -E -- "$KERNEL_BAD" "$log"

# one extended regular expression, the patterns joined with "|"
KERNEL_BAD=$(printf '%s|' \
	'Oops' \
	'WARNING:' \
	'BUG:' \
	'Call Trace:' \
	'blocked for more than' \
	'Kernel panic' \
	'general protection fault' \
	'KASAN' \
	'UBSAN' \
	'possible circular locking' \
	'possible recursive locking' \
	'suspicious RCU usage' \
	'kmemleak:' \
	'soft lockup' \
	'hard LOCKUP' \
	'rcu_.*self-detected stall' \
	'unreferenced object')
# shellcheck disable=SC2034	# for the scripts that source this file
KERNEL_BAD=${KERNEL_BAD%'|'}
