#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# bench-guest.sh - the benchmark, run inside the QEMU guest by vm.sh as the
# payload's run-tests.sh (busybox sh). bench.sh reads its output lines:
#
#   INFO KEY VALUE...			about the guest
#   BENCH LABEL CASE N TICKS NS		one timed loop (see marker_bench.c)
#   SCALE MODULE OP NS COUNT KEYS JUMPS CALLS GPS IPIS
#					one arm, fire or disarm at scale, with
#					the deltas of markers/stats and of the
#					function-call IPIs of /proc/interrupts
#
# The payload's file "plan" says what to run: "cases" (every loop),
# "baseline" (the disarmed loops only) and/or "scale" (the scaling
# modules in scale/, in the order of scale/order; a module with a file
# scale/<module>.loadonly is only loaded and removed).

# The counters and results are lists of words, split on purpose.
# shellcheck disable=SC2046,SC2013

DBG=/sys/kernel/debug
TRACING=/sys/kernel/tracing
CTL=$DBG/marker_bench/ctl
RESULT=$DBG/marker_bench/result
STATS=$DBG/markers/stats
N=${N:-100000}		# loop iterations of a case
NK=${NK:-10000}		# ... of a kprobe case
R=${R:-5}		# runs of each case
PLAN=$(cat plan)
rc=0

echo 1 >/proc/sys/kernel/printk

fail() {
	echo "FAIL $*"
	rc=1
}

ctl() {
	echo "$*" >$CTL || fail "ctl: $*"
}

# run LABEL CASE N: R timed loops
run() {
	i=0
	while [ $i -lt "$R" ]; do
		ctl "run $2 $3"
		echo "BENCH $1 $(cat $RESULT)"
		i=$((i + 1))
	done
}

stat() {
	awk -v k="$1" '$1 == k { print $2 }' $STATS
}

# The function-call IPIs received, summed over the CPUs: one a CPU for
# each text_poke_sync() of another.
ipis() {
	awk '$1 == "CAL:" { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i }
	     END { print s + 0 }' /proc/interrupts
}

counters() {
	echo "$(stat key_updates) $(stat jump_updates) $(stat call_updates) $(stat grace_periods) $(ipis)"
}

# scale_op MODULE OP ARGS...: run "scale OP ARGS", print its SCALE line
scale_op() {
	mod=$1
	shift
	set -- $(counters) "$@"
	k=$1 j=$2 c=$3 g=$4 p=$5
	shift 5
	ctl "scale $*"
	set -- $(cat $RESULT) $(counters)
	echo "SCALE $mod $1 $2 $3 $(($4 - k)) $(($5 - j)) $(($6 - c)) $(($7 - g)) $(($8 - p))"
}

info() {
	echo "INFO $*"
}

info kernel "$(uname -r)"
info version "$(cat /proc/version)"
info cpus "$(grep -c ^processor /proc/cpuinfo)"
info cpu "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
info clocksource "$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
info cmdline "$(cat /proc/cmdline)"
for v in /sys/devices/system/cpu/vulnerabilities/*; do
	info vuln "$(basename "$v")" "$(cat "$v")"
done

insmod marker.ko || fail "insmod marker.ko"
insmod marker_bench.ko || fail "insmod marker_bench.ko"

case " $PLAN " in *" cases "* | *" baseline "*)
	run empty empty "$N"
	run key key "$N"
	run tp tp "$N"
	run ev ev "$N"
	run nz nz "$N"
	run pt pt "$N"
	run nz-tail nz-tail "$N"
	run pt-tail pt-tail "$N"
	run empty3 empty3 "$N"
	run tp3 tp3 "$N"
	run nz3 nz3 "$N"
	run pt3 pt3 "$N"
esac

case " $PLAN " in *" cases "*)
	for site in nz pt; do
		for probes in "typed 1" "generic 1" "typed 2" "typed 3" \
			      "typed 8" "generic 3"; do
			ctl "arm $site $probes"
			run "$site-armed-$(echo "$probes" | tr ' ' -)" "$site" "$N"
			ctl disarm
		done
	done
	# the tracepoint with as many empty probes, in the same boot
	for nr in 1 2 3 8; do
		ctl "arm tp $nr"
		run "tp-armed-typed-$nr" tp "$N"
		ctl disarm
	done

	# An enabled trace event recording into ftrace: bench_nz's marker
	# event beside a TRACE_EVENT with the same int field; then each with
	# a filter that drops every record.
	for ev in markers/bench_nz:nz-event:nz marker_bench/bench_ev:tp-event:ev; do
		set -- $(echo "$ev" | tr : ' ')
		echo 1 >"$TRACING/events/$1/enable" || fail "enable $1"
		run "$2" "$3" "$N"
		echo 'arg1 < 0' >"$TRACING/events/$1/filter" || fail "filter $1"
		run "$2-filtered" "$3" "$N"
		echo 0 >"$TRACING/events/$1/filter"
		echo 0 >"$TRACING/events/$1/enable"
	done
	echo >"$TRACING/trace"

	# The registry's count action on bench_nz: alone, then behind a
	# predicate true at every hit, then one false at every hit, the test
	# of the event filter above (a filtered-out hit).
	for pred in count:"" count-pred-true:" if arg1 >= 0" \
		    count-pred-false:" if arg1 < 0"; do
		echo "enable bench_nz count${pred#*:}" >$DBG/markers/control ||
			fail "enable bench_nz count${pred#*:}"
		run "nz-${pred%%:*}" nz "$N"
		echo 'disable bench_nz' >$DBG/markers/control
	done

	# A kprobe on the near-zero site's symbol, int3 then optimized.
	echo 0 >/proc/sys/debug/kprobes-optimization
	ctl kprobe
	info kprobe-int3 "$(grep __mark_kprobe_bench_nz $DBG/kprobes/list)"
	run kprobe-int3 nz "$NK"
	ctl disarm
	echo 1 >/proc/sys/debug/kprobes-optimization
	ctl kprobe
	i=0
	while [ $i -lt 120 ] &&
	      ! grep __mark_kprobe_bench_nz $DBG/kprobes/list | grep -q OPTIMIZED; do
		sleep 0.5
		i=$((i + 1))
	done
	info kprobe-opt "$(grep __mark_kprobe_bench_nz $DBG/kprobes/list)"
	if grep __mark_kprobe_bench_nz $DBG/kprobes/list | grep -q OPTIMIZED; then
		run kprobe-opt nz "$NK"
	fi
	ctl disarm
	# the baseline again, at the end of the boot
	run empty-end empty "$N"
esac

case " $PLAN " in *" scale "*)
	for ko in $(cat scale/order); do
		mod=$(basename "$ko" .ko)
		prefix=$(cat "scale/$mod.prefix")
		nr=$(cat "scale/$mod.names")
		# the registry learns the sites: timed with /proc/uptime (10 ms)
		set -- $(counters) "$(cut -d' ' -f1 /proc/uptime)"
		insmod "scale/$ko" || { fail "insmod $ko"; continue; }
		set -- "$@" "$(cut -d' ' -f1 /proc/uptime)" $(counters)
		echo "SCALE $mod load $(awk -v a="$6" -v b="$7" 'BEGIN { printf "%.0f", (b - a) * 1e9 }')" \
			"0 $(($8 - $1)) $(($9 - $2)) $((${10} - $3)) $((${11} - $4)) $((${12} - $5))"
		if [ -f "scale/$mod.loadonly" ]; then
			rmmod "$mod" || fail "rmmod $mod"
			continue
		fi
		scale_op "$mod" arm "$prefix*"
		scale_op "$mod" fire
		scale_op "$mod" disarm
		if [ -f "scale/$mod.typed" ]; then
			scale_op "$mod" typed "$prefix" "$nr"
			scale_op "$mod" fire
			scale_op "$mod" disarm
		fi
		rmmod "$mod" || fail "rmmod $mod"
	done
esac

rmmod marker_bench || fail "rmmod marker_bench"
rmmod marker || fail "rmmod marker"
echo "# kernel log follows"
dmesg
exit $rc
