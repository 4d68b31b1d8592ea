# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-counts.sh - guest tests of the counts per consumer (the probes
# file's kind and hits, the listing's consumers, markerctl list -v),
# sourced by run-tests.sh (busybox sh), whose helpers (fail, site, col,
# fire, hits, bad, consumer_hits, mc_rc) and variables ($LIST, $PROBES,
# $DBG, $TRACING) they use.
#
# The tests of $COUNT_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe is attached; each leaves them
# so.

# consumer_line MARKER FUNCTION: the consumer's line of the probes file,
# without its hits
consumer_line() {
	awk -v m="$1" -v f="$2" '$1 == m && $2 == f { $7 = ""; print }' "$PROBES"
}

# Three consumers on test_types, a typed probe (called directly while it
# is alone), the action count and the trace event: each counts exactly the
# hits it was called for, apart from the others, whatever came and went
# around it; the probe's own count agrees; fire is counted in none.
t_consumer_counts_exact() {
	rc=0
	ev=$TRACING/events/markers/test_types/enable
	insmod marker_test_probe.ko probe=types || return 1
	fire 2
	echo 'enable test_types count' >"$DBG"/markers/control || rc=1
	fire 3
	echo 1 >"$ev" || rc=1
	fire 4
	[ "$(col consumers "$(site test_types marker_test_sites)")" = \
	  typed:1,action:1,event:1 ] ||
		{ fail "consumers: $(site test_types marker_test_sites)"; rc=1; }
	[ "$(col probes "$(site test_types marker_test_sites)")" = 3 ] ||
		{ fail "probes: $(site test_types marker_test_sites)"; rc=1; }
	[ "$(consumer_line test_types probe_types)" = \
	  'test_types probe_types marker_test_probe iIcHlQps typed 1 ' ] &&
		[ "$(consumer_line test_types marker_count)" = \
		  'test_types marker_count marker * action 1 ' ] &&
		[ "$(consumer_line test_types marker_event_ftrace)" = \
		  'test_types marker_event_ftrace marker * event 1 ' ] ||
		{ fail "probes file: $(cat "$PROBES")"; rc=1; }
	[ "$(consumer_hits test_types probe_types)" = 9 ] &&
		[ "$(consumer_hits test_types marker_count)" = 7 ] &&
		[ "$(consumer_hits test_types marker_event_ftrace)" = 4 ] ||
		{ fail "counts: $(cat "$PROBES")"; rc=1; }
	[ "$(hits)" = 9 ] && [ "$(bad)" = 0 ] ||
		{ fail "the probe's own count $(hits), bad $(bad)"; rc=1; }
	# a fired hit runs them all, and is counted in none
	echo 'fire test_types 1 2 3 4 5 6 0 s' >"$DBG"/markers/control || rc=1
	[ "$(hits)" = 10 ] ||
		{ fail "fire did not reach the probe: $(hits)"; rc=1; }
	[ "$(consumer_hits test_types probe_types)" = 9 ] &&
		[ "$(consumer_hits test_types marker_count)" = 7 ] &&
		[ "$(consumer_hits test_types marker_event_ftrace)" = 4 ] ||
		{ fail "fire counted: $(cat "$PROBES")"; rc=1; }
	# the action goes; the other two count on
	echo 'disable test_types' >"$DBG"/markers/control || rc=1
	fire 5
	[ "$(consumer_hits test_types probe_types)" = 14 ] &&
		[ "$(consumer_hits test_types marker_event_ftrace)" = 9 ] &&
		[ -z "$(consumer_line test_types marker_count)" ] ||
		{ fail "after disable: $(cat "$PROBES")"; rc=1; }
	[ "$(col consumers "$(site test_types marker_test_sites)")" = \
	  typed:1,event:1 ] ||
		{ fail "consumers: $(site test_types marker_test_sites)"; rc=1; }
	echo 0 >"$ev"
	rmmod marker_test_probe || rc=1
	[ "$(col consumers "$(site test_types marker_test_sites)")" = - ] ||
		{ fail "consumers: $(site test_types marker_test_sites)"; rc=1; }
	echo >"$TRACING"/trace
	return $rc
}

# A pattern consumer counts the hits of every marker it matches; markerctl
# list -v shows each name's consumers, with their counts, under its sites.
t_consumer_counts_listed() {
	rc=0
	echo 'enable subsys_mark[12] count' >"$DBG"/markers/control || return 1
	insmod probe_example.ko || rc=1
	cat /proc/testmark >/dev/null 2>&1	# subsys_mark1, 2 and 3 once
	cat /proc/testmark >/dev/null 2>&1
	[ "$(consumer_hits 'subsys_mark[12]' marker_count)" = 4 ] &&
		[ "$(consumer_hits subsys_mark1 probe_mark1)" = 2 ] ||
		{ fail "counts: $(cat "$PROBES")"; rc=1; }
	mc_rc 0 list -v || rc=1
	sed -n '/^subsys_mark1 /,/^subsys_mark3 /p' /tmp/mc.out >/tmp/mc.got
	grep -qx '    consumer: typed probe_mark1 \[probe_example\], hits 2' \
		/tmp/mc.got &&
		grep -qx '    consumer: action marker_count \[marker\] for subsys_mark\[12\], hits 4' \
			/tmp/mc.got &&
		[ "$(grep -c '^    consumer: ' /tmp/mc.got)" = 3 ] ||
		{ fail "list -v: $(cat /tmp/mc.out)"; rc=1; }
	rmmod probe_example || rc=1
	echo 'disable subsys_mark[12]' >"$DBG"/markers/control || rc=1
	return $rc
}

# shellcheck disable=SC2034 # used by run-tests.sh
COUNT_TESTS="consumer_counts_exact consumer_counts_listed"
