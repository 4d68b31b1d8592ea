#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-tests.sh - the markers integration suite, run inside the QEMU guest
# by vm.sh (busybox sh). The payload holds the modules and a file "mode"
# saying which mode they were built in (near-zero or portable).
#
# Each test is a function that returns 0 on success; "fail MSG" explains a
# failure. Tests run in order and build on each other's state: the
# registry stays loaded from the first test to the last but one.

# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh
# fail MSG: why a test failed, as a diagnostic line; returns 1; site, col
# and colnum: the listing, $LIST
# shellcheck source=SCRIPTDIR/lib.sh
. ./lib.sh

MODE=$(cat mode)
DBG=/sys/kernel/debug
LIST=$DBG/markers/list
PROBES=$DBG/markers/probes
OFFERS=$DBG/markers/offers
TRACING=/sys/kernel/tracing

# Keep the console for TAP lines; the kernel log is printed at the end,
# where vm.sh looks for warnings and oopses.
echo 4 >/proc/sys/kernel/printk

# consumer_hits MARKER FUNCTION: the hits of the consumer of MARKER (a
# name or a pattern) whose function is FUNCTION, from the probes file
consumer_hits() {
	awk -v m="$1" -v f="$2" '$1 == m && $2 == f { print $7 }' "$PROBES"
}

# state NAME MODULE: the states of NAME's sites, one word per site
state() {
	site "$1" "$2" | awk '{ printf "%s%s", sep, $4; sep = " " } END { print "" }'
}

hits() {
	cat $DBG/marker_test_probe/hits
}

bad() {
	cat $DBG/marker_test_probe/bad
}

fire() {
	echo "$1" >$DBG/marker_test_sites/fire
}

value_lines() {
	dmesg | grep -c 'value is 1'
}

refcnt() {
	cat "/sys/module/$1/refcnt"
}

# Disarmed code: NOPs (near-zero) or the jump target "over" (portable).
is_disarmed_code() {
	if [ "$MODE" = near-zero ]; then
		echo "$1" | grep -qE '^(6690|0f1f440000)(,(6690|0f1f440000))*$'
	else
		[ "$1" = over ]
	fi
}

is_armed_code() {
	if [ "$MODE" = near-zero ]; then
		echo "$1" | grep -qE '^(eb..|e9........)(,(eb..|e9........))*$'
	else
		[ "$1" = call ]
	fi
}

t_registry_finds_earlier_modules() {
	insmod marker_example.ko || return 1
	insmod marker.ko || return 1
	[ -r "$LIST" ] || fail "no $LIST"
	for m in subsys_mark1 subsys_mark2 subsys_mark3; do
		[ "$(state $m marker_example)" = disarmed ] ||
			fail "$m: $(site $m marker_example)" || return 1
	done
	s=$(site subsys_mark2 marker_example)
	[ "$(col signature "$s")" = is ] || fail "subsys_mark2 signature: $s"
}

t_registry_finds_later_modules() {
	insmod marker_test_sites.ko || return 1
	for m in test_types test_noargs test_tamper test_loop; do
		[ "$(state $m marker_test_sites)" = disarmed ] ||
			fail "$m: $(site $m marker_test_sites)" || return 1
	done
	[ "$(state test_multi marker_test_sites)" = "disarmed disarmed" ] ||
		fail "test_multi: $(site test_multi marker_test_sites)"
}

t_signatures_derived() {
	[ "$(col signature "$(site test_types marker_test_sites)")" = iIcHlQps ] ||
		fail "test_types: $(site test_types marker_test_sites)" || return 1
	[ "$(col signature "$(site test_noargs marker_test_sites)")" = - ] ||
		fail "test_noargs: $(site test_noargs marker_test_sites)"
}

t_mode_is_built_mode() {
	modes=$(awk '!/^#/ { print $3 }' "$LIST" | sort -u)
	[ "$modes" = "$MODE" ] || fail "modes in the listing: $modes"
}

t_disarmed_sites_are_defaults() {
	n=0
	while read -r name mod code; do
		is_disarmed_code "$code" ||
			fail "$name in $mod: code $code" || return 1
		n=$((n + 1))
	done <<EOF
$(awk -v c="$(colnum code)" '!/^#/ { print $1, $2, $c }' "$LIST")
EOF
	[ "$n" -ge 9 ] || fail "only $n sites listed"
}

t_disarmed_calls_nothing() {
	before=$(value_lines)
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = "$before" ] || fail "a probe ran while disarmed"
}

t_probe_example_prints() {
	ref=$(refcnt marker)
	before=$(value_lines)
	insmod probe_example.ko || return 1
	[ "$(state subsys_mark1 marker_example)" = armed ] ||
		fail "$(site subsys_mark1 marker_example)" || return 1
	code=$(col code "$(site subsys_mark1 marker_example)")
	is_armed_code "$code" || fail "armed site code: $code" || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = $((before + 1)) ] || fail "no 'value is 1'" || return 1
	rmmod probe_example || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = $((before + 1)) ] || fail "probe ran after rmmod" || return 1
	code=$(col code "$(site subsys_mark1 marker_example)")
	is_disarmed_code "$code" || fail "code after rmmod: $code" || return 1
	[ "$(refcnt marker)" = "$ref" ] || fail "marker refcnt $(refcnt marker), was $ref"
}

# probe_counts PROBE N: "hits H bad B" of marker_test_probe.ko probe=PROBE
# over N fires of marker_test_sites, loaded for them
probe_counts() {
	insmod marker_test_probe.ko probe="$1" || return 1
	fire "$2"
	counts="hits $(hits) bad $(bad)"
	rmmod marker_test_probe
	echo "$counts"
}

t_typed_probe_exact_values() {
	hb=$(probe_counts types 100) || return 1
	[ "$hb" = "hits 100 bad 0" ] || fail "$hb"
}

t_generic_probe_exact_values() {
	hb=$(probe_counts generic 50) || return 1
	[ "$hb" = "hits 50 bad 0" ] || fail "$hb"
}

t_marker_without_arguments() {
	hb=$(probe_counts noargs 7) || return 1
	[ "${hb% bad *}" = "hits 7" ] || fail "$hb"
}

t_all_sites_of_a_name_arm_together() {
	insmod marker_test_probe.ko probe=multi || return 1
	st=$(state test_multi marker_test_sites)
	fire 10
	h=$(hits)
	rmmod marker_test_probe
	[ "$st" = "armed armed" ] || fail "states: $st" || return 1
	[ "$h" = 20 ] || fail "hits $h, expected 2 sites x 10"
}

t_two_probes_either_order() {
	base=$(value_lines)
	insmod probe_example.ko || return 1
	insmod marker_test_probe.ko probe=mark1 || return 1
	[ "$(col probes "$(site subsys_mark1 marker_example)")" = 2 ] ||
		fail "$(site subsys_mark1 marker_example)" || return 1
	cat /proc/testmark 2>/dev/null
	rmmod probe_example		# first in, first out
	cat /proc/testmark 2>/dev/null
	[ "$(hits)" = 2 ] && [ "$(value_lines)" = $((base + 1)) ] ||
		fail "after rmmod probe_example: hits $(hits) lines $(value_lines)" ||
		return 1
	insmod probe_example.ko || return 1
	rmmod marker_test_probe		# last in, first out
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = $((base + 2)) ] ||
		fail "after rmmod marker_test_probe: lines $(value_lines)" || return 1
	rmmod probe_example
	[ "$(state subsys_mark1 marker_example)" = disarmed ] ||
		fail "$(site subsys_mark1 marker_example)"
}

t_signature_mismatch_refused() {
	before=$(cat "$LIST" "$PROBES")
	if insmod marker_test_probe.ko probe=mismatch 2>/tmp/err; then
		rmmod marker_test_probe
		fail "mismatched probe accepted"
		return 1
	fi
	grep -q 'Invalid argument' /tmp/err || fail "insmod: $(cat /tmp/err)" || return 1
	dmesg | grep -q 'test_types: signature mismatch: probe probe_int \[marker_test_probe\] takes (int), marker in marker_test_sites passes (int, unsigned int, char, unsigned short, long, unsigned long long, void \*, char \*)' ||
		fail "no dmesg line naming both signatures" || return 1
	[ "$(cat "$LIST" "$PROBES")" = "$before" ] || fail "listing changed"
}

t_site_not_at_defaults_refused() {
	echo 1 >$DBG/marker_test_sites/tamper
	before=$(cat "$PROBES")
	if insmod marker_test_probe.ko probe=tamper 2>/tmp/err; then
		rmmod marker_test_probe
		echo 0 >$DBG/marker_test_sites/tamper
		fail "armed a tampered site"
		return 1
	fi
	grep -q 'busy' /tmp/err || fail "insmod: $(cat /tmp/err)" || return 1
	dmesg | grep -q 'test_tamper: site in marker_test_sites is not at its defaults' ||
		fail "no dmesg line" || return 1
	[ "$(state test_tamper marker_test_sites)" = busy ] ||
		fail "$(site test_tamper marker_test_sites)" || return 1
	[ "$(cat "$PROBES")" = "$before" ] || fail "probe left registered" || return 1
	echo 0 >$DBG/marker_test_sites/tamper
	insmod marker_test_probe.ko probe=tamper || return 1
	fire 3
	h=$(hits)
	rmmod marker_test_probe
	[ "$h" = 3 ] || fail "hits after untampering: $h"
}

# pending_then_armed HITS: marker_test_sites.ko being unloaded, the probe
# probe=types is pending in the probes file, its count HITS, and loading
# marker_test_sites.ko again arms test_types
pending_then_armed() {
	grep -q "^test_types probe_types marker_test_probe iIcHlQps typed 0 $1\$" "$PROBES" ||
		fail "not pending: $(cat "$PROBES")" || return 1
	insmod marker_test_sites.ko || return 1
	[ "$(state test_types marker_test_sites)" = armed ] ||
		fail "not armed: $(site test_types marker_test_sites)"
}

t_pending_probe_armed_on_arrival() {
	rmmod marker_test_sites || return 1
	insmod marker_test_probe.ko probe=types || return 1
	pending_then_armed 0 || return 1
	fire 5
	[ "$(hits)" = 5 ] && [ "$(bad)" = 0 ] || fail "hits $(hits) bad $(bad)"
}

# A pending probe that does not fit the marker that arrives: not armed, said.
t_pending_mismatch_reported_on_arrival() {
	rmmod marker_test_sites || return 1
	insmod marker_test_probe.ko probe=mismatch || return 1
	insmod marker_test_sites.ko || return 1
	st=$(state test_types marker_test_sites)
	rmmod marker_test_probe
	[ "$st" = disarmed ] || fail "state $st" || return 1
	dmesg | tail -n 5 | grep -q 'test_types: signature mismatch: probe probe_int \[marker_test_probe\] takes (int)' ||
		fail "no dmesg line"
}

# The probe stays pending, and keeps its own count (the 5 hits of the test
# before) across its marker's module going and coming back.
t_marker_module_leaves_while_armed() {
	rmmod marker_test_sites || return 1
	pending_then_armed 5 || return 1
	fire 4
	h=$(hits)
	c=$(consumer_hits test_types probe_types)
	rmmod marker_test_probe
	[ "$h" = 9 ] && [ "$c" = 9 ] || fail "hits $h, counted $c, expected 5 + 4"
}

t_rmmod_probe_while_firing() {
	insmod marker_test_probe.ko probe=loop || return 1
	echo 1 >$DBG/marker_test_sites/spin
	sleep 1
	h=$(hits)
	rmmod marker_test_probe || return 1
	sleep 1
	echo 0 >$DBG/marker_test_sites/spin
	[ "$h" -gt 0 ] || fail "the loop never hit the probe" || return 1
	[ "$(state test_loop marker_test_sites)" = disarmed ] ||
		fail "$(site test_loop marker_test_sites)"
}

t_registry_pinned_by_probes() {
	insmod probe_example.ko || return 1
	if rmmod marker 2>/dev/null; then
		fail "rmmod marker succeeded with a probe attached"
		return 1
	fi
	[ "$(state subsys_mark1 marker_example)" = armed ] || fail "disarmed" || return 1
	rmmod probe_example
	[ "$(refcnt marker)" = 0 ] || fail "marker refcnt $(refcnt marker)"
}

# subsys_mark3, the last of three MARK()s in a row: the symbol of the other
# two sits on the next site's NOP, which kprobes refuse (see markers.rst).
t_kprobe_on_symbol_marker() {
	for m in 1 2 3; do
		grep -q " w __mark_kprobe_subsys_mark$m	\[marker_example\]$" /proc/kallsyms ||
			fail "no __mark_kprobe_subsys_mark$m in kallsyms" || return 1
	done
	echo 'p:markers/mk1 marker_example:__mark_kprobe_subsys_mark3' \
		>$TRACING/kprobe_events || fail "$(cat $TRACING/error_log)" || return 1
	echo 1 >$TRACING/events/markers/mk1/enable
	for _ in 1 2 3; do cat /proc/testmark 2>/dev/null; done
	n=$(awk '$1 == "markers/mk1" || $1 == "mk1" { print $2 }' $TRACING/kprobe_profile)
	echo 0 >$TRACING/events/markers/mk1/enable
	echo '-:markers/mk1' >>$TRACING/kprobe_events
	[ "$n" = 3 ] || fail "kprobe hits: $n ($(cat $TRACING/kprobe_profile))"
}

# items WORD: the comma-separated items of a listing field, one a line
items() {
	echo "$1" | tr ',' '\n'
}

# ksyms NAME MODULE: the kprobe symbols of NAME's sites in MODULE, one a line
ksyms() {
	items "$(site "$1" "$2" | awk -v n="$(colnum symbol)" '{ print $n }' |
		paste -sd, -)"
}

# kprobe_hits EVENT: the hits of kprobe event EVENT (kprobe_profile)
kprobe_hits() {
	awk -v e="$1" '$1 == "markers/" e || $1 == e { print $2 }' $TRACING/kprobe_profile
}

# Every copy of a site's code has a kprobe symbol of its own, which
# kprobe_events accepts (6.12's refuses a symbol that is not unique in
# its module): test_inline has sites in two functions of one file and in
# a header inline used from two files. The kprobe hits at all of them add
# up to the marker's own count; the plain __mark_kprobe_test_inline is the
# first copy's.
t_kprobe_on_every_site() {
	insmod marker_test_inline.ko || return 1
	syms=$(ksyms test_inline marker_test_inline)
	[ "$(echo "$syms" | sort -u | grep -c '^__mark_kprobe_test_inline\.')" = 3 ] ||
		fail "symbols: $(site test_inline marker_test_inline)" || return 1
	n=0 rc=0
	for s in $syms __mark_kprobe_test_inline; do
		n=$((n + 1))
		echo "p:markers/every$n marker_test_inline:$s" >>$TRACING/kprobe_events ||
			{ fail "$s refused: $(cat $TRACING/error_log)"; rc=1; break; }
		echo 1 >$TRACING/events/markers/every$n/enable
	done
	if [ $rc = 0 ]; then
		echo 'enable test_inline count' >$DBG/markers/control || rc=1
		echo 5 >$DBG/marker_test_inline/fire
		echo 'disable test_inline' >$DBG/markers/control
		kp=0
		for i in $(seq $((n - 1))); do
			h=$(kprobe_hits every$i)
			[ "$h" = 5 ] || { fail "every$i: $h hits"; rc=1; }
			kp=$((kp + h))
		done
		[ "$(kprobe_hits every$n)" = 5 ] ||
			{ fail "plain symbol: $(kprobe_hits every$n) hits"; rc=1; }
		mk=$(hits_of test_inline marker_test_inline | tr ' ' '+')
		[ "$kp" = $((mk)) ] && [ "$kp" = 15 ] ||
			{ fail "kprobes $kp, marker $((mk))"; rc=1; }
	fi
	for i in $(seq $n); do
		echo 0 >$TRACING/events/markers/every$i/enable 2>/dev/null
		echo "-:markers/every$i" >>$TRACING/kprobe_events 2>/dev/null
	done
	rmmod marker_test_inline || rc=1
	return $rc
}

# Each line shows its own site's code: one item a copy, as many as it has
# symbols (test_multi's two sites share a key, but not their code), and
# every site still in memory has a symbol.
t_listing_shows_own_code() {
	bad=$(awk -v code="$(colnum code)" -v sym="$(colnum symbol)" '!/^#/ {
		nc = split($code, c, ","); ns = split($sym, k, ",")
		if ($3 == "near-zero" && nc != ns) print
		if ($sym == "-") print
	}' "$LIST")
	[ -z "$bad" ] || fail "$bad"
}

# hits NAME MODULE: the hits of NAME's sites in MODULE, one word per site
hits_of() {
	site "$1" "$2" | awk '{ printf "%s%s", sep, $6; sep = " " } END { print "" }'
}

INSTANCE=$TRACING/instances/markers

t_loader_by_name_and_glob() {
	rmmod marker_test_sites || return 1
	insmod marker_loader.ko markers=subsys_mark1,test_t*,nosuch_marker \
		action=count || return 1
	[ "$(state subsys_mark1 marker_example)" = armed ] &&
		[ "$(state subsys_mark2 marker_example)" = disarmed ] ||
		fail "$(cat "$LIST")" || return 1
	grep -q '^test_t\* marker_count marker_loader \* action 0 0$' "$PROBES" &&
		grep -q '^nosuch_marker marker_count marker_loader \* action 0 0$' "$PROBES" ||
		fail "patterns not pending: $(cat "$PROBES")" || return 1
	insmod marker_test_sites.ko || return 1	# arrives after the loader
	[ "$(state test_types marker_test_sites)" = armed ] &&
		[ "$(state test_tamper marker_test_sites)" = armed ] &&
		[ "$(state test_loop marker_test_sites)" = disarmed ] ||
		fail "$(cat "$LIST")" || return 1
	fire 5
	cat /proc/testmark 2>/dev/null
	cat /proc/testmark 2>/dev/null
	[ "$(hits_of test_types marker_test_sites)" = 5 ] &&
		[ "$(hits_of test_tamper marker_test_sites)" = 5 ] &&
		[ "$(hits_of test_multi marker_test_sites)" = "0 0" ] &&
		[ "$(hits_of subsys_mark1 marker_example)" = 2 ] &&
		[ "$(hits_of subsys_mark2 marker_example)" = 0 ] ||
		fail "$(cat "$LIST")" || return 1
	gp=$(stat_of grace_periods)
	rmmod marker_loader || return 1
	[ "$(stat_of grace_periods)" = $((gp + 1)) ] ||
		fail "rmmod of 3 patterns: $(($(stat_of grace_periods) - gp)) grace periods" ||
		return 1
	[ "$(awk '!/^#/ && $4 != "disarmed"' "$LIST")" = "" ] ||
		fail "armed after rmmod: $(cat "$LIST")" || return 1
	[ "$(grep -vc '^#' "$PROBES")" = 0 ] || fail "$(cat "$PROBES")"
}

t_loader_refuses_bad_parameters() {
	insmod marker_loader.ko markers=subsys_mark1 action=dance 2>/dev/null &&
		fail "action=dance accepted" && return 1
	insmod marker_loader.ko 2>/dev/null && fail "no markers= accepted" &&
		return 1
	dmesg | grep -q 'marker_loader: unknown action=dance: count, print, stack or inline' ||
		fail "no dmesg line" || return 1
	# a space or a newline would forge a line of the probes file
	for m in '"subsys_mark1 forged 0"' '"subsys_mark1
forged"'; do
		insmod marker_loader.ko "markers=$m" 2>/dev/null &&
			fail "markers=$m accepted" && rmmod marker_loader && return 1
	done
	dmesg | grep -qF "'subsys_mark1\\nforged' is not a marker name or glob pattern" &&
		dmesg | grep -qF 'marker_loader: subsys_mark1\nforged: cannot attach: -22' &&
		! dmesg | grep -qE '(^|\] )forged: cannot' ||
		fail "no dmesg line for the newline" || return 1
	[ "$(grep -vc '^#' "$PROBES")" = 0 ] || fail "$(cat "$PROBES")" ||
		return 1
	# a name given twice is attached once, and the load succeeds
	insmod marker_loader.ko markers=subsys_mark1,subsys_mark1 ||
		fail "a duplicate failed the load" || return 1
	n=$(grep -vc '^#' "$PROBES")
	rmmod marker_loader
	[ "$n" = 1 ] || fail "$n probes for one name given twice"
}

t_control_print_to_ftrace() {
	echo >$INSTANCE/trace
	echo 'enable subsys_mark3 print' >$DBG/markers/control || return 1
	[ "$(state subsys_mark3 marker_example)" = armed ] || fail "not armed" ||
		return 1
	cat /proc/testmark 2>/dev/null
	grep -q ': subsys_mark3: 7 blah3$' $INSTANCE/trace ||
		fail "no line in the instance: $(cat $INSTANCE/trace)" || return 1
	echo 'disable subsys_mark3' >$DBG/markers/control || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(grep -c ': subsys_mark3: ' $INSTANCE/trace)" = 1 ] ||
		fail "printed after disable" || return 1
	[ "$(state subsys_mark3 marker_example)" = disarmed ] || fail "still armed"
}

t_control_all_types_and_stack() {
	echo >$INSTANCE/trace
	echo 'enable test_types stack' >$DBG/markers/control || return 1
	fire 2
	echo 'disable test_types' >$DBG/markers/control
	# %d %u %hhd %hu %ld %llu %p %s of i=2
	grep -qE ': test_types: 2 6 -2 1002 -200000 2199023255552 [0-9a-f]+ blah$' \
		$INSTANCE/trace || fail "$(cat $INSTANCE/trace)" || return 1
	grep -q ' => fire+' $INSTANCE/trace || fail "no stack frame" ||
		return 1
	[ "$(hits_of test_types marker_test_sites)" = 7 ] ||
		fail "hits $(hits_of test_types marker_test_sites), expected 5 + 2"
}

# refused CMD ERRNO-TEXT DMESG-TEXT: the control file refuses CMD with
# ERRNO-TEXT, the kernel log says "marker: DMESG-TEXT", and the listing, the
# probes and the offers are unchanged
refused() {
	before=$(cat "$LIST" "$PROBES" "$OFFERS")
	if echo "$1" >$DBG/markers/control 2>/tmp/err; then
		fail "'$1' accepted"
		return 1
	fi
	grep -q "$2" /tmp/err || fail "'$1': $(cat /tmp/err)" || return 1
	dmesg | tail -n 3 | grep -q "marker: $3" ||
		fail "'$1': no dmesg line '$3'" || return 1
	[ "$(cat "$LIST" "$PROBES" "$OFFERS")" = "$before" ] ||
		fail "'$1' changed state"
}

# control_refused CMD ERRNO-TEXT DMESG-TEXT: refused by the parser itself
control_refused() {
	refused "$1" "$2" "control: $3"
}

t_control_refuses_bad_input() {
	long=$(printf 'x%.0s' $(seq 300))
	control_refused 'frobnicate subsys_mark1' 'Invalid argument' 'commands are' &&
	control_refused 'enable' 'Invalid argument' 'commands are' &&
	control_refused 'disable subsys_mark1 count' 'Invalid argument' 'commands are' &&
	control_refused 'enable subsys_mark1 count extra' 'Invalid argument' 'commands are' &&
	control_refused 'enable subsys_mark1 dance' 'Invalid argument' "unknown action 'dance'" &&
	control_refused 'enable subsys/mark1' 'Invalid argument' "'subsys/mark1' is not a marker name" &&
	control_refused 'enable nosuch_marker' 'No such file' 'no loaded marker matches nosuch_marker' &&
	control_refused 'disable subsys_mark1' 'No such file' 'subsys_mark1 is not enabled' &&
	control_refused "enable $long" 'Argument list too long' 'command of 308 bytes' || return 1
	echo 'enable subsys_mark1' >$DBG/markers/control || return 1
	control_refused 'enable subsys_mark1 print' 'File exists' 'subsys_mark1 is already enabled'
	rc=$?
	echo 'disable subsys_mark1' >$DBG/markers/control
	return $rc
}

t_control_pins_registry() {
	echo 'enable subsys_* count' >$DBG/markers/control || return 1
	[ "$(refcnt marker)" = 1 ] || fail "refcnt $(refcnt marker)" || return 1
	rmmod marker 2>/dev/null && fail "rmmod marker while enabled" && return 1
	echo 'disable subsys_*' >$DBG/markers/control || return 1
	[ "$(refcnt marker)" = 0 ] || fail "refcnt $(refcnt marker) after disable"
}

stat_of() {
	awk -v k="$1" '$1 == k { print $2 }' $DBG/markers/stats
}

# Arming a set costs no grace period; disarming it costs one, whatever its
# size. Near-zero: one key update a name each way, however many sites share
# it (test_multi has two); portable: one jump-target store a site.
t_one_grace_period_per_batch() {
	gp=$(stat_of grace_periods)
	patches=$(($(stat_of key_updates) + $(stat_of jump_updates)))
	insmod marker_loader.ko 'markers=test_*' || return 1
	armed=$(awk '!/^#/ && $1 ~ /^test_/ && $4 == "armed" { print $1 }' "$LIST")
	[ "$(stat_of grace_periods)" = "$gp" ] || fail "arming waited" || return 1
	rmmod marker_loader || return 1
	n=$(echo "$armed" | wc -l)
	names=$(echo "$armed" | sort -u | wc -l)
	[ "$n" -ge 6 ] && [ "$names" -lt "$n" ] || fail "armed: $armed" || return 1
	[ "$(stat_of grace_periods)" = $((gp + 1)) ] ||
		fail "$(($(stat_of grace_periods) - gp)) grace periods for $n sites" ||
		return 1
	if [ "$MODE" = near-zero ]; then
		want=$((2 * names))
	else
		want=$((2 * n))
	fi
	[ $(($(stat_of key_updates) + $(stat_of jump_updates) - patches)) = "$want" ] ||
		fail "$(cat $DBG/markers/stats), want $want updates for $n sites, $names names"
}

# thirdparty_example.ko was built outside the tree against "make install
# DESTDIR=..." with the documented Kbuild line only (third-party.sh): its
# markers are there, found and armed like the tree's own. fire 4: tp_step
# 4 times in each of its two files, tp_who once; tp_init ran before any
# consumer, in init code that is gone (no symbol left).
t_third_party_module() {
	[ -f thirdparty_example.ko ] || fail "not built (see check.sh's log)" ||
		return 1
	insmod thirdparty_example.ko || return 1
	rc=0
	[ "$(state tp_step thirdparty_example)" = "disarmed disarmed" ] &&
		[ "$(col signature "$(site tp_who thirdparty_example)")" = sI ] &&
		[ "$(col symbol "$(site tp_init thirdparty_example)")" = - ] ||
		{ fail "$(grep ' thirdparty_example ' "$LIST")"; rc=1; }
	echo 'enable tp_* count' >$DBG/markers/control || rc=1
	echo 4 >$DBG/thirdparty_example/fire
	echo 'disable tp_*' >$DBG/markers/control || rc=1
	[ "$(hits_of tp_step thirdparty_example)" = "4 4" ] &&
		[ "$(hits_of tp_who thirdparty_example)" = 1 ] ||
		{ fail "hits: $(grep ' thirdparty_example ' "$LIST")"; rc=1; }
	rmmod thirdparty_example || rc=1
	return $rc
}

# print reads every string argument without faulting: a user pointer, a
# wild one and NULL read as "(fault)", a string with no NUL in reach is
# cut. (Before, the user pointer oopsed in string() under __marker_print.)
t_print_survives_bad_strings() {
	insmod marker_test_bad.ko || return 1
	echo >$INSTANCE/trace
	rc=0
	for m in bad_user_str bad_wild_str bad_null_str bad_unterminated; do
		echo "enable $m print" >$DBG/markers/control || { fail "$m refused"; rc=1; }
	done
	echo hello >$DBG/marker_test_bad/fire
	for m in bad_user_str bad_wild_str bad_null_str; do
		grep -q ": $m: (fault)\$" $INSTANCE/trace ||
			{ fail "$m: $(grep ": $m:" $INSTANCE/trace)"; rc=1; }
	done
	grep -qE ': bad_unterminated: x{200,255}$' $INSTANCE/trace ||
		{ fail "bad_unterminated: $(grep ': bad_unterminated:' $INSTANCE/trace)"; rc=1; }
	for m in bad_user_str bad_wild_str bad_null_str bad_unterminated; do
		echo "disable $m" >$DBG/markers/control
	done
	return $rc
}

# A format that does not fit the signature is refused when print connects
# (-EINVAL, one line naming the format and the arguments), and nothing is
# armed; count, which does not format, still connects.
t_print_refuses_unfit_formats() {
	rc=0
	for m in bad_int_as_str bad_percent_n bad_more_convs bad_star bad_deref_ptr; do
		before=$(cat "$LIST" "$PROBES")
		if echo "enable $m print" >$DBG/markers/control 2>/tmp/err; then
			fail "$m: print accepted"
			echo "disable $m" >$DBG/markers/control
			rc=1
			continue
		fi
		grep -q 'Invalid argument' /tmp/err &&
			[ "$(dmesg | tail -n 2 | grep -c "marker: $m: format \".*\" of the marker in marker_test_bad does not fit its arguments")" = 1 ] &&
			[ "$(cat "$LIST" "$PROBES")" = "$before" ] ||
			{ fail "$m: $(cat /tmp/err) $(dmesg | tail -n 2)"; rc=1; }
	done
	echo 'enable bad_* count' >$DBG/markers/control || { fail "count refused"; rc=1; }
	echo hello >$DBG/marker_test_bad/fire
	[ "$(hits_of bad_percent_n marker_test_bad)" = 1 ] || { fail "count: $(site bad_percent_n marker_test_bad)"; rc=1; }
	echo 'disable bad_*' >$DBG/markers/control
	# a pattern probe that prints is refused as a whole
	echo 'enable bad_* print' >$DBG/markers/control 2>/dev/null &&
		{ fail "bad_* print accepted"; echo 'disable bad_*' >$DBG/markers/control; rc=1; }
	rmmod marker_test_bad || rc=1
	return $rc
}

# "rmmod -f marker" with markers enabled through the control file: the
# registry disables them before its code goes. (Before, it warned and left
# their sites armed, calling the freed actions.)
t_registry_forced_unload() {
	echo 'enable subsys_mark3 print' >$DBG/markers/control || return 1
	echo 'enable test_* count' >$DBG/markers/control || return 1
	[ "$(state test_types marker_test_sites)" = armed ] ||
		fail "$(cat "$LIST")" || return 1
	rmmod marker 2>/dev/null && fail "rmmod accepted while enabled" &&
		return 1
	if ! rmmod -f marker; then
		# leave nothing enabled for the tests after this one
		echo 'disable subsys_mark3' >$DBG/markers/control
		echo 'disable test_*' >$DBG/markers/control
		fail "rmmod -f refused (CONFIG_MODULE_FORCE_UNLOAD?)"
		return 1
	fi
	dmesg | grep -q 'marker: forced unload: disabled the 2 markers enabled through the control file' ||
		fail "no log line for the forced unload" || return 1
	# each site would call into the freed module if it were still armed
	fire 5
	cat /proc/testmark 2>/dev/null
	insmod marker.ko || return 1
	[ "$(awk '!/^#/ && $4 != "disarmed"' "$LIST")" = "" ] ||
		fail "armed after rmmod -f: $(cat "$LIST")"
}

# A new registry finds the sites as they were compiled: what the last one
# knew of them (their module, what its actions counted) was in records of
# its own, gone with it. (Before, the count lived in the annotated module's
# site and outlived the registry.)
t_registry_reload_finds_sites() {
	before=$(col hits "$(site test_types marker_test_sites)")
	echo 'enable test_types count' >$DBG/markers/control || return 1
	fire 3
	echo 'disable test_types' >$DBG/markers/control || return 1
	[ "$(col hits "$(site test_types marker_test_sites)")" = $((before + 3)) ] ||
		fail "counted: $(site test_types marker_test_sites)" || return 1
	rmmod marker || return 1
	insmod marker.ko || return 1
	[ "$(state test_types marker_test_sites)" = disarmed ] &&
		[ "$(state subsys_mark1 marker_example)" = disarmed ] ||
		fail "$(cat "$LIST")" || return 1
	[ "$(col hits "$(site test_types marker_test_sites)")" = 0 ] ||
		fail "the count outlived the registry: $(site test_types marker_test_sites)"
}

# marker.ko's exit races an annotated module's rmmod (race_delay_ms holds
# the window open): the registry must forget the module's sites before it
# stops listening for modules, or it writes into the freed module. (Before,
# it unregistered its notifier first: a page fault in
# __marker_forget_all().)
t_registry_exit_races_module_unload() {
	rmmod marker || return 1
	insmod marker.ko race_delay_ms=2000 || return 1
	[ "$(state test_types marker_test_sites)" = disarmed ] ||
		fail "$(site test_types marker_test_sites)" || return 1
	rmmod marker &
	pid=$!
	sleep 1
	rc=0
	rmmod marker_test_sites || { fail "rmmod marker_test_sites"; rc=1; }
	wait $pid || { fail "rmmod marker"; rc=1; }
	insmod marker.ko || return 1
	insmod marker_test_sites.ko || return 1
	[ "$(state test_types marker_test_sites)" = disarmed ] ||
		fail "after reload: $(site test_types marker_test_sites)" || rc=1
	return $rc
}

# marker.ko starts while a module is still in its init: the walk of the
# modules already loaded must leave it to its LIVE notification, since an
# init that fails frees the module whatever references the walk holds.
# (Before, the walk pinned it and learnt its sites after it was freed.)
t_registry_start_races_failing_init() {
	rmmod marker || return 1
	rc=0
	for fail in 1 0; do
		insmod marker_test_race.ko init_ms=2000 init_fail=$fail &
		pid=$!
		sleep 1
		insmod marker.ko race_delay_ms=3000 ||
			{ fail "insmod marker"; rc=1; }
		if wait $pid; then ok=0; else ok=1; fi
		[ "$ok" = "$fail" ] || { fail "insmod init_fail=$fail: rc $ok"; rc=1; }
		n=$(grep -c '^test_race_exit marker_test_race ' "$LIST")
		[ "$n" = $((1 - fail)) ] ||
			{ fail "init_fail=$fail: $n listing lines"; rc=1; }
		rmmod marker_test_race 2>/dev/null
		rmmod marker || rc=1
	done
	insmod marker.ko || return 1
	return $rc
}

# An ftrace instance "markers" that the user made before loading the
# registry is the user's: used, never removed. The registry's own is
# removed at rmmod, unless it is in use: then it stays, and the log says
# so. (Before, the user's was removed, and one in use leaked silently.)
t_registry_keeps_users_instance() {
	rmmod marker || return 1
	[ ! -d "$INSTANCE" ] || fail "the registry's instance outlived it" ||
		return 1
	mkdir "$INSTANCE" || return 1
	# the size, as the kernel rounds it, tells the user's instance apart
	echo 77 >"$INSTANCE/buffer_size_kb"
	size=$(cat "$INSTANCE/buffer_size_kb")
	rc=0
	insmod marker.ko || return 1
	dmesg | grep -q 'marker: using the existing ftrace instance "markers"' ||
		{ fail "no log line for the user's instance"; rc=1; }
	echo 'enable subsys_mark3 print' >$DBG/markers/control || rc=1
	cat /proc/testmark 2>/dev/null
	echo 'disable subsys_mark3' >$DBG/markers/control || rc=1
	grep -q ': subsys_mark3: 7 blah3$' "$INSTANCE/trace" ||
		{ fail "print did not use the user's instance"; rc=1; }
	rmmod marker || return 1
	[ "$(cat "$INSTANCE/buffer_size_kb" 2>/dev/null)" = "$size" ] ||
		{ fail "the user's instance was removed"; rc=1; }
	rmdir "$INSTANCE" || rc=1

	# the registry's own, in use at rmmod
	insmod marker.ko || return 1
	cat "$INSTANCE/trace_pipe" >/dev/null &
	pid=$!
	sleep 1
	rmmod marker || rc=1
	dmesg | grep -q 'marker: ftrace instance "markers" is in use (-16, trace_pipe open?): left in place' ||
		{ fail "no log line for the instance in use"; rc=1; }
	[ -d "$INSTANCE" ] || { fail "removed while in use"; rc=1; }
	kill $pid
	wait $pid 2>/dev/null
	rmdir "$INSTANCE" || rc=1
	insmod marker.ko || return 1
	return $rc
}

# as_nobody CMD: run CMD with uid and gid 65534 (su needs a passwd line)
as_nobody() {
	mkdir -p /etc
	grep -q '^nobody:' /etc/passwd 2>/dev/null ||
		echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
	su -s /bin/sh nobody -c "$1" 2>/dev/null
}

# Every file of the registry in debugfs, and of its instance in tracefs,
# is refused to an unprivileged user, even with both file systems opened
# to everyone (mode=0755): each is read and written as uid 65534, and
# nothing changes.
t_files_refused_to_nobody() {
	[ "$(as_nobody 'id -u')" = 65534 ] || fail "su nobody: not uid 65534" ||
		return 1
	mount -o remount,mode=0755 $DBG || return 1
	mount -o remount,mode=0755 $TRACING || return 1
	before=$(cat "$LIST" "$PROBES")
	rc=0
	n=0
	# the events' files: the system's and one event's, all alike
	for f in $DBG/markers/* "$INSTANCE"/* "$TRACING"/events/markers/* \
		"$TRACING"/events/markers/subsys_mark3/*; do
		[ -f "$f" ] || continue
		n=$((n + 1))
		# open only (count=0): trace_pipe would block a reader
		if as_nobody "dd if='$f' of=/dev/null bs=1 count=0"; then
			fail "$f: read by uid 65534"
			rc=1
		fi
		if as_nobody "echo 'enable subsys_mark1 count' >'$f'"; then
			fail "$f: written by uid 65534"
			rc=1
		fi
	done
	mount -o remount,mode=0700 $DBG
	mount -o remount,mode=0700 $TRACING
	[ "$(cat "$LIST" "$PROBES")" = "$before" ] ||
		{ fail "state changed"; rc=1; }
	[ "$n" -ge 10 ] || { fail "only $n files"; rc=1; }
	return $rc
}

# Garbage by the hundred: random bytes, alone or after a verb, each in one
# write to the control file, and random markers= for the loader. Each is
# refused with an errno and one log line; the listing and the probes stay
# as they were (and vm.sh finds no oops or warning).
t_garbage_refused() {
	before=$(cat "$LIST" "$PROBES")
	logged=$(dmesg | grep -c 'marker: control: ')
	rc=0
	i=0
	while [ $i -lt 300 ]; do
		# after a verb, an x: no marker's name begins with one, so
		# that no pattern can match (a lone '*' would enable all)
		case $((i % 3)) in
		0) printf 'enable x' ;;
		1) printf 'disable x' ;;
		esac >/tmp/garbage
		head -c $((i % 97 + 1)) /dev/urandom >>/tmp/garbage
		# one write() (cat copies a small file in one)
		if cat /tmp/garbage >$DBG/markers/control 2>/dev/null; then
			fail "accepted: $(od -An -c /tmp/garbage | head -n 2)"
			rc=1
		fi
		i=$((i + 1))
	done
	n=$(($(dmesg | grep -c 'marker: control: ') - logged))
	[ "$n" = 300 ] || { fail "$n log lines for 300 refused writes"; rc=1; }
	i=0
	while [ $i -lt 30 ]; do
		# no '"': one would end the harness's quoting and pass
		# the rest as another (unknown, ignored) parameter
		m=$(head -c 24 /dev/urandom | tr -dc 'a-z_,* \n=' | head -c 16)
		if insmod marker_loader.ko "markers=\"x${m}y \"" 2>/dev/null; then
			fail "markers=x${m}y accepted"
			rmmod marker_loader
			rc=1
		fi
		i=$((i + 1))
	done
	[ "$(cat "$LIST" "$PROBES")" = "$before" ] ||
		{ fail "state changed"; rc=1; }
	return $rc
}

t_unload_everything() {
	rmmod marker_test_sites && rmmod marker_example && rmmod marker
}

# shellcheck source=SCRIPTDIR/tests-markerctl.sh
. ./tests-markerctl.sh
# shellcheck source=SCRIPTDIR/tests-events.sh
. ./tests-events.sh
# shellcheck source=SCRIPTDIR/tests-tools.sh
. ./tests-tools.sh
# shellcheck source=SCRIPTDIR/tests-irq.sh
. ./tests-irq.sh
# shellcheck source=SCRIPTDIR/tests-stress.sh
. ./tests-stress.sh
# shellcheck source=SCRIPTDIR/tests-offers.sh
. ./tests-offers.sh
# shellcheck source=SCRIPTDIR/tests-faults.sh
. ./tests-faults.sh
# shellcheck source=SCRIPTDIR/tests-fire.sh
. ./tests-fire.sh
# shellcheck source=SCRIPTDIR/tests-inline.sh
. ./tests-inline.sh
# shellcheck source=SCRIPTDIR/tests-counts.sh
. ./tests-counts.sh
# shellcheck source=SCRIPTDIR/tests-pred.sh
. ./tests-pred.sh

# A hit where RCU is not watching: under lockdep, one warning (WARN_ONCE()'s
# flag is one a source file), and the probes are not called. The warning
# is expected: panic_on_warn is off around it, and its report is printed,
# then cleared from the kernel log, renamed, so that the rig does not fail
# the run on it.
t_rcu_unwatched_hit_dropped() {
	msg='marker test_unwatched: RCU is not watching, hit dropped'
	insmod marker_test_rcu.ko || return 1
	echo 'enable test_unwatched count' >$DBG/markers/control || return 1
	pow=$(cat /proc/sys/kernel/panic_on_warn)
	echo 0 >/proc/sys/kernel/panic_on_warn
	echo 1 >$DBG/marker_test_rcu/fire
	echo 1 >$DBG/marker_test_rcu/fire
	echo "$pow" >/proc/sys/kernel/panic_on_warn
	h1=$(hits_of test_unwatched marker_test_rcu)
	echo 0 >$DBG/marker_test_rcu/fire
	h2=$(hits_of test_unwatched marker_test_rcu)
	n=$(dmesg | grep -c "$msg")
	dmesg -c | awk -v msg="$msg" '
		index($0, msg) { inj = 1 }
		inj { sub(/WARNING:/, "Warning (expected):")
		      sub(/Call Trace:/, "Stack of the expected warning:") }
		inj && /end trace/ { inj = 0 }
		{ print }'
	echo 'disable test_unwatched' >$DBG/markers/control
	rmmod marker_test_rcu || return 1
	# the hits of the two sites, the unwatched one's and the other's
	[ "$h1" = "0 0" ] || fail "unwatched hits reached a probe: $h1" ||
		return 1
	[ "$h2" = "0 1" ] || [ "$h2" = "1 0" ] ||
		fail "a watched hit did not: $h2" || return 1
	[ "$n" = 1 ] || fail "$n warnings, expected one"
}

# The debug kernel (debug-guest.sh sets MARKERS_SUITE_DEBUG=1) has lockdep,
# and CONFIG_FAILSLAB for the fault injection tests; Debian's have neither.
DEBUG_TESTS="rcu_unwatched_hit_dropped $FAULT_TESTS"
if [ "${MARKERS_SUITE_DEBUG:-0}" != 1 ]; then
	echo "# these tests run on the debug kernel only: $DEBUG_TESTS"
	DEBUG_TESTS=
fi

TESTS="registry_finds_earlier_modules registry_finds_later_modules
signatures_derived mode_is_built_mode disarmed_sites_are_defaults
disarmed_calls_nothing probe_example_prints typed_probe_exact_values
generic_probe_exact_values marker_without_arguments
all_sites_of_a_name_arm_together two_probes_either_order
signature_mismatch_refused site_not_at_defaults_refused
pending_mismatch_reported_on_arrival pending_probe_armed_on_arrival marker_module_leaves_while_armed
rmmod_probe_while_firing registry_pinned_by_probes kprobe_on_symbol_marker
kprobe_on_every_site listing_shows_own_code third_party_module
print_survives_bad_strings print_refuses_unfit_formats
loader_by_name_and_glob loader_refuses_bad_parameters control_print_to_ftrace
control_all_types_and_stack control_refuses_bad_input control_pins_registry
$OFFER_TESTS $DEBUG_TESTS one_grace_period_per_batch $MARKERCTL_TESTS $FIRE_TESTS $INLINE_TESTS $COUNT_TESTS $PRED_TESTS $IRQ_TESTS
$EVENT_TESTS $TOOLS_TESTS
registry_forced_unload registry_reload_finds_sites registry_exit_races_module_unload
registry_start_races_failing_init registry_keeps_users_instance
files_refused_to_nobody garbage_refused unload_everything markerctl_no_registry"
# t_stress runs in a boot of its own (check.sh, make stress): ./only
# check.sh TESTS=...: only those, after the two that load the modules, and
# before the one that unloads them (debug-guest.sh loads marker.ko again)
# make faults: "faults", every fault injection test
if [ -s ./only ]; then
	only=$(cat ./only)
	[ "$only" != faults ] || only="$FAULT_TESTS $FAULT_MODULE_TESTS"
	TESTS="registry_finds_earlier_modules registry_finds_later_modules $only
unload_everything"
fi

ktap_print_header
ktap_set_plan "$(echo $TESTS | wc -w)"
for t in $TESTS; do
	if "t_$t"; then
		ktap_test_pass "$MODE: $t"
	else
		ktap_test_fail "$MODE: $t"
	fi
done

echo "# kernel log follows"
dmesg
ktap_finished
