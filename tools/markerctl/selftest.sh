#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# selftest.sh - check markerctl on the host against fake registry files,
# through MARKERS_DEBUGFS, MARKERS_TRACEFS and MARKERS_SYSFS (which only
# the test build, markerctl-test, honours), under
# valgrind when it is installed (any error or leak fails). Never loads or
# unloads a module: load is only run where it must stop before libkmod
# reaches the kernel. Run as root (one case drops to uid 65534).
#
# The guest tests, against the real registry, are in
# tools/testing/markers/test.d/markerctl/.

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$here/markerctl-test
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

vg=()
if command -v valgrind >/dev/null; then
	vg=(valgrind -q --leak-check=full --show-leak-kinds=all
	    --errors-for-leak-kinds=all --error-exitcode=99)
fi

# result OK|FAIL DESCRIPTION: one "ok - ..."/"not ok - ..." line, counted in
# $pass, $fail
# shellcheck source=SCRIPTDIR/../testing/markers/lib.sh
. "$here/../testing/markers/lib.sh"

# expect RC DESCRIPTION -- CMD...: run CMD, output in $tmp/out and $tmp/err
expect() {
	local want=$1 desc=$2 rc=0

	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -eq "$want" ]; then
		result OK "$desc"
	else
		result FAIL "$desc (exit $rc, expected $want)"
		sed 's/^/# /' "$tmp/err"
	fi
}

# check DESCRIPTION -- CMD...: a shell condition as a test
check() {
	local desc=$1

	shift 2
	if "$@"; then
		result OK "$desc"
	else
		result FAIL "$desc"
		sed 's/^/# out: /' "$tmp/out"
		sed 's/^/# err: /' "$tmp/err"
	fi
}

mc() {
	"${vg[@]}" "$bin" "$@"
}

[ "$(id -u)" -eq 0 ] || { echo "selftest.sh: run as root" >&2; exit 1; }

export MARKERS_DEBUGFS=$tmp/debug MARKERS_TRACEFS=$tmp/tracing
export MARKERS_SYSFS=$tmp/sys
mkdir -p "$tmp/debug/markers" "$tmp/tracing/instances/markers" "$tmp/sys"
# the events' enable files: on, armed for a trigger, off; test_odd has none
for e in subsys_mark1:'0*' subsys_mark3:1 test_noargs:0; do
	mkdir -p "$tmp/tracing/events/markers/${e%%:*}"
	echo "${e#*:}" >"$tmp/tracing/events/markers/${e%%:*}/enable"
done
fmt_odd=$(printf 'q"uo\\te\tta\001b caf\303\251 \377!')
cat >"$tmp/debug/markers/list" <<EOF
# name module mode state probes hits fired signature code symbol kind consumers format
subsys_mark1 marker_example near-zero disarmed 0 0 0 i 0f1f440000 __mark_kprobe_subsys_mark1.marker_example.1 call - "%d"
subsys_mark3 marker_example near-zero armed 1 12345678901234 7 is e9deadbeef,eb05 __mark_kprobe_subsys_mark3.a.2,__mark_kprobe_subsys_mark3.b.3 call typed:1,action:1 "%d %s"
test_noargs marker_test_sites portable busy 0 0 0 - over - call - "no arguments"
test_odd m near-zero disarmed 0 0 0 - 6690 __mark_kprobe_test_odd.m.4 inline - "$fmt_odd"
EOF

# --help and usage errors
expect 0 "--help" -- mc --help
check "--help lists the exit codes" -- grep -q '4  not root' "$tmp/out"
for c in list enable disable connect disconnect fire fuzz load unload watch; do
	expect 0 "$c --help" -- mc $c --help
	check "$c --help: usage line" -- grep -q "^Usage: markerctl $c" "$tmp/out"
done
expect 1 "no command" -- mc
expect 1 "unknown command" -- mc frobnicate
expect 1 "list: unknown option" -- mc list --yaml
expect 1 "list: extra argument" -- mc list foo
expect 1 "enable: no pattern" -- mc enable
expect 1 "enable: two patterns" -- mc enable a b
expect 1 "enable: bad action" -- mc enable a --action bogus
expect 1 "enable: --action without value" -- mc enable a --action
expect 1 "enable: empty pattern" -- mc enable ''
expect 1 "enable: pattern with a space" -- mc enable 'a b'
expect 1 "disable: no pattern" -- mc disable
expect 1 "connect: no probe" -- mc connect
expect 1 "connect: two probes" -- mc connect a b
expect 1 "disconnect: a probe with a space" -- mc disconnect 'a b'
expect 1 "load: no path" -- mc load
expect 1 "load: missing file" -- mc load "$tmp/nonexistent.ko"
expect 1 "load: a directory" -- mc load "$tmp"
expect 1 "unload: no name" -- mc unload
expect 1 "fire: no name" -- mc fire
expect 1 "fire: a name with a space" -- mc fire 'a b' 1
expect 1 "fire: an argument with a double quote" -- mc fire a 'x"y'
expect 1 "fire: an argument with a newline" -- mc fire a "$(printf 'x\ny')"
expect 1 "fuzz: no name" -- mc fuzz
expect 1 "fuzz: two names" -- mc fuzz a b
expect 1 "fuzz: zero count" -- mc fuzz a --count 0
expect 1 "fuzz: bad seed" -- mc fuzz a --seed -1
expect 1 "watch: bad count" -- mc watch --count abc
expect 1 "watch: zero count" -- mc watch --count 0
check "usage errors name the command" -- grep -q "^markerctl: watch: " "$tmp/err"

# list
expect 0 "list" -- mc list
cat >"$tmp/want" <<EOF
NAME          MODULE             MODE       STATE     PROBES            HITS  FIRED  SIGNATURE  EVENT    KIND    CONSUMERS         FORMAT
subsys_mark1  marker_example     near-zero  disarmed       0               0      0  i          trigger  call    -                 "%d"
subsys_mark3  marker_example     near-zero  armed          1  12345678901234      7  is         on       call    typed:1,action:1  "%d %s"
test_noargs   marker_test_sites  portable   busy           0               0      0  -          off      call    -                 "no arguments"
test_odd      m                  near-zero  disarmed       0               0      0  -          -        inline  -                 "$fmt_odd"
EOF
check "list: aligned table" -- cmp -s "$tmp/want" "$tmp/out"

expect 0 "list --json" -- mc list --json
check "list --json: one object per line" -- [ "$(wc -l <"$tmp/out")" -eq 6 ]
check "list --json: fields, numbers, escapes" -- python3 -c '
import json, sys
got = json.load(open(sys.argv[1]))
want = [
 dict(name="subsys_mark1", module="marker_example", mode="near-zero",
      state="disarmed", probes=0, hits=0, fired=0, signature="i", code="0f1f440000",
      symbol="__mark_kprobe_subsys_mark1.marker_example.1", kind="call",
      consumers="-", format="%d", event="trigger"),
 dict(name="subsys_mark3", module="marker_example", mode="near-zero",
      state="armed", probes=1, hits=12345678901234, fired=7, signature="is",
      code="e9deadbeef,eb05",
      symbol="__mark_kprobe_subsys_mark3.a.2,__mark_kprobe_subsys_mark3.b.3",
      kind="call", consumers="typed:1,action:1", format="%d %s", event="on"),
 dict(name="test_noargs", module="marker_test_sites", mode="portable",
      state="busy", probes=0, hits=0, fired=0, signature="-", code="over",
      symbol="-", kind="call", consumers="-", format="no arguments",
      event="off"),
 dict(name="test_odd", module="m", mode="near-zero", state="disarmed",
      probes=0, hits=0, fired=0, signature="-", code="6690",
      symbol="__mark_kprobe_test_odd.m.4", kind="inline", consumers="-", format="q\"uo\\te\tta\x01b caf\u00e9 \ufffd!",
      event="-"),
]
sys.exit(got != want)' "$tmp/out"

# list -v: each name's consumers after its sites, from the probes file;
# the pending ones (0 sites) and those of the other kind left out
cat >"$tmp/debug/markers/probes" <<EOF
# marker function module signature kind sites hits
subsys_mark3 probe_mark3 probe_example is typed 1 42
subsys_mark1 probe_mark1 probe_example i typed 0 0
subsys_* marker_count marker * action 2 12345678901234 if arg1 > 3 && s == "a b"
test_* marker_inline marker * action 1 3
test_* marker_count marker * action 0 0
EOF
cp "$tmp/debug/markers/list" "$tmp/list.plain"
sed -i 's/^test_odd m near-zero disarmed 0 /test_odd m near-zero armed 1 /' \
	"$tmp/debug/markers/list"
expect 0 "list -v" -- mc list -v
cp "$tmp/list.plain" "$tmp/debug/markers/list"
sed -n '/^subsys_mark3 /,/^test_noargs /p' "$tmp/out" >"$tmp/got"
cat >"$tmp/want" <<EOF
subsys_mark3  marker_example     near-zero  armed          1  12345678901234      7  is         on       call    typed:1,action:1  "%d %s"
    consumer: typed probe_mark3 [probe_example], hits 42
    consumer: action marker_count [marker] for subsys_*, hits 12345678901234, if arg1 > 3 && s == "a b"
test_noargs   marker_test_sites  portable   busy           0               0      0  -          off      call    -                 "no arguments"
EOF
check "list -v: consumers after their marker's sites" -- cmp -s "$tmp/want" "$tmp/got"
check "list -v: subsys_mark1 has none connected" -- \
	sh -c "grep -A1 '^subsys_mark1 ' '$tmp/out' | tail -n 1 | grep -q '^subsys_mark3 '"
check "list -v: the inline action under the inline marker" -- \
	sh -c "tail -n 1 '$tmp/out' | grep -qx '    consumer: action marker_inline \\[marker\\] for test_\\*, hits 3'"
expect 1 "list -v --json: refused" -- mc list -v --json

cp "$tmp/debug/markers/list" "$tmp/list.good"
head -1 "$tmp/list.good" >"$tmp/debug/markers/list"
expect 0 "list --json: no sites" -- mc list --json
check "list --json: no sites is []" -- [ "$(cat "$tmp/out")" = "[]" ]
for bad in 'a b c d 0 0 0 - x' 'a b c d x 0 0 - x "f"' 'a b c d 0 0 0 - x f"' \
	   'a b c d 0 -1 0 - x "f"' 'a b c d 0 0 0 - x "' 'a b c d 0 0 0 - x "f" y' \
	   'a b c d 0 0 - x y "f"' 'a b c d 0 0 - x "f"' 'a b c d 0 0 0 - x y "f"'; do
	printf '%s\n' "$bad" >"$tmp/debug/markers/list"
	expect 2 "list: refuses '$bad'" -- mc list
done
check "list: names the bad line" -- grep -q 'list:1: unexpected line' "$tmp/err"
cp "$tmp/list.good" "$tmp/debug/markers/list"

# enable, disable: the command as written
ctl=$tmp/debug/markers/control
: >"$ctl"
expect 0 "enable" -- mc enable subsys_mark3
check "enable: one write, default action" -- [ "$(cat "$ctl")" = "enable subsys_mark3" ]
: >"$ctl"
expect 0 "enable --action print" -- mc enable 'subsys_*' --action print
check "enable --action print: written" -- [ "$(cat "$ctl")" = "enable subsys_* print" ]
: >"$ctl"
expect 0 "enable --action=stack first" -- mc enable --action=stack 'test_[mn]?'
check "enable --action=stack: written" -- [ "$(cat "$ctl")" = "enable test_[mn]? stack" ]
: >"$ctl"
expect 0 "enable --action inline" -- mc enable test_odd --action inline
check "enable --action inline: written" -- [ "$(cat "$ctl")" = "enable test_odd inline" ]

: >"$ctl"
expect 0 "enable --if" -- mc enable subsys_mark3 --if 'arg1 > -3 && name == "a b"'
check "enable --if: the default action said, then the predicate" -- \
	[ "$(cat "$ctl")" = 'enable subsys_mark3 count if arg1 > -3 && name == "a b"' ]
: >"$ctl"
expect 0 "enable --if with --action" -- mc enable --if '!(arg1 < 2)' 'subsys_*' --action print
check "enable --if --action print: written" -- \
	[ "$(cat "$ctl")" = 'enable subsys_* print if !(arg1 < 2)' ]
expect 1 "enable --if: empty" -- mc enable subsys_mark3 --if ' '
expect 1 "enable --if: two lines" -- mc enable subsys_mark3 --if "$(printf 'arg1 > 1\nx')"
: >"$ctl"
expect 0 "disable" -- mc disable subsys_mark3
check "disable: written" -- [ "$(cat "$ctl")" = "disable subsys_mark3" ]
: >"$ctl"
expect 0 "connect" -- mc connect probe_offered_mark3
check "connect: written" -- [ "$(cat "$ctl")" = "connect probe_offered_mark3" ]
: >"$ctl"
expect 0 "disconnect" -- mc disconnect probe_offered_mark3
check "disconnect: written" -- [ "$(cat "$ctl")" = "disconnect probe_offered_mark3" ]
: >"$ctl"
expect 0 "fire" -- mc fire subsys_mark3 -5 'two words'
check "fire: written, a string with a blank quoted" -- \
	[ "$(cat "$ctl")" = 'fire subsys_mark3 -5 "two words"' ]
: >"$ctl"
expect 0 "fire: an empty string" -- mc fire subsys_mark3 0x10 ''
check "fire: an empty string quoted" -- [ "$(cat "$ctl")" = 'fire subsys_mark3 0x10 ""' ]
: >"$ctl"
expect 0 "fire: no arguments" -- mc fire test_noargs
check "fire: no arguments: written" -- [ "$(cat "$ctl")" = "fire test_noargs" ]
expect 1 "fire: a command longer than 255 bytes" -- mc fire subsys_mark3 1 "$(printf '%0300d' 0)"
: >"$ctl"
expect 0 "fuzz --count 3 --seed 42" -- mc fuzz subsys_mark3 --count 3 --seed 42
# the fake control file is written over from its start by each command
fuzz_sent() {
	[ "$(head -n 1 "$tmp/out")" = "# markerctl fuzz subsys_mark3 --count 3 --seed 42" ] &&
		[ "$(sed 1d "$tmp/out" | grep -c '^fire subsys_mark3 -\?[0-9]* ')" = 3 ] &&
		[ "$(head -c "$(tail -n 1 "$tmp/out" | tr -d '\n' | wc -c)" "$ctl")" = \
		  "$(tail -n 1 "$tmp/out")" ]
}
check "fuzz: seed first, then each command as sent" -- fuzz_sent
cp "$tmp/out" "$tmp/fuzz.1"
expect 0 "fuzz: the same seed again" -- mc fuzz subsys_mark3 --count 3 --seed 42
check "fuzz: the same seed, the same commands" -- cmp -s "$tmp/fuzz.1" "$tmp/out"
: >"$ctl"
expect 0 "fuzz: many" -- mc fuzz subsys_mark3 --count 400 --seed 7
check "fuzz: ints in range, at the edges too, strings quoted" -- python3 -c '
import re, sys
lines = open(sys.argv[1]).read().splitlines()[1:]
vals = set()
for l in lines:
    m = re.fullmatch(r"fire subsys_mark3 (-?[0-9]+) (\"[^\"]*\"|[^ \"]+)", l)
    if not m or not -2**31 <= int(m.group(1)) < 2**31:
        sys.exit("bad: " + l)
    vals.add(int(m.group(1)))
sys.exit(len(lines) != 400 or not {0, 1, -1, -2**31, 2**31 - 1} <= vals)' "$tmp/out"
: >"$ctl"
expect 0 "fuzz: no arguments" -- mc fuzz test_noargs --count 2
check "fuzz: no arguments: written" -- [ "$(cat "$ctl")" = "fire test_noargs" ]
check "fuzz: no arguments: twice" -- [ "$(grep -c '^fire test_noargs$' "$tmp/out")" = 2 ]
expect 2 "fuzz: a name with no site" -- mc fuzz nosuch
check "fuzz: no site: says so" -- grep -q 'fuzz: no site of nosuch is loaded' "$tmp/err"
rm "$ctl"
mknod "$ctl" c 1 7		# /dev/full: every write fails with ENOSPC
expect 2 "enable: a refused write" -- mc enable subsys_mark3
check "enable: errno message and dmesg hint" -- \
	grep -q '^markerctl: enable subsys_mark3: No space left on device (see dmesg)$' "$tmp/err"
expect 2 "fire: a refused write" -- mc fire subsys_mark3 1 x
check "fire: errno message and dmesg hint" -- \
	grep -q '^markerctl: fire subsys_mark3: No space left on device (see dmesg)$' "$tmp/err"
rm "$ctl"
# a control file that is a symbolic link: written through, it would let
# whoever made the link choose what root overwrites
: >"$tmp/target"
ln -s "$tmp/target" "$ctl"
expect 2 "enable: a symbolic link for the control file" -- mc enable subsys_mark3
check "symbolic link: not followed" -- [ ! -s "$tmp/target" ]
rm "$ctl"
expect 2 "disable: no control file" -- mc disable subsys_mark3

# watch
tp=$tmp/tracing/instances/markers/trace_pipe
printf 'one\ntwo\nthree\n' >"$tp"
expect 0 "watch --count 2" -- mc watch --count 2
check "watch --count 2: two lines" -- [ "$(cat "$tmp/out")" = "$(printf 'one\ntwo')" ]
expect 0 "watch: to the end of a file" -- mc watch
check "watch: every line" -- cmp -s "$tp" "$tmp/out"
rm "$tp"
expect 2 "watch: no ftrace instance" -- mc watch

# no registry, not root
for c in list "enable x" "disable x" "connect x" watch "load $here/Makefile"; do
	# shellcheck disable=SC2086
	MARKERS_DEBUGFS=$tmp/none expect 3 "$c: no registry" -- mc $c
done
check "no registry: says so" -- grep -q 'the registry is not loaded' "$tmp/err"
mkdir -p "$tmp/sys/module/marker"
MARKERS_DEBUGFS=$tmp/none expect 3 "list: registry without debugfs" -- mc list
check "registry without debugfs: says so" -- grep -q 'is debugfs mounted' "$tmp/err"
if command -v unshare >/dev/null; then
	for c in list "enable x" "disable x" watch "load x.ko" "unload x"; do
		# shellcheck disable=SC2086
		expect 4 "$c: not root" -- unshare -U "$bin" $c
	done
	check "not root: says so" -- grep -q 'must be run as root' "$tmp/err"
fi

# markerctl itself reads the real files whatever the environment says
# (this machine has no registry: it must say so, not list the fake one)
if [ ! -e /sys/kernel/debug/markers ]; then
	expect 3 "markerctl ignores MARKERS_DEBUGFS" -- "$here/markerctl" list
	check "markerctl: the real registry is missing" -- \
		grep -q 'the registry is not loaded' "$tmp/err"
else
	result FAIL "markerctl ignores MARKERS_DEBUGFS (a registry is loaded on this machine)"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
