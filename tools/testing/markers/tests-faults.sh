# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-faults.sh - the registry under allocation failures, sourced by
# run-tests.sh (busybox sh) on the debug kernel only (debug-guest.sh sets
# MARKERS_SUITE_DEBUG=1: Debian's kernels have no CONFIG_FAULT_INJECTION).
#
# Each operation runs again and again with the n-th kmalloc() of the task
# that does it failing (failslab and /proc/self/fail-nth, see
# Documentation/fault-injection/fault-injection.rst), n = 1, 2, ... until a
# run in which no fault was injected. After each run:
#
# - a refused operation has changed nothing: the listing, the probes and
#   the offers are as before it (nothing half-armed, half-registered);
# - an operation that went through has done all of it: they are as after a
#   run without faults;
# - the undoing operation (disable, disconnect, rmmod), swept the same way
#   (m = 1, 2, ..., each run from the state after the operation), leaves
#   them as before, or, refused, as they were.
#
# An operation whose runs met no fault at all fails: the injection was not
# working. Busybox's insmod tries init_module() when finit_module() fails:
# a fault in the first load shows as a load that went through, and the
# state after it shows that the failed one left nothing behind.
# debug-guest.sh's kmemleak scan after the suite catches leaks.
#
# They assume marker.ko and marker_example.ko are loaded, and neither
# probe_example.ko, probe_offer_example.ko, marker_loader.ko nor
# marker_test_inline.ko is; each leaves them so.

FAILSLAB=$DBG/failslab

# snap: the registry's state, as its files show it
snap() {
	cat "$LIST" "$PROBES" "$OFFERS"
}

# fi_setup: fail GFP_KERNEL allocations too, from the kmalloc caches only
# (intree.sh boots the debug kernel with slub_debug=A,kmalloc-*, which
# marks them SLAB_FAILSLAB, for cache-filter: kmemleak's own caches are
# spared, whose failures it reports), print nothing (a call trace would
# fail the rig's log), and count the faults injected in "times", which
# each injected fault decrements, __GFP_NOWARN ones included
fi_setup() {
	[ -d "$FAILSLAB" ] || fail "no $FAILSLAB: not a CONFIG_FAILSLAB kernel" ||
		return 1
	grep -q 'slub_debug=A,kmalloc-\*' /proc/cmdline ||
		fail "booted without slub_debug=A,kmalloc-*" || return 1
	echo N >"$FAILSLAB/ignore-gfp-wait" &&
		echo Y >"$FAILSLAB/cache-filter" &&
		echo 0 >"$FAILSLAB/verbose" &&
		echo 1000000000 >"$FAILSLAB/times"
}

fi_count() {
	cat "$FAILSLAB/times"
}

# fi_run N CMD: CMD, a command line run by a shell of its own whose task
# has its N-th kmalloc() fail; sets fi_hit to 1 if the fault was
# injected, else 0. Return: CMD's status. A program must be run with
# "exec": it keeps the task, and with it the count (a forked child starts
# from none).
fi_run() {
	fi_before=$(fi_count)
	fi_rc=0
	sh -c "echo $1 >/proc/self/fail-nth && $2" >/dev/null 2>&1 ||
		fi_rc=$?
	fi_hit=0
	[ "$(fi_count)" = "$fi_before" ] || fi_hit=1
	return $fi_rc
}

# settled STATE: the registry's state is STATE, at once or once the sites
# it could not arm for want of memory ("retrying") are armed (from 1 s on)
settled() {
	i=0
	while [ "$(snap)" != "$1" ]; do
		grep -q '^[^ ]* [^ ]* [^ ]* retrying ' "$LIST" && [ $i -lt 10 ] ||
			return 1
		sleep 1
		i=$((i + 1))
	done
}

# fi_log: the kernel log so far, printed, then cleared, with the kernel's
# reports of the allocations it was made to fail told apart: warn_alloc()'s
# "vmalloc error" or "page allocation failure", a stack and the memory
# state, which the rig would take for a crash. Every other report is
# printed as it is, and fails the run.
fi_log() {
	dmesg -c | awk '
		/(vmalloc error|page allocation failure): / { inj = 1 }
		inj { sub(/Call Trace:/, "Stack of an injected failure:") }
		inj && /<\/TASK>/ { inj = 0 }
		{ print }'
}

# fi_refused NAME N CMD STATE: CMD's run N, refused, met a fault and left
# the state STATE as it was
fi_refused() {
	[ "$fi_hit" = 1 ] ||
		fail "$1: '$3' refused without a fault ($fi_rc)" || return 1
	[ "$(snap)" = "$4" ] ||
		fail "$1: fault $2: '$3' refused, state changed:" \
			"$(snap | grep -vxF "$4")"
}

# faults NAME DO UNDO: DO and UNDO (command lines) under faults, as above
faults() {
	fi_setup || return 1
	before=$(snap)
	# the reference: what DO does without faults
	sh -c "$2" >/dev/null 2>&1 || fail "$1: '$2' fails without faults" ||
		return 1
	after=$(snap)
	sh -c "$3" >/dev/null 2>&1 || fail "$1: '$3' fails without faults" ||
		return 1
	[ "$(snap)" = "$before" ] || fail "$1: '$3' does not undo '$2'" ||
		return 1

	n=1 hits=0 refused=0
	while [ $n -lt 2000 ]; do
		if fi_run $n "$2"; then
			settled "$after" ||
				fail "$1: fault $n: '$2' succeeded, state differs:" \
					"$(snap | grep -vxF "$after")" || return 1
			sh -c "$3" >/dev/null 2>&1 &&
				[ "$(snap)" = "$before" ] ||
				fail "$1: fault $n: '$3' does not undo it" ||
				return 1
			# a run that met no fault: every allocation was tried
			[ "$fi_hit" = 1 ] || break
		else
			fi_refused "$1" $n "$2" "$before" || return 1
			refused=$((refused + 1))
		fi
		hits=$((hits + fi_hit))
		n=$((n + 1))
	done
	[ $n -lt 2000 ] || fail "$1: '$2' still meets faults at 2000" ||
		return 1

	# then UNDO's sweep, each run from the state after DO
	m=1
	while :; do
		if [ "$(snap)" = "$before" ]; then
			sh -c "$2" >/dev/null 2>&1 ||
				fail "$1: '$2' fails without faults" || return 1
		fi
		if fi_run $m "$3"; then
			[ "$(snap)" = "$before" ] ||
				fail "$1: fault $m: '$3' left state:" \
					"$(snap | grep -vxF "$before")" || return 1
			[ "$fi_hit" = 1 ] || break
		else
			fi_refused "$1" $m "$3" "$after" || return 1
		fi
		m=$((m + 1))
		[ $m -lt 2000 ] || fail "$1: '$3' still meets faults at 2000" ||
			return 1
	done
	fi_log
	ktap_print_msg "$1: $n runs, $hits with a fault: $refused refused, $((hits - refused)) went through; undone in $m runs, the last without a fault"
	[ "$hits" -gt 0 ] || fail "$1: no fault was injected"
}

CTL="$DBG/markers/control"

# The control file: an action connected to a marker, and taken off it.
t_faults_control_enable() {
	faults control_enable "echo 'enable subsys_mark1 count' >$CTL" \
		"echo 'disable subsys_mark1' >$CTL"
}

# A probe module that registers its probe from its init, and unregisters
# it from its exit.
t_faults_probe_module() {
	faults probe_module "exec insmod probe_example.ko" "exec rmmod probe_example"
}

# An offered probe, connected and disconnected by name.
t_faults_offer_connect() {
	insmod probe_offer_example.ko || return 1
	faults offer_connect "echo 'connect probe_offered_mark3' >$CTL" \
		"echo 'disconnect probe_offered_mark3' >$CTL"
	rc=$?
	rmmod probe_offer_example || return 1
	return $rc
}

# The loader: a name and a glob, the second pending.
t_faults_loader() {
	faults loader "exec insmod marker_loader.ko 'markers=subsys_mark2,nosuch_*'" \
		"exec rmmod marker_loader"
}

# An annotated module arriving while a probe (the loader's) waits for its
# marker: it arrives armed, or not at all, or "retrying" until it is armed.
t_faults_arrival() {
	insmod marker_loader.ko markers=test_inline || return 1
	faults arrival "exec insmod marker_test_inline.ko" \
		"exec rmmod marker_test_inline"
	rc=$?
	rmmod marker_loader || return 1
	return $rc
}

# The suite on the debug kernel runs FAULT_TESTS, a few dozen runs; make
# faults runs FAULT_MODULE_TESTS too, a few hundred runs each (every
# allocation of a module load), about 4 minutes each.
# shellcheck disable=SC2034 # used by run-tests.sh
FAULT_TESTS="faults_control_enable faults_offer_connect"
# shellcheck disable=SC2034 # used by run-tests.sh
FAULT_MODULE_TESTS="faults_probe_module faults_loader faults_arrival"
