# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-fire.sh - guest tests of firing a marker by name (the control
# file's "fire NAME ARG...", kernel/marker_fire.c, and markerctl fire and
# fuzz), sourced by run-tests.sh (busybox sh), whose helpers (fail, site,
# col, hits_of, refused, control_refused, fire) and variables ($LIST, $DBG,
# $INSTANCE, $TRACING) they use.
#
# The tests of $FIRE_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe is attached; each leaves them
# so. The fired counts they check are the ones they add.

# fired_of NAME MODULE: the fired count of NAME's sites in MODULE, a word a site
fired_of() {
	site "$1" "$2" | awk -v n="$(colnum fired)" \
		'{ printf "%s%s", sep, $n; sep = " " } END { print "" }'
}

# Every type of a signature, through the print action, which formats the
# arguments with the marker's own format: what fire parsed is what a site
# passes, at the edges of each type's range. Counted in fired, not in hits.
t_fire_each_type() {
	rc=0
	echo >$INSTANCE/trace
	f1=$(fired_of test_types marker_test_sites)
	f2=$(fired_of test_scalars marker_test_sites)
	echo 'enable test_types print' >$DBG/markers/control || return 1
	echo 'enable test_scalars print' >$DBG/markers/control || return 1
	h1=$(hits_of test_types marker_test_sites)
	h2=$(hits_of test_scalars marker_test_sites)
	echo 'fire test_types -2147483648 4294967295 -128 65535 -9223372036854775808 0xffffffffffffffff 0 "two  words"' \
		>$DBG/markers/control || rc=1
	echo 'fire test_scalars y 255 -32768 16 -1' >$DBG/markers/control || rc=1
	echo 'fire test_scalars 0 0 32767 0x10 9223372036854775807' \
		>$DBG/markers/control || rc=1
	echo 'fire test_types 0 0 0 0 0 0 0 ""' >$DBG/markers/control || rc=1
	echo 'disable test_types' >$DBG/markers/control
	echo 'disable test_scalars' >$DBG/markers/control
	# %d %u %hhd %hu %ld %llu %p %s; %d %hhu %hd %lu %lld
	grep -qE ': test_types: -2147483648 4294967295 -128 65535 -9223372036854775808 18446744073709551615 [^ ]+ two  words$' \
		$INSTANCE/trace || { fail "test_types: $(cat $INSTANCE/trace)"; rc=1; }
	grep -qE ': test_types: 0 0 0 0 0 0 [^ ]+ $' $INSTANCE/trace ||
		{ fail "test_types, zeros: $(cat $INSTANCE/trace)"; rc=1; }
	grep -q ': test_scalars: 1 255 -32768 16 -1$' $INSTANCE/trace &&
		grep -q ': test_scalars: 0 0 32767 16 9223372036854775807$' \
			$INSTANCE/trace ||
		{ fail "test_scalars: $(cat $INSTANCE/trace)"; rc=1; }
	[ "$(fired_of test_types marker_test_sites)" = $((f1 + 2)) ] &&
		[ "$(fired_of test_scalars marker_test_sites)" = $((f2 + 2)) ] ||
		{ fail "fired: $(site test_types marker_test_sites) $(site test_scalars marker_test_sites)"; rc=1; }
	[ "$(hits_of test_types marker_test_sites)" = "$h1" ] &&
		[ "$(hits_of test_scalars marker_test_sites)" = "$h2" ] ||
		{ fail "fired hits counted as hits: $(cat "$LIST")"; rc=1; }
	echo >$INSTANCE/trace
	return $rc
}

# A typed probe, called directly (it is the marker's only one), gets each
# value at its own width, with preemption disabled (the probe counts a
# wrong value or a preemptible call as bad); the code's own hits too.
t_fire_typed_probe() {
	rc=0
	insmod marker_test_probe.ko probe=scalars || return 1
	echo 'fire test_scalars 1 255 -32768 16 -1' >$DBG/markers/control || rc=1
	[ "$(hits)" = 1 ] && [ "$(bad)" = 0 ] ||
		{ fail "fired: hits $(hits), bad $(bad)"; rc=1; }
	fire 2
	[ "$(hits)" = 3 ] && [ "$(bad)" = 0 ] ||
		{ fail "the code: hits $(hits), bad $(bad)"; rc=1; }
	# a probe that checks what it gets sees another value
	echo 'fire test_scalars 1 254 -32768 16 -1' >$DBG/markers/control || rc=1
	[ "$(hits)" = 4 ] && [ "$(bad)" = 1 ] ||
		{ fail "another value: hits $(hits), bad $(bad)"; rc=1; }
	rmmod marker_test_probe || return 1
	return $rc
}

# The event of the marker records a fired hit, as from the site.
t_fire_records_the_event() {
	echo >$TRACING/trace
	echo 1 >$TRACING/events/markers/test_scalars/enable || return 1
	echo 'fire test_scalars n 7 -7 7 -7' >$DBG/markers/control
	echo 0 >$TRACING/events/markers/test_scalars/enable
	grep -q ' test_scalars: 0 7 -7 7 -7$' $TRACING/trace ||
		fail "no record: $(cat $TRACING/trace)" || return 1
	echo >$TRACING/trace
}

# Each refusal is an errno, one log line and no change: not a name, no
# site, the wrong number of arguments, a value not of its type or out of
# its range, a pointer other than 0, a quote not closed. One a line:
# CMD|ERRNO-TEXT|DMESG-TEXT, as control_refused takes them.
t_fire_refuses_bad_arguments() {
	while IFS='|' read -r cmd errno why; do
		control_refused "$cmd" "$errno" "$why" || return 1
	done <<'EOF'
fire test_*|Invalid argument|fire: 'test_\*' is not a marker's name
fire nosuch 1|No such file|fire nosuch: no site of it is loaded
fire test_scalars 1 2 3 4|Invalid argument|fire test_scalars: too few arguments, it takes 5: (bool, unsigned char, short, unsigned long, long long)
fire test_scalars 1 2 3 4 5 6|Invalid argument|fire test_scalars: too many arguments, it takes 5
fire test_scalars maybe 2 3 4 5|Invalid argument|fire test_scalars: argument 1, 'maybe', is no bool
fire test_scalars 1 256 3 4 5|out of range|fire test_scalars: argument 2, '256', is no unsigned char
fire test_scalars 1 2 -32769 4 5|out of range|fire test_scalars: argument 3, '-32769', is no short
fire test_scalars 1 2 3 -4 5|Invalid argument|fire test_scalars: argument 4, '-4', is no unsigned long
fire test_types 1 2 3 4 5 6 0x1000 s|Invalid argument|fire test_types: argument 7, '0x1000', is no void \* that fire can pass: only 0
fire test_types 1 2 3 4 5 6 0 "s|Invalid argument|fire test_types: argument 8: a quote is not closed
EOF
}

# markerctl fire quotes what needs it and says why the kernel refused;
# markerctl fuzz fires with random values of the right types, each command
# echoed, reproducible from its seed.
t_markerctl_fire_and_fuzz() {
	rc=0
	echo >$INSTANCE/trace
	f=$(fired_of test_types marker_test_sites)
	echo 'enable test_types print' >$DBG/markers/control || return 1
	mc_rc 0 fire test_types 1 2 3 4 5 6 0 'a b' || rc=1
	grep -qE ': test_types: 1 2 3 4 5 6 [^ ]+ a b$' $INSTANCE/trace ||
		{ fail "markerctl fire: $(cat $INSTANCE/trace)"; rc=1; }
	mc_rc 2 fire test_types 1 || rc=1
	mc_err 'fire test_types: Invalid argument: not a marker' || rc=1
	mc_rc 0 fuzz test_types --count 50 --seed 1 || rc=1
	cp /tmp/mc.out /tmp/fuzz.1
	[ "$(grep -c '^fire test_types ' /tmp/fuzz.1)" = 50 ] ||
		{ fail "fuzz: $(cat /tmp/fuzz.1)"; rc=1; }
	[ "$(grep -c ': test_types: ' $INSTANCE/trace)" = 51 ] ||
		{ fail "fuzz: $(grep -c ': test_types: ' $INSTANCE/trace) lines"; rc=1; }
	mc_rc 0 fuzz test_types --count 50 --seed 1 || rc=1
	cmp -s /tmp/fuzz.1 /tmp/mc.out || { fail "another run of seed 1"; rc=1; }
	echo 'disable test_types' >$DBG/markers/control
	[ "$(fired_of test_types marker_test_sites)" = $((f + 101)) ] ||
		{ fail "fired: $(site test_types marker_test_sites)"; rc=1; }
	mc_rc 2 fuzz nosuch || rc=1
	mc_err 'fuzz: no site of nosuch is loaded' || rc=1
	echo >$INSTANCE/trace
	return $rc
}

# shellcheck disable=SC2034 # used by run-tests.sh
FIRE_TESTS="fire_each_type fire_typed_probe fire_records_the_event
fire_refuses_bad_arguments markerctl_fire_and_fuzz"
