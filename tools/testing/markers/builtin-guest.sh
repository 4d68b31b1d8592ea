#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# builtin-guest.sh - the in-tree checks of CONFIG_MARKERS=y, run in the QEMU
# guest by vm.sh as the payload's run-tests.sh (intree.sh builds the
# payload). The guest kernel is the KUnit kernel: the registry, the KUnit
# suite's sites and the marker_example sample are built into vmlinux. The
# payload holds probe_example.ko (an in-tree module of that kernel) and
# the test modules, built out of tree against it.

# shellcheck disable=SC2317 # the tests are called by name
# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh
# fail MSG: why a test failed, as a diagnostic line; returns 1; site, col
# and colnum: the listing, $LIST
# shellcheck source=SCRIPTDIR/lib.sh
. ./lib.sh

DBG=/sys/kernel/debug
LIST=$DBG/markers/list
TRACING=/sys/kernel/tracing

echo 1 >/proc/sys/kernel/printk

value_lines() {
	dmesg | grep -c 'value is 1'
}

t_registry_built_in() {
	[ -r "$LIST" ] || fail "no $LIST" || return 1
	if grep -q '^marker ' /proc/modules; then
		fail "marker is a module: $(cat /proc/modules)"
		return 1
	fi
}

t_builtin_sites_found() {
	for m in subsys_mark1 subsys_mark2 subsys_mark3; do
		s=$(site "$m" kernel)
		[ "$(col state "$s")" = disarmed ] || fail "$m: '$s'" || return 1
		[ "$(col mode "$s")" = near-zero ] || fail "$m: '$s'" || return 1
		is_nop "$(col code "$s")" || fail "$m: '$s'" || return 1
	done
	# the KUnit suite's seven sites (marker_kunit_sites.h), in two copies
	n=$(grep -c '^mkt_[a-z]*_\(default\|portable\) kernel ' "$LIST")
	[ "$n" -eq 14 ] || fail "$n KUnit sites listed in vmlinux, expected 14"
}

t_builtin_marker_armed_from_module() {
	before=$(value_lines)
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = "$before" ] || fail "a probe ran while disarmed" ||
		return 1
	insmod probe_example.ko || return 1
	s=$(site subsys_mark1 kernel)
	[ "$(col state "$s")" = armed ] || fail "after insmod: '$s'" || return 1
	is_jmp "$(col code "$s")" || fail "armed code: '$s'" || return 1
	[ "$(col state "$(site subsys_mark2 kernel)")" = disarmed ] ||
		fail "subsys_mark2 armed too" || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = $((before + 1)) ] ||
		fail "no 'value is 1' from the built-in marker" || return 1
	rmmod probe_example || return 1
	cat /proc/testmark 2>/dev/null
	[ "$(value_lines)" = $((before + 1)) ] || fail "probe ran after rmmod" ||
		return 1
	s=$(site subsys_mark1 kernel)
	[ "$(col state "$s")" = disarmed ] || fail "after rmmod: '$s'" || return 1
	is_nop "$(col code "$s")" || fail "code after rmmod: '$s'"
}

# stat_of NAME: the registry's count NAME (markers/stats)
stat_of() {
	awk -v k="$1" '$1 == k { print $2 }' "$DBG"/markers/stats
}

# A module's sites, found by the built-in registry in the module loader's
# record of the module's __markers section (mod->markers), one a site.
t_module_markers_with_builtin_registry() {
	before=$(stat_of sites_section)
	insmod marker_test_sites.ko || return 1
	s=$(site test_types marker_test_sites)
	[ "$(col state "$s")" = disarmed ] || fail "'$s'" || return 1
	n=$(grep -c ' marker_test_sites ' "$LIST")
	[ "$(stat_of sites_section)" = $((before + n)) ] &&
		[ "$(stat_of sites_symtab)" = 0 ] ||
		fail "$n sites: $(cat "$DBG"/markers/stats)" || return 1
	insmod marker_test_probe.ko probe=types || return 1
	[ "$(col state "$(site test_types marker_test_sites)")" = armed ] ||
		fail "not armed: $(site test_types marker_test_sites)" || return 1
	echo 100 >"$DBG"/marker_test_sites/fire
	h=$(cat "$DBG"/marker_test_probe/hits)
	b=$(cat "$DBG"/marker_test_probe/bad)
	rmmod marker_test_probe || return 1
	[ "$h" = 100 ] && [ "$b" = 0 ] || fail "hits $h bad $b" || return 1
	rmmod marker_test_sites || return 1
	if grep -q ' marker_test_sites ' "$LIST"; then
		fail "sites of an unloaded module still listed"
		return 1
	fi
}

# The symbol marker of a built-in site, for kprobe_events.
# The plain symbol (weak: "W") and the site's own, from the listing.
t_kprobe_on_builtin_symbol_marker() {
	grep -q ' W __mark_kprobe_subsys_mark3$' /proc/kallsyms ||
		fail "no __mark_kprobe_subsys_mark3 in vmlinux's kallsyms" ||
		return 1
	own=$(awk -v n="$(colnum symbol)" \
		'$1 == "subsys_mark3" && $2 == "kernel" { print $n }' \
		/sys/kernel/debug/markers/list)
	case "$own" in
	__mark_kprobe_subsys_mark3.*) ;;
	*) fail "listing: symbol '$own'"; return 1 ;;
	esac
	for sym in __mark_kprobe_subsys_mark3 "$own"; do
		echo "p:markers/bmk3 $sym" >"$TRACING"/kprobe_events ||
			fail "$sym: $(cat "$TRACING"/error_log)" || return 1
		echo 1 >"$TRACING"/events/markers/bmk3/enable
		for _ in 1 2 3; do cat /proc/testmark 2>/dev/null; done
		n=$(awk '$1 == "markers/bmk3" || $1 == "bmk3" { print $2 }' \
			"$TRACING"/kprobe_profile)
		echo 0 >"$TRACING"/events/markers/bmk3/enable
		echo '-:markers/bmk3' >>"$TRACING"/kprobe_events
		[ "$n" = 3 ] || fail "$sym: kprobe hits: $n" || return 1
	done
}

# ipis: set IPIS to the function-call IPIs every CPU has taken
# (text_poke_bp()'s syncs among them), with shell builtins only: a program
# started to read them would itself cost a few
ipis() {
	while read -r name rest; do
		[ "$name" = CAL: ] || continue
		IPIS=0
		for v in $rest; do
			case "$v" in *[!0-9]*) break ;; esac
			IPIS=$((IPIS + v))
		done
		return
	done </proc/interrupts
}

# many_sites STATE CODE: how many of test_many's 1000 sites are in STATE,
# their code matching the regular expression CODE (every patched byte)
many_sites() {
	awk -v s="$(colnum state)" -v c="$(colnum code)" -v w="$1" -v re="$2" '
		$2 == "marker_test_many" && $s == w && $c ~ re { n++ }
		END { print n + 0 }' "$LIST"
}

# batches: set BATCHES to the text_poke_bp() batches since tpbb, the
# kprobe event on text_poke_bp_batch(), was enabled
batches() {
	BATCHES=$(awk '$1 == "markers/tpbb" || $1 == "tpbb" { print $2 }' \
		"$TRACING"/kprobe_profile)
}

# many_op COMMAND: write COMMAND to the control file; OP_IPIS, OP_BATCHES,
# OP_KEYS: what it cost
many_op() {
	k=$(stat_of key_updates)
	batches
	b=$BATCHES
	ipis
	i=$IPIS
	echo "$1" >"$DBG"/markers/control || return 1
	ipis
	OP_IPIS=$((IPIS - i))
	batches
	OP_BATCHES=$((BATCHES - b))
	OP_KEYS=$(($(stat_of key_updates) - k))
}

# 1000 names armed by one pattern, and disarmed: their 1000 keys patched
# in shared text_poke_bp() batches of up to 256 entries (TP_VEC_MAX), 4 of
# them, 3 sync IPIs each on two CPUs (12), where a batch a key would be
# 1000 batches and 3000 IPIs. The batches are counted by a kprobe, not
# optimized (an optimized kprobe is patched in with a batch of its own);
# the IPIs include a few of other causes (15 to 17 in all seen).
t_many_names_armed_in_shared_batches() {
	insmod marker_test_many.ko || return 1
	opt=$(cat /proc/sys/debug/kprobes-optimization)
	echo 0 >/proc/sys/debug/kprobes-optimization
	echo 'p:markers/tpbb text_poke_bp_batch' >>"$TRACING"/kprobe_events ||
		fail "no kprobe on text_poke_bp_batch: $(cat "$TRACING"/error_log)" ||
		return 1
	echo 1 >"$TRACING"/events/markers/tpbb/enable
	many_op 'enable test_many_* count' || return 1
	arm="$OP_BATCHES batches, $OP_IPIS IPIs, $OP_KEYS keys"
	armed=$(many_sites armed "$JMPS")
	arm_ok=$((OP_BATCHES == 4 && OP_KEYS == 1000))
	many_op 'disable test_many_*' || return 1
	disarm="$OP_BATCHES batches, $OP_IPIS IPIs, $OP_KEYS keys"
	disarmed=$(many_sites disarmed "$NOPS")
	disarm_ok=$((OP_BATCHES == 4 && OP_KEYS == 1000))
	echo 0 >"$TRACING"/events/markers/tpbb/enable
	echo '-:markers/tpbb' >>"$TRACING"/kprobe_events
	echo "$opt" >/proc/sys/debug/kprobes-optimization
	rmmod marker_test_many || return 1
	echo "# 1000 names: armed with $arm; disarmed with $disarm"
	[ "$armed" = 1000 ] && [ "$disarmed" = 1000 ] ||
		fail "$armed sites armed as jumps, then $disarmed disarmed as NOPs" ||
		return 1
	[ "$arm_ok" = 1 ] && [ "$disarm_ok" = 1 ] ||
		fail "want 4 batches and 1000 keys each way"
}

# hits NAME: the hits of the count action on NAME (markers/probes)
hits() {
	awk -v m="$1" '$1 == m && $2 == "marker_count" { print $7 }' \
		"$DBG"/markers/probes
}

HOT="sched_switch fs_open block_submit_bio net_dev_xmit mm_page_alloc"

# hot_sites: each marker of the hot paths' patch set in vmlinux, one site,
# disarmed, a NOP
hot_sites() {
	for m in $HOT; do
		s=$(site "$m" kernel)
		[ "$(echo "$s" | grep -c .)" = 1 ] && [ "$(col state "$s")" = disarmed ] &&
			is_nop "$(col code "$s")" || fail "$m: '$s'" || return 1
	done
}

# The hot paths' patch set (scripts/graft/hot-paths/, applied by
# integrate.sh --hot-paths): its five markers in vmlinux, disarmed; armed
# with counts, each counts what hot-paths-load did through it (every
# open of one file, every write bio, every packet on lo: exactly; context
# switches and pages: at least one a round); its trace event records the
# fields; disarmed again.
t_hot_paths_marked() {
	hot_sites || return 1
	ctl=$DBG/markers/control
	for c in 'fs_open count if name == "./hot-paths-load"' \
		 'block_submit_bio count if op == 1' \
		 'net_dev_xmit count if dev == "lo"' \
		 'sched_switch count' \
		 'mm_page_alloc count if order == 0'; do
		echo "enable $c" >"$ctl" || fail "enable $c refused" || return 1
	done
	load_rc=0
	./hot-paths-load 100 1 ./hot-paths-load /dev/ram0 >/dev/null ||
		load_rc=$?
	got=''
	for m in $HOT; do
		got="$got $m=$(hits "$m")"
	done
	# disarmed whatever happened
	for m in $HOT; do
		echo "disable $m" >"$ctl" || return 1
	done
	[ "$load_rc" = 0 ] || fail "hot-paths-load failed ($load_rc)" || return 1
	echo "# hot paths, 100 rounds:$got"
	case "$got" in
	" sched_switch="[0-9]*" fs_open=100 block_submit_bio=100 net_dev_xmit=100 mm_page_alloc="[0-9]*) ;;
	*) fail "counts:$got"; return 1 ;;
	esac
	for m in sched_switch mm_page_alloc; do
		n=$(echo "$got" | sed "s/.* $m=\([0-9]*\).*/\1/")
		[ "$n" -ge 100 ] || fail "$m: $n hits for 100 rounds" || return 1
	done
	hot_sites || return 1
	# the trace event, as perf and trace-cmd enable it
	echo >"$TRACING"/trace
	echo 1 >"$TRACING"/events/markers/fs_open/enable || return 1
	./hot-paths-load 1 1 ./hot-paths-load /dev/ram0 >/dev/null
	echo 0 >"$TRACING"/events/markers/fs_open/enable
	grep -q 'fs_open: fd=[0-9]* flags=[0-9a-fx]* name=\./hot-paths-load$' \
		"$TRACING"/trace || fail "no fs_open event: $(tail -n 3 "$TRACING"/trace)"
}

# print and stack on the context switch, which runs them with the
# runqueue locked and interrupts off (lockdep watching, on this kernel):
# a line for every switch hot-paths-load makes (two a round, at least),
# with the stack's frames; disarmed again.
t_hot_paths_print_stack() {
	hot_sites || return 1
	ctl=$DBG/markers/control
	inst=$TRACING/instances/markers
	for a in print stack; do
		echo >"$inst"/trace || return 1
		echo "enable sched_switch $a" >"$ctl" ||
			fail "enable sched_switch $a refused" || return 1
		load_rc=0
		./hot-paths-load 10 1 ./hot-paths-load /dev/ram0 >/dev/null ||
			load_rc=$?
		echo "disable sched_switch" >"$ctl" || return 1
		[ "$load_rc" = 0 ] || fail "hot-paths-load failed ($load_rc)" ||
			return 1
		n=$(grep -c ': sched_switch: prev_pid=[0-9]* next_pid=[0-9]*$' \
			"$inst"/trace)
		frames=$(grep -c ' => ' "$inst"/trace)
		echo "# sched_switch $a, 10 rounds: $n lines, $frames stack frames"
		[ "$n" -ge 20 ] || fail "$a: $n lines: $(tail -n 3 "$inst"/trace)" ||
			return 1
		case $a in
		print) [ "$frames" = 0 ] ;;
		stack) [ "$frames" -ge "$n" ] ;;
		esac || fail "$a: $frames stack frames for $n lines" || return 1
	done
	hot_sites
}

TESTS="registry_built_in builtin_sites_found builtin_marker_armed_from_module
module_markers_with_builtin_registry kprobe_on_builtin_symbol_marker
many_names_armed_in_shared_batches hot_paths_marked hot_paths_print_stack"

ktap_print_header
# shellcheck disable=SC2086
ktap_set_plan "$(echo $TESTS | wc -w)"
for t in $TESTS; do
	if "t_$t"; then
		ktap_test_pass "builtin: $t"
	else
		ktap_test_fail "builtin: $t"
	fi
done

echo "# kernel log follows"
dmesg
ktap_finished
