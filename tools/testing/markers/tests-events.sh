# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-events.sh - guest tests of the markers' trace events
# (tracing/events/markers/, Documentation/markers-admin.rst), through
# tracefs alone, sourced by run-tests.sh (busybox sh), whose helpers (fail,
# state, fire, refcnt) and variables ($LIST, $DBG, $TRACING) they use.
#
# They assume marker.ko, marker_example.ko and marker_test_sites.ko are
# loaded and nothing is connected to the markers they use; each leaves
# them so, with every event disabled and the top-level trace empty.

EV=$TRACING/events/markers

# ev_lines NAME: the records of NAME in the top-level trace
ev_lines() {
	grep -c " $1: " $TRACING/trace
}

ev_reset() {
	echo 0 >$TRACING/events/enable
	echo >$TRACING/trace
}

# ev_layout FORMAT-FILE: each argument's field as "type name size signed",
# one a line, after checking the offsets: each field at its alignment (its
# size), after the common fields (whose size the kernel decides: PREEMPT_RT
# has one more) and after the field before it
ev_layout() {
	awk -F'\t' '/^\tfield:/ {
		decl = $2; sub(/^field:/, "", decl); sub(/;$/, "", decl)
		off = $3; sub(/^offset:/, "", off); sub(/;$/, "", off)
		size = $4; sub(/^size:/, "", size); sub(/;$/, "", size)
		sgn = $5; sub(/^signed:/, "", sgn); sub(/;$/, "", sgn)
		off += 0; size += 0
		if (decl ~ / common_/) { end = off + size; next }
		if (off % size || off < end) { print "misplaced: " decl; next }
		end = off + size
		print decl " " size " " sgn
	}' "$1"
}

# ev_disarmed NAME...: the sites of each NAME of marker_test_sites are
# disarmed, or say which is not
ev_disarmed() {
	for m in "$@"; do
		[ "$(state "$m" marker_test_sites)" = disarmed ] ||
			fail "$m $(state "$m" marker_test_sites) after its users went" ||
			return 1
	done
}

# Each marker name has an event whose fields are typed from its
# signature, named argN, with the marker's format as its print format.
t_event_format_typed() {
	f=$EV/test_types/format
	[ -r $f ] || fail "no $f: $(ls $EV)" || return 1
	rc=0
	want='int arg1 4 1
unsigned int arg2 4 0
char arg3 1 1
unsigned short arg4 2 0
long arg5 8 1
unsigned long long arg6 8 0
unsigned long arg7 8 0
__data_loc char[] arg8 4 0'
	[ "$(ev_layout $f)" = "$want" ] ||
		{ fail "fields: $(ev_layout $f)"; rc=1; }
	grep -qF 'print fmt: "%d %u %hhd %hu %ld %llu %p %s", REC->arg1, REC->arg2, REC->arg3, REC->arg4, REC->arg5, REC->arg6, REC->arg7, __get_str(arg8)' $f ||
		{ fail "print fmt: $(grep 'print fmt' $f)"; rc=1; }
	grep -qE '^[0-9]+$' $EV/test_types/id || { fail "id: $(cat $EV/test_types/id)"; rc=1; }
	# named by the format, but "int", a C keyword, stays arg3
	want='int value 4 1
__data_loc char[] name 4 0
int arg3 4 1'
	[ "$(ev_layout $EV/test_named/format)" = "$want" ] ||
		{ fail "named fields: $(ev_layout $EV/test_named/format)"; rc=1; }
	grep -qF 'print fmt: "value=%d name=%s int=%d", REC->value, __get_str(name), REC->arg3' \
		$EV/test_named/format || { fail "named: $(grep 'print fmt' $EV/test_named/format)"; rc=1; }
	grep -qF 'print fmt: "no arguments"' $EV/test_noargs/format &&
		[ -z "$(ev_layout $EV/test_noargs/format)" ] ||
		{ fail "test_noargs: $(cat $EV/test_noargs/format)"; rc=1; }
	return $rc
}

# Enabling the event arms the marker; trace shows the marker's own line
# under the event's name; disabling disarms it.
t_event_enable_records() {
	ev_reset
	echo 1 >$EV/subsys_mark3/enable || return 1
	[ "$(state subsys_mark3 marker_example)" = armed ] ||
		fail "not armed: $(state subsys_mark3 marker_example)" || return 1
	cat /proc/testmark 2>/dev/null
	cat /proc/testmark 2>/dev/null
	grep -q ' subsys_mark3: 7 blah3$' $TRACING/trace ||
		fail "no record: $(cat $TRACING/trace)" || return 1
	[ "$(ev_lines subsys_mark3)" = 2 ] || fail "$(ev_lines subsys_mark3) records" ||
		return 1
	echo 0 >$EV/subsys_mark3/enable
	[ "$(state subsys_mark3 marker_example)" = disarmed ] ||
		fail "armed after disable" || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(ev_lines subsys_mark3)" = 2 ] || fail "recorded after disable"
	ev_reset
}

# A filter on an integer and a string field; a hist trigger counts every
# hit, whatever the filter drops.
t_event_filter_and_hist() {
	ev_reset
	rc=0
	echo 'arg1 > 2 && arg8 == "blah"' >$EV/test_types/filter || return 1
	echo 'hist:keys=arg1' >$EV/test_types/trigger || return 1
	echo 1 >$EV/test_types/enable
	fire 4
	[ "$(ev_lines test_types)" = 2 ] ||
		{ fail "filter: $(grep test_types $TRACING/trace)"; rc=1; }
	grep -q ' test_types: 4 12 -4 1004 -400000 4398046511104 [0-9a-f]* blah$' \
		$TRACING/trace || { fail "record: $(cat $TRACING/trace)"; rc=1; }
	grep -q 'Hits: 4$' $EV/test_types/hist &&
		grep -qE '^\{ arg1: +3 \} hitcount: +1$' $EV/test_types/hist ||
		{ fail "hist: $(cat $EV/test_types/hist)"; rc=1; }
	echo 'arg8 != "blah"' >$EV/test_types/filter
	fire 1
	[ "$(ev_lines test_types)" = 2 ] || { fail "string filter let a hit by"; rc=1; }
	# a field the format names
	echo 'value == 2 && name ~ "bl*"' >$EV/test_named/filter || rc=1
	echo 1 >$EV/test_named/enable
	fire 3
	[ "$(ev_lines test_named)" = 1 ] &&
		grep -q ' test_named: value=2 name=blah int=-2$' $TRACING/trace ||
		{ fail "named: $(grep test_named $TRACING/trace)"; rc=1; }
	echo 0 >$EV/test_named/filter
	echo 0 >$EV/test_named/enable
	echo '!hist:keys=arg1' >$EV/test_types/trigger
	echo 0 >$EV/test_types/filter
	echo 0 >$EV/test_types/enable
	ev_disarmed test_types || rc=1
	ev_reset
	return $rc
}

# stacktrace, traceoff and enable_event triggers, as on a tracepoint; the
# last holds a reference on the event it enables, which therefore stays.
t_event_triggers() {
	ev_reset
	rc=0
	echo stacktrace >$EV/test_types/trigger || return 1
	fire 1
	grep -qE '=> fire(\+|$)' $TRACING/trace ||
		{ fail "stacktrace: $(cat $TRACING/trace)"; rc=1; }
	echo '!stacktrace' >$EV/test_types/trigger
	echo traceoff >$EV/test_types/trigger || rc=1
	fire 1
	[ "$(cat $TRACING/tracing_on)" = 0 ] || { fail "traceoff: still on"; rc=1; }
	echo '!traceoff' >$EV/test_types/trigger
	echo 1 >$TRACING/tracing_on
	ev_reset
	echo 'enable_event:markers:test_noargs' >$EV/test_types/trigger || rc=1
	[ "$(state test_noargs marker_test_sites)" = armed ] ||
		{ fail "enable_event: test_noargs not armed"; rc=1; }
	fire 2
	[ "$(ev_lines test_noargs)" = 2 ] ||
		{ fail "enable_event: $(cat $TRACING/trace)"; rc=1; }
	echo '!enable_event:markers:test_noargs' >$EV/test_types/trigger
	# as for a tracepoint, the event it enabled stays enabled
	[ "$(cat $EV/test_noargs/enable)" = 1 ] ||
		{ fail "enable_event: test_noargs $(cat $EV/test_noargs/enable)"; rc=1; }
	echo 0 >$EV/test_noargs/enable
	ev_disarmed test_types test_noargs || rc=1
	ev_reset
	return $rc
}

# Documentation/markers-admin.rst, "Latency between two markers": a
# synthetic event from test_types to the test_noargs that follows it,
# one hit of each a loop, histogrammed.
t_event_latency_between_two_markers() {
	ev_reset
	rc=0
	echo 'markers_lat u64 lat' >>$TRACING/synthetic_events || return 1
	echo 'hist:keys=common_pid:ts0=common_timestamp.usecs' \
		>$EV/test_types/trigger || rc=1
	echo 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(markers.test_types).trace(markers_lat,$lat)' \
		>$EV/test_noargs/trigger || rc=1
	echo 'hist:keys=lat' >$TRACING/events/synthetic/markers_lat/trigger || rc=1
	[ $rc = 0 ] || fail "triggers refused: $(cat $TRACING/error_log)"
	fire 5
	grep -q 'Hits: 5$' $TRACING/events/synthetic/markers_lat/hist ||
		{ fail "latency hist: $(cat $TRACING/events/synthetic/markers_lat/hist)"; rc=1; }
	echo '!hist:keys=lat' >$TRACING/events/synthetic/markers_lat/trigger
	echo '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0:onmatch(markers.test_types).trace(markers_lat,$lat)' \
		>$EV/test_noargs/trigger
	echo '!hist:keys=common_pid:ts0=common_timestamp.usecs' >$EV/test_types/trigger
	echo '!markers_lat' >>$TRACING/synthetic_events ||
		{ fail "synthetic event left"; rc=1; }
	ev_disarmed test_types test_noargs || rc=1
	ev_reset
	return $rc
}

# A string the site passes is copied without faulting; a format that does
# not fit the signature prints the fields instead.
t_event_bad_arguments_never_fault() {
	loaded=1
	[ -d /sys/module/marker_test_bad ] || { loaded=0; insmod marker_test_bad.ko; } ||
		return 1
	ev_reset
	rc=0
	for m in bad_user_str bad_wild_str bad_null_str bad_unterminated \
		bad_int_as_str bad_percent_n; do
		echo 1 >$EV/$m/enable || { fail "$m: cannot enable"; rc=1; }
	done
	echo hello >$DBG/marker_test_bad/fire
	for m in bad_user_str bad_wild_str bad_null_str; do
		grep -q " $m: (fault)\$" $TRACING/trace ||
			{ fail "$m: $(grep " $m:" $TRACING/trace)"; rc=1; }
	done
	grep -qE ' bad_unterminated: x{200,255}$' $TRACING/trace ||
		{ fail "bad_unterminated: $(grep ' bad_unterminated:' $TRACING/trace)"; rc=1; }
	grep -q ' bad_int_as_str: arg1=6$' $TRACING/trace &&
		grep -qE ' bad_percent_n: arg1=6 arg2=0x[0-9a-f]+$' $TRACING/trace ||
		{ fail "unfit formats: $(grep ' bad_' $TRACING/trace)"; rc=1; }
	ev_reset
	[ $loaded = 1 ] || rmmod marker_test_bad || rc=1
	return $rc
}

# ev_gone NAME: NAME's event is removed, by work that runs after the last
# disable: wait for it a little
ev_gone() {
	n=0
	while [ -d "$EV/$1" ] && [ $n -lt 50 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ ! -d "$EV/$1" ]
}

# The event of a module's marker stays, inert, while enabled after the
# module goes, records again when it returns, and goes once disabled with
# no site left; it comes back with the module.
t_event_outlives_its_module() {
	ev_reset
	rc=0
	echo 1 >$EV/test_types/enable || return 1
	rmmod marker_test_sites || return 1
	[ "$(cat $EV/test_types/enable 2>/dev/null)" = 1 ] ||
		{ fail "event not kept while enabled: $(ls $EV)"; rc=1; }
	insmod marker_test_sites.ko || return 1
	[ "$(state test_types marker_test_sites)" = armed ] ||
		{ fail "not re-armed on return"; rc=1; }
	fire 1
	[ "$(ev_lines test_types)" = 1 ] || { fail "no record after return"; rc=1; }
	rmmod marker_test_sites
	echo 0 >$EV/test_types/enable
	ev_gone test_types || { fail "event left after disable"; rc=1; }
	[ -d $EV/subsys_mark3 ] || { fail "other events went too"; rc=1; }
	insmod marker_test_sites.ko || return 1
	[ -d $EV/test_types ] || { fail "event not back with its module"; rc=1; }
	ev_reset
	return $rc
}

# print and stack record the marker's event into the "markers" instance:
# the line reads as the marker's format, not as trace_printk()'s text
# (__marker_print), the instance's filter of the event applies, enabling
# it there too records a hit once, and the listing still counts the hits.
# print's hold on the event does not keep it when its module goes, and it
# records again when the module returns. The loader's print does the same.
t_event_print_records_the_event() {
	ev_reset
	rc=0
	iev=$INSTANCE/events/markers/test_named
	before=$(hits_of test_named marker_test_sites)
	echo >$INSTANCE/trace
	echo 'enable test_named print' >$DBG/markers/control || return 1
	fire 2
	[ "$(grep -c ' test_named: value=[12] name=blah int=-[12]$' $INSTANCE/trace)" = 2 ] ||
		{ fail "print: $(cat $INSTANCE/trace)"; rc=1; }
	! grep -q __marker_print $INSTANCE/trace || { fail "written as text"; rc=1; }
	echo 'value == 2' >$iev/filter || rc=1
	echo >$INSTANCE/trace
	fire 3
	[ "$(grep -c ' test_named: ' $INSTANCE/trace)" = 1 ] &&
		grep -q ' test_named: value=2 name=blah int=-2$' $INSTANCE/trace ||
		{ fail "instance filter: $(cat $INSTANCE/trace)"; rc=1; }
	echo 0 >$iev/filter
	echo 1 >$iev/enable || rc=1
	echo >$INSTANCE/trace
	fire 1
	[ "$(grep -c ' test_named: ' $INSTANCE/trace)" = 1 ] ||
		{ fail "enabled and printed: $(cat $INSTANCE/trace)"; rc=1; }
	echo 0 >$iev/enable
	[ "$(hits_of test_named marker_test_sites)" = $((before + 6)) ] ||
		{ fail "hits: $(site test_named marker_test_sites)"; rc=1; }
	rmmod marker_test_sites || return 1
	ev_gone test_named || { fail "print kept the event: $(ls $EV)"; rc=1; }
	insmod marker_test_sites.ko || return 1
	echo >$INSTANCE/trace
	fire 1
	grep -q ' test_named: value=1 name=blah int=-1$' $INSTANCE/trace &&
		! grep -q __marker_print $INSTANCE/trace ||
		{ fail "print after return: $(cat $INSTANCE/trace)"; rc=1; }
	echo 'disable test_named' >$DBG/markers/control || rc=1
	echo 'enable test_named stack' >$DBG/markers/control || rc=1
	echo >$INSTANCE/trace
	fire 1
	grep -A1 ' test_named: value=1 name=blah int=-1$' $INSTANCE/trace |
		grep -q ' => ' || { fail "stack: $(cat $INSTANCE/trace)"; rc=1; }
	echo 'disable test_named' >$DBG/markers/control || rc=1
	# the loader's print is the same action
	insmod marker_loader.ko markers=test_named action=print || rc=1
	echo >$INSTANCE/trace
	fire 1
	grep -q ' test_named: value=1 name=blah int=-1$' $INSTANCE/trace &&
		! grep -q __marker_print $INSTANCE/trace ||
		{ fail "loader print: $(cat $INSTANCE/trace)"; rc=1; }
	rmmod marker_loader || rc=1
	ev_disarmed test_named || rc=1
	echo >$INSTANCE/trace
	ev_reset
	return $rc
}

# markerctl list shows each marker's event: on while enabled, trigger
# while a trigger arms it without recording, off otherwise.
t_event_state_in_markerctl() {
	rc=0
	echo 1 >$EV/subsys_mark3/enable || return 1
	echo 'hist:keys=arg1' >$EV/test_types/trigger || return 1
	mc_rc 0 list || rc=1
	awk '$1 == "subsys_mark3" { print $9 }' /tmp/mc.out | grep -qx on &&
		awk '$1 == "test_types" { print $9 }' /tmp/mc.out | grep -qx trigger &&
		awk '$1 == "subsys_mark1" { print $9 }' /tmp/mc.out | grep -qx off ||
		{ fail "markerctl list: $(cat /tmp/mc.out)"; rc=1; }
	mc_rc 0 list --json || rc=1
	grep -q '"name": "subsys_mark3", .*"event": "on"}' /tmp/mc.out ||
		{ fail "markerctl list --json: $(cat /tmp/mc.out)"; rc=1; }
	echo '!hist:keys=arg1' >$EV/test_types/trigger
	ev_reset
	return $rc
}

# An enabled event pins marker.ko, as enabled actions do.
t_event_pins_registry() {
	echo 1 >$EV/subsys_mark3/enable || return 1
	[ "$(refcnt marker)" = 1 ] || fail "refcnt $(refcnt marker)" || return 1
	rmmod marker 2>/dev/null && fail "rmmod marker while enabled" && return 1
	echo 0 >$EV/subsys_mark3/enable
	[ "$(refcnt marker)" = 0 ] || fail "refcnt $(refcnt marker) after disable"
}

# shellcheck disable=SC2034 # used by run-tests.sh
EVENT_TESTS="event_format_typed event_enable_records event_filter_and_hist
event_triggers event_latency_between_two_markers event_bad_arguments_never_fault
event_outlives_its_module event_pins_registry event_state_in_markerctl
event_print_records_the_event"
