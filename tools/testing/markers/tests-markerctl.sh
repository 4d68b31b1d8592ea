# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# tests-markerctl.sh - guest tests of tools/markerctl, sourced by
# run-tests.sh (busybox sh), whose helpers (fail, site, state, col, fire,
# hits, value_lines) and variables ($LIST, $PROBES, $DBG, $TRACING) they use.
#
# The tests of $MARKERCTL_TESTS assume marker.ko, marker_example.ko and
# marker_test_sites.ko are loaded and no probe is attached; each leaves them
# so. t_markerctl_no_registry assumes marker.ko is NOT loaded: run it after
# t_unload_everything.
#
# check.sh copies markerctl into the payload; vm.sh adds the shared
# libraries it needs to the guest.

MARKERCTL=./markerctl
MC_INSTANCE=$TRACING/instances/markers

# mc_rc RC ARGS...: run markerctl ARGS (output in /tmp/mc.out and
# /tmp/mc.err, never longer than 20 s); fail unless it exits with RC.
mc_rc() {
	mc_want=$1
	shift
	mc_got=0
	timeout 20 $MARKERCTL "$@" >/tmp/mc.out 2>/tmp/mc.err || mc_got=$?
	[ "$mc_got" = "$mc_want" ] ||
		fail "markerctl $*: exit $mc_got, expected $mc_want: $(cat /tmp/mc.err)"
}

# mc_err TEXT: markerctl's last stderr has TEXT
mc_err() {
	grep -q -- "$1" /tmp/mc.err || fail "stderr: $(cat /tmp/mc.err), expected '$1'"
}

# mc_dmesg TEXT: one of the last kernel log lines has TEXT
mc_dmesg() {
	dmesg | tail -n 3 | grep -q -- "$1" || fail "no '$1' in dmesg"
}

mc_hits() {
	site "$1" "$2" | awk '{ print $6 }'
}

# The table is the listing without its code and symbol fields, in aligned
# columns, with each marker's event state (every event is off here) before
# its kind and consumers.
t_markerctl_list() {
	mc_rc 0 list || return 1
	head -n 1 /tmp/mc.out |
		grep -q '^NAME  *MODULE  *MODE  *STATE  *PROBES  *HITS  *FIRED  *SIGNATURE  *EVENT  *KIND  *CONSUMERS  *FORMAT$' ||
		fail "header: $(head -n 1 /tmp/mc.out)" || return 1
	awk '!/^#/ { $9 = "off"; $10 = ""; print }' "$LIST" | tr -s ' ' >/tmp/mc.want
	sed 1d /tmp/mc.out | tr -s ' ' >/tmp/mc.got
	[ "$(wc -l </tmp/mc.want)" -ge 9 ] || fail "only $(wc -l </tmp/mc.want) sites" ||
		return 1
	cmp -s /tmp/mc.want /tmp/mc.got ||
		fail "table differs: $(diff /tmp/mc.want /tmp/mc.got | head -n 8)" ||
		return 1
	# every format starts in the column of the FORMAT header
	awk 'NR == 1 { c = index($0, "FORMAT"); next }
	     substr($0, c, 1) != "\"" { bad = 1 } END { exit bad }' /tmp/mc.out ||
		fail "columns not aligned: $(cat /tmp/mc.out)"
}

# One object per line, in the listing's order; probes, hits and fired
# unquoted.
# (The formats of the samples need no JSON escapes; selftest.sh checks them.)
t_markerctl_list_json() {
	mc_rc 0 list --json || return 1
	{
		echo '['
		awk '!/^#/ {
			printf "%s  {\"name\": \"%s\", \"module\": \"%s\", \"mode\": \"%s\", \"state\": \"%s\", \"probes\": %s, \"hits\": %s, \"fired\": %s, \"signature\": \"%s\", \"code\": \"%s\", \"symbol\": \"%s\", \"kind\": \"%s\", \"consumers\": \"%s\", \"format\": %s, \"event\": \"off\"}",
			       sep, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, substr($0, index($0, "\""))
			sep = ",\n"
		} END { print "" }' "$LIST"
		echo ']'
	} >/tmp/mc.want
	grep -q '"name": "test_types", .*"probes": 0, "hits": [0-9]*, "fired": 0, "signature": "iIcHlQps", .*"kind": "call", ' /tmp/mc.want ||
		fail "expected JSON: $(cat /tmp/mc.want)" || return 1
	cmp -s /tmp/mc.want /tmp/mc.out ||
		fail "JSON differs: $(diff /tmp/mc.want /tmp/mc.out | head -n 8)"
}

# print: the formatted line reaches watch; --count stops after N lines and
# leaves the next ones in the pipe.
t_markerctl_enable_print_watch() {
	echo >"$MC_INSTANCE/trace"
	mc_rc 0 enable subsys_mark3 --action print || return 1
	mc_ok=0
	{ [ "$(state subsys_mark3 marker_example)" = armed ] ||
		fail "not armed: $(site subsys_mark3 marker_example)"; } &&
	{ cat /proc/testmark; cat /proc/testmark; true; } 2>/dev/null &&
	mc_rc 0 watch --count 1 &&
	{ [ "$(wc -l </tmp/mc.out)" = 1 ] &&
		grep -q ': subsys_mark3: 7 blah3$' /tmp/mc.out ||
		fail "watch: $(cat /tmp/mc.out)"; } &&
	mc_rc 0 watch --count 1 &&
	{ grep -q ': subsys_mark3: 7 blah3$' /tmp/mc.out ||
		fail "second line: $(cat /tmp/mc.out)"; } || mc_ok=1
	$MARKERCTL disable subsys_mark3
	return $mc_ok
}

# The default action counts; disable disarms and stops counting.
t_markerctl_disable() {
	h=$(mc_hits subsys_mark2 marker_example)
	mc_rc 0 enable 'subsys_*' || return 1
	mc_ok=0
	{ [ "$(state subsys_mark1 marker_example) $(state subsys_mark2 marker_example)" = "armed armed" ] ||
		fail "not armed: $(cat "$LIST")"; } &&
	{ cat /proc/testmark 2>/dev/null; true; } &&
	{ [ "$(mc_hits subsys_mark2 marker_example)" = $((h + 1)) ] ||
		fail "hits $(mc_hits subsys_mark2 marker_example), were $h"; } || mc_ok=1
	mc_rc 0 disable 'subsys_*' || return 1
	[ $mc_ok = 0 ] || return 1
	for m in subsys_mark1 subsys_mark2 subsys_mark3; do
		s=$(site $m marker_example)
		[ "$(col state "$s")" = disarmed ] && [ "$(col probes "$s")" = 0 ] ||
			fail "after disable: $s" || return 1
	done
	cat /proc/testmark 2>/dev/null
	[ "$(mc_hits subsys_mark2 marker_example)" = $((h + 1)) ] ||
		fail "counted after disable" || return 1
	mc_rc 2 disable 'subsys_*' || return 1
	mc_err 'not enabled' && mc_err 'see dmesg' && mc_dmesg 'subsys_\* is not enabled'
}

# load passes its parameters; unload takes a name, with or without .ko;
# the kernel's refusals exit 2.
t_markerctl_load_unload() {
	before=$(value_lines)
	mc_rc 0 load probe_example.ko || return 1
	mc_ok=0
	{ [ "$(state subsys_mark1 marker_example)" = armed ] ||
		fail "$(site subsys_mark1 marker_example)"; } &&
	{ cat /proc/testmark 2>/dev/null; true; } &&
	{ [ "$(value_lines)" = $((before + 1)) ] || fail "no 'value is 1'"; } &&
	mc_rc 2 load probe_example.ko && mc_err 'File exists' || mc_ok=1
	mc_rc 0 unload probe_example || return 1
	[ $mc_ok = 0 ] || return 1
	[ ! -e /sys/module/probe_example ] || fail "probe_example still loaded" ||
		return 1
	[ "$(state subsys_mark1 marker_example)" = disarmed ] ||
		fail "$(site subsys_mark1 marker_example)" || return 1
	mc_rc 2 unload probe_example || return 1
	mc_err 'not loaded' || return 1

	mc_rc 0 load marker_test_probe.ko probe=noargs || return 1
	p=$(cat /sys/module/marker_test_probe/parameters/probe)
	fire 3
	h=$(hits)
	mc_rc 0 unload marker_test_probe.ko || return 1
	[ "$p" = noargs ] && [ "$h" = 3 ] || fail "probe=$p, hits $h"
}

t_markerctl_usage_errors() {
	before=$(cat "$LIST" "$PROBES")
	mc_rc 1 || return 1
	mc_rc 1 frobnicate || return 1
	mc_rc 1 list --yaml || return 1
	mc_rc 1 enable || return 1
	mc_rc 1 enable subsys_mark1 subsys_mark2 || return 1
	mc_rc 1 enable subsys_mark1 --action dance || return 1
	mc_rc 1 disable || return 1
	mc_rc 1 load || return 1
	mc_rc 1 load /nonexistent/probe.ko || return 1
	mc_rc 1 unload || return 1
	mc_rc 1 watch --count many || return 1
	mc_err 'N is a positive number' || return 1
	for c in list enable disable load unload watch; do
		mc_rc 0 $c --help && grep -q "^Usage: markerctl $c" /tmp/mc.out ||
			fail "$c --help: $(cat /tmp/mc.out)" || return 1
	done
	mc_rc 0 --help && grep -q '4  not root' /tmp/mc.out || fail "--help" || return 1
	[ "$(cat "$LIST" "$PROBES")" = "$before" ] || fail "state changed"
}

# Every errno of the control file, as exit 2 with its message.
t_markerctl_unknown_marker() {
	before=$(cat "$LIST" "$PROBES")
	mc_rc 2 enable no_such_marker || return 1
	mc_err 'No such file or directory' && mc_err 'see dmesg' &&
		mc_dmesg 'no loaded marker matches no_such_marker' || return 1
	mc_rc 2 disable no_such_marker || return 1
	mc_rc 2 enable 'subsys/mark1' || return 1
	mc_err 'Invalid argument' && mc_dmesg 'is not a marker name' || return 1
	mc_rc 2 enable "$(printf 'x%.0s' $(seq 300))" || return 1
	mc_err 'Argument list too long' || return 1
	[ "$(cat "$LIST" "$PROBES")" = "$before" ] || fail "state changed"
}

t_markerctl_double_enable() {
	mc_rc 0 enable subsys_mark2 || return 1
	mc_ok=0
	mc_rc 2 enable subsys_mark2 --action print && mc_err 'File exists' &&
		mc_err 'already enabled' && mc_dmesg 'subsys_mark2 is already enabled' ||
		mc_ok=1
	mc_rc 0 disable subsys_mark2 || return 1
	return $mc_ok
}

# In a user namespace without a uid map, geteuid() returns the overflow uid,
# 65534: markerctl must refuse with 4 before touching anything. (The kernel
# still sees root there, so this checks markerctl's own test, which is the
# point, with no setuid helper.)
t_markerctl_not_root() {
	[ "$(unshare -U id -u)" = 65534 ] || fail "unshare -U: not uid 65534" ||
		return 1
	before=$(cat "$LIST" "$PROBES")
	for c in list "enable subsys_mark1" "disable subsys_mark1" watch \
		 "load probe_example.ko" "unload marker_example"; do
		rc=0
		# shellcheck disable=SC2086
		timeout 20 unshare -U $MARKERCTL $c >/tmp/mc.out 2>/tmp/mc.err || rc=$?
		[ "$rc" = 4 ] || fail "markerctl $c as uid 65534: exit $rc" || return 1
		mc_err 'must be run as root' || return 1
	done
	[ -e /sys/module/marker_example ] && [ ! -e /sys/module/probe_example ] &&
		[ "$(cat "$LIST" "$PROBES")" = "$before" ] || fail "state changed"
}

# Assumes marker.ko is NOT loaded (run after t_unload_everything). unload
# needs no registry, and "load marker.ko" loads the registry itself.
t_markerctl_no_registry() {
	[ ! -e /sys/module/marker ] || fail "marker.ko is loaded" || return 1
	for c in list "enable subsys_mark1" "disable subsys_mark1" watch \
		 "load probe_example.ko"; do
		# shellcheck disable=SC2086
		mc_rc 3 $c || return 1
		mc_err 'the registry is not loaded' || return 1
	done
	[ ! -e /sys/module/probe_example ] || fail "probe_example loaded" || return 1
	mc_rc 2 unload probe_example || return 1
	mc_rc 0 load marker.ko || return 1
	mc_ok=0
	{ [ -e /sys/module/marker ] || fail "marker.ko not loaded"; } &&
	mc_rc 0 list && mc_rc 0 list --json || mc_ok=1
	mc_rc 0 unload marker || return 1
	[ ! -e /sys/module/marker ] || fail "marker.ko still loaded" || return 1
	return $mc_ok
}

# connect and disconnect: an offered probe (tests-offers.sh), pinned while
# connected; the errno and the hint when refused.
t_markerctl_connect() {
	insmod probe_offer_example.ko || return 1
	mc_ok=0
	mc_rc 0 connect probe_offered_mark3 &&
	{ [ "$(refcnt probe_offer_example)" = 1 ] &&
		[ "$(state subsys_mark3 marker_example)" = armed ] ||
		fail "connect: refcnt $(refcnt probe_offer_example)"; } &&
	mc_rc 2 connect probe_offered_mark3 && mc_err 'File exists' &&
	mc_err 'already connected' && mc_dmesg 'is already connected' &&
	mc_rc 0 disconnect probe_offered_mark3 &&
	{ [ "$(refcnt probe_offer_example)" = 0 ] &&
		[ "$(state subsys_mark3 marker_example)" = disarmed ] ||
		fail "disconnect: refcnt $(refcnt probe_offer_example)"; } &&
	mc_rc 2 disconnect probe_offered_mark3 && mc_err 'not connected' &&
	mc_rc 2 connect nosuch_probe && mc_err 'is offered' || mc_ok=1
	rmmod probe_offer_example || return 1
	return $mc_ok
}

# shellcheck disable=SC2034 # used by run-tests.sh
MARKERCTL_TESTS="markerctl_list markerctl_list_json markerctl_enable_print_watch
markerctl_disable markerctl_load_unload markerctl_usage_errors
markerctl_unknown_marker markerctl_double_enable markerctl_not_root
markerctl_connect"
