# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-pred.sh - guest tests of predicates ("enable PATTERN ACTION if
# PREDICATE", kernel/marker_pred.c, markerctl enable --if), sourced by
# run-tests.sh (busybox sh), whose helpers (fail, site, hits_of,
# consumer_hits, refused, control_refused, fire, mc_rc) and variables
# ($LIST, $PROBES, $DBG, $INSTANCE) they use.
#
# The tests of $PRED_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe is attached; each leaves them
# so. marker_test_sites' "fire N" runs test_named ("value=%d name=%s
# int=%d": value i, name "blah", arg3 -i) and test_types (arg3, an s8, -i;
# arg8 "blah") for i = 1..N.

# pred_hits PATTERN PREDICATE N: enable PATTERN count if PREDICATE, fire N,
# and print the hits of the action's own count, then disable
pred_hits() {
	echo "enable $1 count if $2" >"$DBG"/markers/control || return 1
	fire "$3"
	consumer_hits "$1" marker_count
	echo "disable $1" >"$DBG"/markers/control
}

# expect_pred PATTERN PREDICATE N HITS: pred_hits gives HITS
expect_pred() {
	got=$(pred_hits "$1" "$2" "$3")
	[ "$got" = "$4" ] ||
		fail "'$2' on $1, fire $3: $got hits, expected $4"
}

# True and false, on ints (signed, of a char too) and strings, equal and
# glob, by argN and by the names the format gives: the action runs, and
# counts, on the hits where the predicate holds, and only there.
t_pred_true_and_false() {
	rc=0
	h=$(hits_of test_named marker_test_sites)
	expect_pred test_named 'value > 2 && name == "bl*"' 5 3 || rc=1
	[ "$(hits_of test_named marker_test_sites)" = $((h + 3)) ] ||
		{ fail "site hits: $(site test_named marker_test_sites)"; rc=1; }
	expect_pred test_named 'value > 2 && name == "x*"' 5 0 || rc=1
	expect_pred test_named 'name == "blah" && !(value != 4)' 5 1 || rc=1
	expect_pred test_named 'name != "blah" || value <= 2' 5 2 || rc=1
	expect_pred test_named 'arg3 == -2 || arg3 < -0x4' 6 3 || rc=1
	expect_pred test_types 'arg3 < -3 || arg8 != "blah"' 5 2 || rc=1
	expect_pred test_types 'arg3 >= 0' 5 0 || rc=1
	expect_pred test_types 'arg1 == 3 && arg2 == 9 && arg8 == "b?a[h]"' 5 1 ||
		rc=1
	# the probes file shows the predicate as given, with the count
	echo 'enable test_named count if value == 1' >"$DBG"/markers/control ||
		rc=1
	fire 2
	grep -qx 'test_named marker_count marker \* action 1 1 if value == 1' \
		"$PROBES" || { fail "probes file: $(cat "$PROBES")"; rc=1; }
	echo 'disable test_named' >"$DBG"/markers/control
	return $rc
}

# What does not parse or fit is refused, EINVAL and one line, nothing
# connected: syntax, an unknown field, a type mismatch, a field that one
# of a pattern's markers lacks.
t_pred_refused() {
	control_refused 'enable test_named count if' 'Invalid argument' \
		"enable test_named: 'if' without a predicate" &&
	refused 'enable test_named count if value >' 'Invalid argument' \
		'test_named: predicate "value >" of marker_count \[marker\]: a field is compared with an integer or a "string", at ""' &&
	refused 'enable test_named if value == 1 &&' 'Invalid argument' \
		'test_named: predicate "value == 1 &&" of marker_count \[marker\]: a comparison starts with a field: argN or a name, at ""' &&
	refused 'enable test_named count if nosuch == 1' 'Invalid argument' \
		'test_named: predicate "nosuch == 1" of marker_count \[marker\]: the marker in marker_test_sites has no field nosuch' &&
	refused 'enable test_named count if name == 1' 'Invalid argument' \
		'test_named: predicate "name == 1" of marker_count \[marker\] does not fit the marker in marker_test_sites: name is char \*, compared with an integer' &&
	refused 'enable test_named count if value == "1"' 'Invalid argument' \
		'test_named: predicate "value == "1"" of marker_count \[marker\] does not fit the marker in marker_test_sites: value is int, compared with a string' &&
	refused 'enable test_named count if name < "b"' 'Invalid argument' \
		'test_named: predicate "name < "b"" of marker_count \[marker\]: a string is compared with == or != only, at ""b""' &&
	refused 'enable test_[nt]* count if arg3 == 1' 'Invalid argument' \
		'test_[a-z]*: predicate "arg3 == 1" of marker_count \[marker\] does not fit the marker in marker_test_sites: arg3: it has [01] argument' ||
		return 1
	[ "$(col probes "$(site test_named marker_test_sites)")" = 0 ] ||
		fail "test_named armed: $(site test_named marker_test_sites)"
}

# fire runs the predicate on what it parsed, as the site would: print
# records the hits it lets through, only those.
t_pred_fire_and_print() {
	rc=0
	echo >"$INSTANCE"/trace
	echo 'enable test_named print if name == "x*" && value > 6' \
		>"$DBG"/markers/control || return 1
	echo 'fire test_named 7 xyz 1' >"$DBG"/markers/control || rc=1
	echo 'fire test_named 7 abc 1' >"$DBG"/markers/control || rc=1
	echo 'fire test_named 6 xyz 1' >"$DBG"/markers/control || rc=1
	fire 3
	echo 'disable test_named' >"$DBG"/markers/control
	got=$(grep -c 'test_named: ' "$INSTANCE"/trace)
	grep -q 'test_named: value=7 name=xyz int=1' "$INSTANCE"/trace &&
		[ "$got" = 1 ] ||
		{ fail "trace: $(cat "$INSTANCE"/trace)"; rc=1; }
	echo >"$INSTANCE"/trace
	return $rc
}

# markerctl enable --if writes the predicate; list -v shows it with the
# consumer's count.
t_pred_markerctl() {
	rc=0
	mc_rc 0 enable test_named --if 'value == 2 || name == "zz"' || return 1
	fire 3
	mc_rc 0 list -v || rc=1
	grep -qx '    consumer: action marker_count \[marker\], hits 1, if value == 2 || name == "zz"' \
		/tmp/mc.out || { fail "list -v: $(cat /tmp/mc.out)"; rc=1; }
	mc_rc 0 disable test_named || rc=1
	mc_rc 2 enable test_named --if 'nosuch > 1' || rc=1
	grep -q 'Invalid argument' /tmp/mc.err ||
		{ fail "markerctl: $(cat /tmp/mc.err)"; rc=1; }
	return $rc
}

# shellcheck disable=SC2034 # used by run-tests.sh
PRED_TESTS="pred_true_and_false pred_refused pred_fire_and_print pred_markerctl"
