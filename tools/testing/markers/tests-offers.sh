# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-offers.sh - guest tests of offered probes (kernel/marker_offer.c),
# sourced by run-tests.sh (busybox sh), whose helpers (fail, state, refcnt,
# refused) and variables ($DBG, $OFFERS) they use.
#
# They assume marker.ko and marker_example.ko are loaded with subsys_mark3
# disarmed, and probe_offer_example.ko is not loaded; each leaves them so.

OFFER=probe_offered_mark3

# offer_state: "marker module state" of $OFFER in markers/offers, or nothing
offer_state() {
	awk -v n="$OFFER" '$1 == n { print $2, $3, $5 }' "$OFFERS"
}

# mark3_lines: the probe's lines in the kernel log so far
mark3_lines() {
	dmesg | grep -c 'subsys_mark3: 7 blah3$'
}

# offer_is STATE MARK3-STATE REFCNT LINES: $OFFER is STATE (offered or
# connected) in markers/offers, subsys_mark3 is MARK3-STATE,
# probe_offer_example's refcnt is REFCNT, and after a run of subsys_mark3
# (/proc/testmark) the probe's lines in the kernel log are LINES
offer_is() {
	[ "$(offer_state)" = "subsys_mark3 probe_offer_example $1" ] &&
		[ "$(state subsys_mark3 marker_example)" = "$2" ] &&
		[ "$(refcnt probe_offer_example)" = "$3" ] ||
		fail "$1: $(offer_state), $(state subsys_mark3 marker_example), refcnt $(refcnt probe_offer_example)" ||
		return 1
	cat /proc/testmark 2>/dev/null
	[ "$(mark3_lines)" = "$4" ] ||
		fail "$1: $(mark3_lines) lines of the probe in the log, not $4"
}

# An offered probe is connected by name from the control file: it runs,
# and the registry pins its module until it is disconnected, which waits
# for a grace period and releases the module.
t_offer_connect_pins_module() {
	insmod probe_offer_example.ko || return 1
	n=$(mark3_lines)
	offer_is offered disarmed 0 "$n" || return 1

	echo "connect $OFFER" >$DBG/markers/control || return 1
	offer_is connected armed 1 $((n + 1)) || return 1
	rmmod probe_offer_example 2>/dev/null &&
		fail "rmmod of a connected probe's module" && return 1
	refused "connect $OFFER" 'File exists' \
		"probe $OFFER is already connected" || return 1

	echo "disconnect $OFFER" >$DBG/markers/control || return 1
	offer_is offered disarmed 0 $((n + 1)) || return 1
	rmmod probe_offer_example || return 1
	[ "$(grep -vc '^#' "$OFFERS")" = 0 ] ||
		fail "offers after rmmod: $(cat "$OFFERS")"
}

# Connecting what is not offered, disconnecting what is not connected, or a
# name that is no function's, is refused with an errno and a log line.
t_offer_refuses_bad_names() {
	refused 'connect nosuch_probe' 'No such file' \
		'no offered probe is named nosuch_probe' &&
	refused "disconnect $OFFER" 'No such file' \
		"no connected probe is named $OFFER" &&
	refused 'connect probe_*' 'Invalid argument' \
		"control: 'probe_\\*' is not a probe function's name" &&
	refused "connect $OFFER extra" 'Invalid argument' \
		'control: commands are' || return 1
	insmod probe_offer_example.ko || return 1
	rc=0
	refused "disconnect $OFFER" 'No such file' \
		"no connected probe is named $OFFER" || rc=1
	rmmod probe_offer_example || rc=1
	return $rc
}

# The loader's probes= connects offered probes for as long as it is
# loaded; an unknown one fails its init with nothing left connected.
t_offer_loader_probes() {
	insmod probe_offer_example.ko || return 1
	rc=0
	if insmod marker_loader.ko "probes=$OFFER,nosuch_probe" 2>/dev/null; then
		fail "probes=nosuch_probe accepted"
		rmmod marker_loader
		rc=1
	fi
	[ $rc = 0 ] && dmesg | tail -n 3 |
		grep -q 'marker_loader: nosuch_probe: cannot connect: -2' ||
		{ fail "no dmesg line for nosuch_probe"; rc=1; }
	[ $rc = 0 ] && [ "$(refcnt probe_offer_example)" = 0 ] &&
		[ "$(offer_state)" = "subsys_mark3 probe_offer_example offered" ] ||
		{ fail "half-connected: $(offer_state)"; rc=1; }

	if [ $rc = 0 ] && insmod marker_loader.ko "probes=$OFFER"; then
		[ "$(refcnt probe_offer_example)" = 1 ] &&
			[ "$(state subsys_mark3 marker_example)" = armed ] ||
			{ fail "loader: $(offer_state)"; rc=1; }
		rmmod probe_offer_example 2>/dev/null &&
			{ fail "rmmod while the loader holds it"; rc=1; }
		rmmod marker_loader || rc=1
		[ "$(refcnt probe_offer_example)" = 0 ] &&
			[ "$(state subsys_mark3 marker_example)" = disarmed ] ||
			{ fail "after rmmod marker_loader: $(offer_state)"; rc=1; }
	else
		rc=1
	fi
	rmmod probe_offer_example 2>/dev/null || rc=1
	return $rc
}

# shellcheck disable=SC2034 # used by run-tests.sh
OFFER_TESTS="offer_connect_pins_module offer_refuses_bad_names
offer_loader_probes"
