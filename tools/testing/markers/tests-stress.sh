# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-stress.sh - the stress test, sourced by run-tests.sh (busybox sh),
# whose helpers (fail) and variables ($DBG, $LIST, $PROBES) it uses.
#
# While marker_test_stress.ko's threads fire stress_a and stress_b in a
# loop on every CPU, each cycle does one of, in turn: connect and
# disconnect probe Q (marker_test_stress_probe.ko's, on "stress_*"); load
# and unload the loader on stress_*; enable and disable an action through
# the control file (print, then stack); load and unload an annotated
# module (marker_test_race.ko); load and unload a probe module
# (marker_test_probe.ko); and the same steps interleaved. Throughout, probe
# P stays connected to stress_a, and a kernel thread connects and
# disconnects probe R (on "stress_*") in a loop, racing each step: its
# rounds are the cycles no exec slows down. Then, with no probe module
# left, the registry itself is unloaded and loaded under the firing
# threads, with an action enabled and disabled each time: one such cycle
# for ten steps, at most 20 (one costs about 16 s on the debug kernel).
#
# Exact accounting: P's hits equal the threads' passes (no hit lost while
# the site's probe array changes under it), Q never runs after its
# marker_probe_unregister() returned (late = 0), nor R, and the kernel log
# has no report. One line: "# stress: C cycles (S steps, G registry, K
# rounds of R), F fires, H hits, L lost, X late, R reports". STRESS_CYCLES
# (the steps), default 40 (make check); make stress sets it on the kernel
# command line (an environment variable of init).
#
# Assumes marker.ko and marker_test_sites.ko are loaded, nothing enabled.

STRESS=$DBG/marker_test_stress
STRESS_PROBE=$DBG/marker_test_stress_probe
# KERNEL_BAD: the kernel's reports, the lines for which vm.sh fails a run
# (vm.sh ships kernel-bad.sh in the payload)
# shellcheck source=SCRIPTDIR/kernel-bad.sh
. ./kernel-bad.sh

# uptime_cs: $now, the guest's uptime in centiseconds (read is built in:
# no fork)
uptime_cs() {
	read -r up _ </proc/uptime
	now=${up%.*}${up#*.}
}

# stress_cycle N: the Nth cycle's steps; nonzero when one was refused
stress_cycle() {
	ctl=$DBG/markers/control
	case $(($1 % 7)) in
	0) echo 1 >$STRESS_PROBE/q && echo 0 >$STRESS_PROBE/q ;;
	1) insmod marker_loader.ko 'markers=stress_*' action=count &&
		rmmod marker_loader ;;
	2) echo 'enable stress_b print' >$ctl && echo 'disable stress_b' >$ctl ;;
	3) echo 'enable stress_* stack' >$ctl && echo 'disable stress_*' >$ctl ;;
	4) insmod marker_test_race.ko && rmmod marker_test_race ;;
	5) insmod marker_test_probe.ko probe=loop && rmmod marker_test_probe ;;
	6) echo 1 >$STRESS_PROBE/q &&
		insmod marker_loader.ko markers=stress_a action=count &&
		echo 'enable stress_b count' >$ctl &&
		echo 0 >$STRESS_PROBE/q &&
		rmmod marker_loader &&
		echo 'disable stress_b' >$ctl ;;
	esac
}

t_stress() {
	cycles=${STRESS_CYCLES:-40}
	reports=$(dmesg | grep -cE "$KERNEL_BAD")
	insmod marker_test_stress.ko || return 1
	insmod marker_test_stress_probe.ko || { rmmod marker_test_stress; return 1; }
	rc=0
	echo 1 >$STRESS/run || rc=1
	echo 1 >$STRESS_PROBE/churn || rc=1
	c=0
	cs0=0 cs1=0 cs2=0 cs3=0 cs4=0 cs5=0 cs6=0
	while [ $c -lt "$cycles" ] && [ $rc = 0 ]; do
		uptime_cs
		since=$now
		stress_cycle $c || { fail "cycle $c refused"; rc=1; }
		uptime_cs
		eval "cs$((c % 7))=\$((cs$((c % 7)) + now - since))"
		c=$((c + 1))
	done
	# what a cycle of each kind took, in the guest's time (no assertion)
	echo "# stress: centiseconds by kind (Q, loader, print, stack, annotated, probe module, interleaved): $cs0 $cs1 $cs2 $cs3 $cs4 $cs5 $cs6"
	echo 0 >$STRESS_PROBE/churn
	echo 0 >$STRESS/run
	fires=$(cat $STRESS/fires)
	hits=$(cat $STRESS_PROBE/hits)
	qhits=$(cat $STRESS_PROBE/qhits)
	late=$(($(cat $STRESS_PROBE/late) + $(cat $STRESS_PROBE/rlate)))
	rounds=$(cat $STRESS_PROBE/rounds)
	rhits=$(cat $STRESS_PROBE/rhits)
	rrefused=$(cat $STRESS_PROBE/rrefused)
	rmmod marker_test_stress_probe || rc=1

	# the registry comes and goes under the firing threads
	echo 1 >$STRESS/run || rc=1
	uptime_cs
	since=$now
	r=0
	regs=$((cycles / 10 + 1))
	[ $regs -le 20 ] || regs=20
	while [ $r -lt $regs ] && [ $rc = 0 ]; do
		{ rmmod marker && insmod marker.ko &&
		  echo 'enable stress_a count' >$DBG/markers/control &&
		  echo 'disable stress_a' >$DBG/markers/control; } ||
			{ fail "registry cycle $r refused"; rc=1; }
		r=$((r + 1))
	done
	uptime_cs
	echo "# stress: $r registry cycles in $((now - since)) centiseconds"
	echo 0 >$STRESS/run
	rmmod marker_test_stress || rc=1
	[ -d $DBG/markers ] || insmod marker.ko || rc=1

	reports=$(($(dmesg | grep -cE "$KERNEL_BAD") - reports))
	echo "# stress: $((c + r + rounds)) cycles ($c steps, $r registry, $rounds rounds of R), $fires fires, $hits hits, $((fires - hits)) lost, $late late, $reports reports ($qhits hits of Q, $rhits of R)"
	[ "$fires" -gt 0 ] || { fail "no fire"; rc=1; }
	[ "$rounds" -gt 0 ] || { fail "R made no round"; rc=1; }
	[ "$rhits" -gt 0 ] || { fail "R never ran"; rc=1; }
	[ "$rrefused" = 0 ] || { fail "R refused $rrefused times"; rc=1; }
	[ "$hits" = "$fires" ] || { fail "P: $hits hits for $fires fires"; rc=1; }
	[ "$qhits" -gt 0 ] || { fail "Q never ran"; rc=1; }
	[ "$late" = 0 ] || { fail "Q and R ran $late times after they were disconnected"; rc=1; }
	[ "$reports" = 0 ] || { fail "$reports kernel reports"; rc=1; }
	[ "$(grep -vc '^#' "$PROBES")" = 0 ] || { fail "$(cat "$PROBES")"; rc=1; }
	return $rc
}
