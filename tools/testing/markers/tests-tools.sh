# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-tools.sh - guest tests of the tracing tools the documentation
# names (Debian's perf, bpftrace and trace-cmd), sourced by run-tests.sh
# (busybox sh), whose helpers (fail, site, items, ksyms) and variables
# ($LIST, $DBG, $TRACING) they use. Each runs the documented command as
# the documentation writes it, in "chroot /host": the host's root, shared
# read-only by vm.sh --hostfs and mounted by guest-init.sh with /proc,
# /sys, debugfs, tracefs, /dev and a tmpfs /tmp inside it. No /host is a
# failure, never a skip.
#
# The tests of $TOOLS_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe or kprobe event is
# attached; each leaves them so.

# tt_run CMD: run the command line CMD in the host's root, in /tmp, output
# in /tmp/tt.out (stdout and stderr), never longer than 120 s, or 600 s on
# the debug kernel, where bpftrace starts slowly (KASAN, no BTF): its
# tracepoint test took 175 s there once.
# "WARNING:" in the tools' messages would read as a kernel warning in the
# log: tt_out prints them with it spelled otherwise.
tt_run() {
	[ -x /host/usr/bin/perf ] || fail "no /host/usr/bin/perf: vm.sh --hostfs?" ||
		return 1
	tt_rc=0
	tt_limit=120
	[ "${MARKERS_SUITE_DEBUG:-0}" = 1 ] && tt_limit=600
	timeout "$tt_limit" chroot /host /usr/bin/env HOME=/tmp \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/sh -c "cd /tmp && $1" >/host/tmp/tt.out 2>&1 || tt_rc=$?
	return $tt_rc
}

tt_out() {
	sed 's/WARNING/Warning/g' /host/tmp/tt.out | tail -n 8
}

# tt_kprobes_clear: no kprobe event left (the tests' own, and perf's)
tt_kprobes_clear() {
	for e in $(awk '{ sub(/^[pr]:/, "", $1); print $1 }' $TRACING/kprobe_events |
		   sort -u); do
		{ echo 0 >"$TRACING/events/$e/enable"; } 2>/dev/null
		echo "-:$e" >>$TRACING/kprobe_events
	done
	[ ! -s $TRACING/kprobe_events ] ||
		fail "kprobe events left: $(cat $TRACING/kprobe_events)"
}

# Documentation/markers.rst, "The kprobe symbol": perf probe cannot place
# a probe at a label (see there), so a kprobe_events line does, and perf
# counts its event: exactly one hit a cat.
t_perf_stat_at_a_sites_symbol() {
	tt_kprobes_clear || return 1
	echo 'p:markers/mk3 marker_example:__mark_kprobe_subsys_mark3' >> \
		/sys/kernel/tracing/kprobe_events ||
		fail "kprobe_events: $(cat $TRACING/error_log)" || return 1
	tt_ok=0
	tt_run 'perf stat -e markers:mk3 -a -- cat /proc/testmark' ||
		[ "$tt_rc" = 1 ] || { fail "perf stat: rc $tt_rc: $(tt_out)"; tt_ok=1; }
	n=$(awk '$2 == "markers:mk3" { print $1 }' /host/tmp/tt.out)
	[ $tt_ok = 1 ] || [ "$n" = 1 ] || { fail "perf stat counted '$n': $(tt_out)"; tt_ok=1; }
	echo '-:markers/mk3' >> /sys/kernel/tracing/kprobe_events || tt_ok=1
	tt_kprobes_clear || tt_ok=1
	return $tt_ok
}

# Documentation/markers.rst: perf probe at a label probes the addresses of
# its source line, not the site: it adds points at offsets into the
# function past the site (one or several, and may fail after some), or
# fails and adds none. A point at the symbol itself would be the site: the
# documentation would be wrong.
t_perf_probe_at_a_label_misses() {
	tt_kprobes_clear || return 1
	cp marker_example.ko /host/tmp/ || return 1
	tt_ok=0
	tt_run 'perf probe -m ./marker_example.ko -a __mark_kprobe_subsys_mark3'
	n=$(grep -c . $TRACING/kprobe_events)
	# "p:probe/x marker_example:__mark_kprobe_subsys_mark3+176": the
	# offset of each point; the site is at +0
	at_site=$(awk '{ n = split($2, a, "+"); if (n == 1 || a[2] == 0) print }' \
		$TRACING/kprobe_events)
	{ [ "$n" -ge 1 ] || [ "$tt_rc" != 0 ]; } && [ -z "$at_site" ] ||
		{ fail "perf probe: rc $tt_rc, $n points: $(cat $TRACING/kprobe_events)"; tt_ok=1; }
	tt_kprobes_clear || tt_ok=1
	return $tt_ok
}

# Every site's symbol of marker_test_inline (three copies of test_inline
# in two files): a kprobe event at each, perf stat counts each, firing 5
# times: 5 at each, 15 in all, the marker's own count.
t_perf_stat_at_every_sites_symbol() {
	tt_kprobes_clear || return 1
	insmod marker_test_inline.ko || return 1
	syms=$(ksyms test_inline marker_test_inline)
	tt_ok=0 n=0 evs=''
	for s in $syms; do
		n=$((n + 1))
		echo "p:markers/ti$n marker_test_inline:$s" >>$TRACING/kprobe_events ||
			{ fail "$s refused: $(cat $TRACING/error_log)"; tt_ok=1; break; }
		evs="$evs -e markers:ti$n"
	done
	[ "$n" = 3 ] || { fail "symbols: $syms"; tt_ok=1; }
	if [ $tt_ok = 0 ]; then
		echo 'enable test_inline count' >$DBG/markers/control || tt_ok=1
		tt_run "perf stat$evs -a -- sh -c 'echo 5 >/sys/kernel/debug/marker_test_inline/fire'" ||
			{ fail "perf stat: rc $tt_rc: $(tt_out)"; tt_ok=1; }
		echo 'disable test_inline' >$DBG/markers/control || tt_ok=1
		sum=0
		for i in $(seq $n); do
			h=$(awk -v e="markers:ti$i" '$2 == e { print $1 }' /host/tmp/tt.out)
			[ "$h" = 5 ] || { fail "markers:ti$i: '$h': $(tt_out)"; tt_ok=1; h=0; }
			sum=$((sum + h))
		done
		mk=$(site test_inline marker_test_inline | awk '{ s += $6 } END { print s }')
		[ "$sum" = 15 ] && [ "$mk" = 15 ] ||
			{ fail "perf $sum, marker $mk"; tt_ok=1; }
	fi
	tt_kprobes_clear || tt_ok=1
	rmmod marker_test_inline || tt_ok=1
	return $tt_ok
}

# Documentation/markers.rst: bpftrace at the plain symbol, one hit a cat;
# then at each of test_inline's symbols, 4 hits each.
t_bpftrace_kprobe_at_a_sites_symbol_counts_exactly() {
	tt_run "bpftrace -e 'kprobe:__mark_kprobe_subsys_mark3 { @hits = count(); }' -c '/bin/cat /proc/testmark'"
	grep -q '^@hits: 1$' /host/tmp/tt.out ||
		fail "bpftrace: rc $tt_rc: $(tt_out)" || return 1
	insmod marker_test_inline.ko || return 1
	tt_ok=0
	echo 'echo 4 >/sys/kernel/debug/marker_test_inline/fire' >/host/tmp/fire4
	for s in $(ksyms test_inline marker_test_inline); do
		tt_run "bpftrace -e 'kprobe:$s { @hits = count(); }' -c '/bin/sh /tmp/fire4'" ||
			{ fail "bpftrace $s: rc $tt_rc: $(tt_out)"; tt_ok=1; break; }
		grep -q '^@hits: 4$' /host/tmp/tt.out ||
			{ fail "bpftrace $s: $(tt_out)"; tt_ok=1; break; }
	done
	rmmod marker_test_inline || tt_ok=1
	tt_kprobes_clear || tt_ok=1
	return $tt_ok
}

# tt_record_report OPTIONS PATTERN: trace-cmd record OPTIONS of one cat
# of /proc/testmark, then trace-cmd report, which must have one line
# matching PATTERN. The sleeps let trace-cmd's per-CPU recorders start
# before the hit, and read it before the stop: with a bare "cat", one run
# in six reported nothing but "cpus=2" (the likely cause: a recorder asked
# to stop before it was reading), and with the first sleep only, one run
# in a few dozen still did.
tt_record_report() {
	if ! tt_run "trace-cmd record $1 sh -c 'sleep 1; cat /proc/testmark; sleep 1'" &&
	     [ ! -s /host/tmp/trace.dat ]; then
		fail "trace-cmd record: rc $tt_rc: $(tt_out)"
	elif ! tt_run 'trace-cmd report'; then
		fail "trace-cmd report: rc $tt_rc: $(tt_out)"
	elif [ "$(grep -c -- "$2" /host/tmp/tt.out)" != 1 ]; then
		fail "trace-cmd report: $(tt_out)"
	fi
}

# Documentation/markers-admin.rst, the print action: trace-cmd show reads
# the instance; trace-cmd record -B markers -p nop records the marker's
# event a hit (trace-cmd report, which pads the fields after the event's
# name) and leaves the instance's tracing_on at 0, which the documented
# echo restores.
t_trace_cmd_show_and_record_markers_instance() {
	echo 'enable subsys_mark3 print' >$DBG/markers/control || return 1
	echo >$TRACING/instances/markers/trace
	tt_ok=0
	cat /proc/testmark 2>/dev/null
	if ! tt_run 'trace-cmd show -B markers'; then
		fail "trace-cmd show: rc $tt_rc: $(tt_out)"
		tt_ok=1
	elif [ "$(grep -c ': subsys_mark3: 7 blah3$' /host/tmp/tt.out)" != 1 ]; then
		fail "trace-cmd show: $(tt_out)"
		tt_ok=1
	fi
	echo >$TRACING/instances/markers/trace
	[ $tt_ok = 1 ] ||
		tt_record_report '-B markers -p nop' 'markers: .*: subsys_mark3: *7 blah3$' ||
		tt_ok=1
	[ "$(cat $TRACING/instances/markers/tracing_on)" = 0 ] ||
		{ fail "tracing_on after record: $(cat $TRACING/instances/markers/tracing_on)"; tt_ok=1; }
	echo 1 > /sys/kernel/tracing/instances/markers/tracing_on
	echo 'disable subsys_mark3' >$DBG/markers/control || tt_ok=1
	rm -f /host/tmp/trace.dat
	return $tt_ok
}

# Documentation/markers-admin.rst, "Tracing tools": perf stat counts a
# marker's event exactly, three cats three hits, and disarms it after.
t_perf_stat_counts_a_marker_event() {
	tt_ok=0
	tt_run "perf stat -e markers:subsys_mark3 -a -- sh -c 'cat /proc/testmark; cat /proc/testmark; cat /proc/testmark'" ||
		[ "$tt_rc" = 1 ] || { fail "perf stat: rc $tt_rc: $(tt_out)"; tt_ok=1; }
	n=$(awk '$2 == "markers:subsys_mark3" { print $1 }' /host/tmp/tt.out)
	[ $tt_ok = 1 ] || [ "$n" = 3 ] || { fail "perf stat counted '$n': $(tt_out)"; tt_ok=1; }
	[ "$(state subsys_mark3 marker_example)" = disarmed ] ||
		{ fail "armed after perf"; tt_ok=1; }
	return $tt_ok
}

# perf record of a marker's event, and perf script prints each record
# with the marker's format, read from the event's format file.
t_perf_record_and_script_show_the_fields() {
	echo 'echo 3 >/sys/kernel/debug/marker_test_sites/fire' >/host/tmp/fire3
	tt_run 'perf record -q -o /tmp/perf.data -e markers:test_types -a -- sh /tmp/fire3' ||
		fail "perf record: rc $tt_rc: $(tt_out)" || return 1
	tt_run 'perf script -i /tmp/perf.data' ||
		fail "perf script: rc $tt_rc: $(tt_out)" || return 1
	rm -f /host/tmp/perf.data
	n=$(grep -c 'markers:test_types: [123] [369] -[123] 100[123] -[123]00000 [0-9]* .* blah$' \
		/host/tmp/tt.out)
	[ "$n" = 3 ] && grep -q 'test_types: 3 9 -3 1003 -300000 3298534883328 ' /host/tmp/tt.out ||
		fail "perf script, $n records: $(tt_out)"
}

# bpftrace attaches to a marker's event as to a tracepoint: exact counts
# by an integer field and by a string field.
t_bpftrace_tracepoint_counts_a_marker_event() {
	echo 'echo 3 >/sys/kernel/debug/marker_test_sites/fire' >/host/tmp/fire3
	tt_run "bpftrace -e 'tracepoint:markers:test_types { @[args->arg1] = count(); @s[str(args->arg8)] = count(); }' -c '/bin/sh /tmp/fire3'" ||
		fail "bpftrace: rc $tt_rc: $(tt_out)" || return 1
	grep -q '^@\[1\]: 1$' /host/tmp/tt.out && grep -q '^@\[2\]: 1$' /host/tmp/tt.out &&
		grep -q '^@\[3\]: 1$' /host/tmp/tt.out && grep -q '^@s\[blah\]: 3$' /host/tmp/tt.out ||
		fail "bpftrace: $(tt_out)" || return 1
	[ "$(state test_types marker_test_sites)" = disarmed ] || fail "armed after bpftrace"
}

# trace-cmd records a marker's event in the top-level instance, and
# trace-cmd report shows the marker's line under the event's name.
t_trace_cmd_record_a_marker_event() {
	tt_ok=0
	tt_record_report '-e markers:subsys_mark3' ' subsys_mark3: *7 blah3$' || tt_ok=1
	echo 1 >$TRACING/tracing_on
	echo 0 >$TRACING/events/enable
	echo >$TRACING/trace
	rm -f /host/tmp/trace.dat
	[ "$(state subsys_mark3 marker_example)" = disarmed ] ||
		{ fail "armed after trace-cmd"; tt_ok=1; }
	return $tt_ok
}

TOOLS_KPROBE_TESTS="perf_probe_at_a_label_misses perf_stat_at_a_sites_symbol
perf_stat_at_every_sites_symbol
bpftrace_kprobe_at_a_sites_symbol_counts_exactly"
TOOLS_EVENT_TESTS="trace_cmd_show_and_record_markers_instance
perf_stat_counts_a_marker_event perf_record_and_script_show_the_fields
bpftrace_tracepoint_counts_a_marker_event trace_cmd_record_a_marker_event"

# The debug kernel runs the tests of the markers' trace events, whose lock
# order (event_mutex, then marker_mutex) lockdep checks there with perf,
# BPF and trace-cmd as the callers; the kprobe tests run on the distro
# kernels only. Under KASAN the tools are slow: with all nine tests the
# debug kernel's guest suite took 26 min, with these five 13 min.
# shellcheck disable=SC2034 # used by run-tests.sh
if [ "${MARKERS_SUITE_DEBUG:-0}" = 1 ]; then
	echo "# these tools tests run on the distro kernels only:" $TOOLS_KPROBE_TESTS
	TOOLS_TESTS=$TOOLS_EVENT_TESTS
else
	TOOLS_TESTS="$TOOLS_KPROBE_TESTS $TOOLS_EVENT_TESTS"
fi
