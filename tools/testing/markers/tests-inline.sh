# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-inline.sh - guest tests of the inline markers (MARK_INLINE(), the
# action inline), sourced by run-tests.sh (busybox sh), whose helpers
# (fail, site, col, colnum, refcnt, is_disarmed_code, is_armed_code,
# refused, control_refused, mc_rc, mc_err) and variables ($LIST, $DBG,
# $TRACING) they use.
#
# The tests of $INLINE_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe is attached; each loads
# marker_test_check.ko and removes it.

CHECK=$DBG/marker_test_check

# ran: "A B P", how many times each block of test_check ran, and whether
# every run of the first was preemptible (marker_test_check.c)
ran() {
	cat "$CHECK"/ran
}

# inline_sites STATE: both sites of test_check listed, inline, no
# signature, in STATE, with the code of that state
inline_sites() {
	s=$(site test_check marker_test_check)
	[ "$(echo "$s" | wc -l)" = 2 ] &&
		[ "$(col kind "$s" | sort -u)" = inline ] &&
		[ "$(col signature "$s" | sort -u)" = - ] &&
		[ "$(col state "$s" | sort -u)" = "$1" ] ||
		fail "test_check, expected $1: $s" || return 1
	for c in $(col code "$s"); do
		if [ "$1" = armed ]; then
			is_armed_code "$c" || fail "armed, code $c" || return 1
		else
			is_disarmed_code "$c" || fail "disarmed, code $c" || return 1
		fi
	done
}

# Disarmed, the blocks never run; the name has no trace event and can't
# be fired. Armed by name with the action inline, with no probe module and
# no reference on the annotated module, both sites run their blocks, in
# their caller's context (preemptible); disarmed again, they stop.
t_inline_armed_by_name() {
	rc=0
	insmod marker_test_check.ko || return 1
	inline_sites disarmed || rc=1
	echo 5 >"$CHECK"/run
	[ "$(ran)" = "0 0 1" ] || { fail "disarmed, ran $(ran)"; rc=1; }
	[ ! -e "$TRACING"/events/markers/test_check ] ||
		{ fail "an inline marker has an event"; rc=1; }
	[ -d "$TRACING"/events/markers/subsys_mark1 ] ||
		{ fail "no event for subsys_mark1"; rc=1; }
	ref=$(refcnt marker_test_check)
	echo 'enable test_check inline' >"$DBG"/markers/control || rc=1
	inline_sites armed || rc=1
	[ "$(refcnt marker_test_check)" = "$ref" ] ||
		{ fail "refcnt $(refcnt marker_test_check), was $ref"; rc=1; }
	echo 5 >"$CHECK"/run
	[ "$(ran)" = "5 5 1" ] || { fail "armed, ran $(ran)"; rc=1; }
	echo 'disable test_check' >"$DBG"/markers/control || rc=1
	inline_sites disarmed || rc=1
	echo 5 >"$CHECK"/run
	[ "$(ran)" = "5 5 1" ] || { fail "disarmed again, ran $(ran)"; rc=1; }
	rmmod marker_test_check || return 1
	return $rc
}

# The action inline takes inline markers only, which take no other probe;
# fire refuses them. A pattern passes over the markers of the other kind:
# 'test_*' with count leaves test_check disarmed, and with inline arms it
# alone.
t_inline_refusals_and_patterns() {
	rc=0
	insmod marker_test_check.ko || return 1
	refused 'enable test_check count' 'Invalid argument' \
		'test_check: the marker in marker_test_check is inline, it runs its own code: only the action inline arms it, not marker_count' ||
		rc=1
	refused 'enable subsys_mark1 inline' 'Invalid argument' \
		'subsys_mark1: the action inline arms inline markers (MARK_INLINE()), and the marker in marker_example calls probes' ||
		rc=1
	control_refused 'fire test_check' 'Invalid argument' \
		'fire test_check: an inline marker runs its own code at its sites, there is nothing to fire' ||
		rc=1
	control_refused 'enable test_check?* count' 'No such file' \
		'no loaded marker of kind call matches test_check?\*' || rc=1
	control_refused 'enable subsys_* inline' 'No such file' \
		'no loaded marker of kind inline matches subsys_\*' || rc=1
	if insmod marker_loader.ko markers=test_check action=count 2>/tmp/err; then
		rmmod marker_loader
		fail "the loader connected count to test_check"
		rc=1
	fi

	echo 'enable test_* count' >"$DBG"/markers/control || rc=1
	inline_sites disarmed || rc=1
	[ "$(col state "$(site test_types marker_test_sites)")" = armed ] ||
		{ fail "test_types: $(site test_types marker_test_sites)"; rc=1; }
	echo 'enable test_c* inline' >"$DBG"/markers/control || rc=1
	inline_sites armed || rc=1
	echo 2 >"$CHECK"/run
	[ "$(ran)" = "2 2 1" ] || { fail "armed by a pattern, ran $(ran)"; rc=1; }
	echo 'disable test_c*' >"$DBG"/markers/control || rc=1
	echo 'disable test_*' >"$DBG"/markers/control || rc=1
	inline_sites disarmed || rc=1
	[ "$(col state "$(site test_types marker_test_sites)")" = disarmed ] ||
		{ fail "test_types: $(site test_types marker_test_sites)"; rc=1; }
	rmmod marker_test_check || return 1
	return $rc
}

# The loader arms an inline marker by name, also one whose module loads
# later, and markerctl enables and lists it.
t_inline_loader_and_markerctl() {
	rc=0
	insmod marker_loader.ko markers=test_check action=inline || return 1
	insmod marker_test_check.ko || { rmmod marker_loader; return 1; }
	inline_sites armed || rc=1
	echo 3 >"$CHECK"/run
	[ "$(ran)" = "3 3 1" ] || { fail "loader, ran $(ran)"; rc=1; }
	rmmod marker_loader || rc=1
	inline_sites disarmed || rc=1

	mc_rc 0 enable test_check --action inline || rc=1
	inline_sites armed || rc=1
	mc_rc 0 list || rc=1
	grep -qE '^test_check +marker_test_check +[a-z-]+ +armed +1 +0 +0 +- +- +inline +action:1 +""$' \
		/tmp/mc.out || { fail "markerctl list: $(cat /tmp/mc.out)"; rc=1; }
	mc_rc 0 disable test_check || rc=1
	inline_sites disarmed || rc=1
	mc_rc 2 enable subsys_mark1 --action inline || rc=1
	mc_err 'enable subsys_mark1: Invalid argument' || rc=1
	rmmod marker_test_check || return 1
	return $rc
}

# shellcheck disable=SC2034 # used by run-tests.sh
INLINE_TESTS="inline_armed_by_name inline_refusals_and_patterns
inline_loader_and_markerctl"
