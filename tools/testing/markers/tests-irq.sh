# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-irq.sh - markers fired in interrupt context, sourced by run-tests.sh
# (busybox sh), whose helpers (fail, site, state, field, hits_of) and
# variables ($LIST, $PROBES, $DBG, $INSTANCE) they use.
#
# marker_test_irq.ko fires test_irq_hard from a hard irq_work (hardirq, on
# PREEMPT_RT too), test_irq_thread from the thread_fn of a threaded
# interrupt (an irq descriptor of its own, raised from hardirq) and
# test_irq_soft from a timer (softirq); each checks its own context and
# counts a mismatch in "bad". The actions (count, print, stack) run there
# with preemption disabled, and must take no sleeping lock: on the RT
# kernel a spinlock_t would be one ("BUG: sleeping function called from
# invalid context"); on the debug kernel, PROVE_RAW_LOCK_NESTING reports
# a spinlock_t taken in hardirq ("Invalid wait context"). vm.sh fails the
# run on either.
#
# The tests of $IRQ_TESTS assume marker.ko is loaded and run in order:
# the first loads marker_test_irq.ko, the last removes it.

IRQ_DIR=$DBG/marker_test_irq
IRQ_MARKERS="test_irq_hard test_irq_thread test_irq_soft"

irq_bad() {
	cat $IRQ_DIR/bad
}

irq_runs() {
	cat $IRQ_DIR/runs
}

# irq_hits: the hits of the three markers, "H T S"
irq_hits() {
	for m in $IRQ_MARKERS; do
		hits_of $m marker_test_irq
	done | paste -sd ' ' -
}

# irq_flags LINE: the irq-info column of a trace line (after "[CPU]"): h or
# H in hardirq, s in softirq (other letters: d, N, n, p, b; digits)
irq_flags() {
	echo "$1" | awk '{ for (i = 1; i < NF; i++) if ($i ~ /^\[[0-9]+\]$/) { print $(i + 1); exit } }'
}

t_irq_sites_listed() {
	insmod marker_test_irq.ko || return 1
	for m in $IRQ_MARKERS; do
		[ "$(state $m marker_test_irq)" = disarmed ] &&
			[ "$(col signature "$(site $m marker_test_irq)")" = i ] ||
			fail "$m: $(site $m marker_test_irq)" || return 1
	done
	grep -q ' mtirq$' /proc/interrupts || fail "no mtirq in /proc/interrupts"
}

# Disarmed, each context still runs, in its own context.
t_irq_contexts_disarmed() {
	echo 10 >$IRQ_DIR/fire || fail "fire: $(irq_runs)" || return 1
	[ "$(irq_runs)" = "hard 10 thread 10 soft 10" ] && [ "$(irq_bad)" = 0 ] &&
		[ "$(irq_hits)" = "0 0 0" ] ||
		fail "runs $(irq_runs), bad $(irq_bad), hits $(irq_hits)"
}

t_irq_count_each_context() {
	echo 'enable test_irq_* count' >$DBG/markers/control || return 1
	rc=0
	echo 50 >$IRQ_DIR/fire || { fail "fire: $(irq_runs)"; rc=1; }
	echo 'disable test_irq_*' >$DBG/markers/control || rc=1
	[ "$(irq_hits)" = "50 50 50" ] && [ "$(irq_bad)" = 0 ] ||
		{ fail "hits $(irq_hits), bad $(irq_bad)"; rc=1; }
	return $rc
}

# print writes each hit to the instance, from the context it came from:
# the hard one's line says hardirq (h), the soft one's softirq (s), the
# threaded one's task is its irq thread (irq/N-mtirq; on RT, where the
# primary handler is forced into a thread too, irq/N-s-mtirq), and says
# neither.
t_irq_print_each_context() {
	echo >$INSTANCE/trace
	rc=0
	for m in $IRQ_MARKERS; do
		echo "enable $m print" >$DBG/markers/control || { fail "$m refused"; rc=1; }
	done
	echo 5 >$IRQ_DIR/fire || { fail "fire: $(irq_runs)"; rc=1; }
	for m in $IRQ_MARKERS; do
		echo "disable $m" >$DBG/markers/control || rc=1
	done
	[ $rc = 0 ] || return 1
	for m in $IRQ_MARKERS; do
		[ "$(grep -c ": $m: [1-5]\$" $INSTANCE/trace)" = 5 ] ||
			fail "$m: $(grep ": $m:" $INSTANCE/trace)" || return 1
		for i in 1 2 3 4 5; do
			l=$(grep ": $m: $i\$" $INSTANCE/trace)
			f=$(irq_flags "$l")
			case "$m:$f" in
			test_irq_hard:*[hH]*|test_irq_soft:*s*) ;;
			test_irq_thread:*[hHszZ]*)
				fail "in interrupt: $l" || return 1 ;;
			test_irq_thread:*)
				# the trace may say "<...>": ask /proc
				pid=$(echo "$l" | awk '{ sub(/.*-/, "", $1); print $1 }')
				grep -qE '^irq/[0-9]+-(s-)?mtirq$' "/proc/$pid/comm" ||
					fail "not the irq thread ($(cat "/proc/$pid/comm")): $l" ||
					return 1 ;;
			*)	fail "$m: flags '$f': $l" || return 1 ;;
			esac
		done
	done
	[ "$(irq_hits)" = "55 55 55" ] && [ "$(irq_bad)" = 0 ] ||
		fail "hits $(irq_hits), bad $(irq_bad)"
}

# stack also saves and prints the stack, here an interrupt's.
t_irq_stack_each_context() {
	echo >$INSTANCE/trace
	insmod marker_loader.ko 'markers=test_irq_*' action=stack || return 1
	rc=0
	echo 2 >$IRQ_DIR/fire || { fail "fire: $(irq_runs)"; rc=1; }
	rmmod marker_loader || rc=1
	for m in $IRQ_MARKERS; do
		[ "$(grep -c ": $m: [12]\$" $INSTANCE/trace)" = 2 ] ||
			{ fail "$m: $(grep ": $m:" $INSTANCE/trace)"; rc=1; }
	done
	grep -q ' => ' $INSTANCE/trace || { fail "no stack frame"; rc=1; }
	[ "$(irq_hits)" = "57 57 57" ] && [ "$(irq_bad)" = 0 ] ||
		{ fail "hits $(irq_hits), bad $(irq_bad)"; rc=1; }
	return $rc
}

t_irq_module_leaves() {
	rmmod marker_test_irq || return 1
	! grep -q ' marker_test_irq ' "$LIST" || fail "$(grep ' marker_test_irq ' "$LIST")" ||
		return 1
	! grep -q ' mtirq$' /proc/interrupts || fail "mtirq still in /proc/interrupts"
}

# shellcheck disable=SC2034 # used by run-tests.sh
IRQ_TESTS="irq_sites_listed irq_contexts_disarmed irq_count_each_context
irq_print_each_context irq_stack_each_context irq_module_leaves"
