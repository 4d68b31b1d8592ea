#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh - for each kernel, build the modules in each mode, check the
# built code, and run the integration suite in a QEMU guest booting that
# kernel. Prints one line per test, "ok - <kernel>: <mode>: ..." or
# "not ok - ...", a "# <kernel>: N passed, N failed" line per kernel and a
# closing "N passed, N failed"; exits nonzero on any failure. Run by "make
# check" after deps.sh. The compile tests run once, against KDIR (the
# Makefile's default).
#
# KERNELS="6.1 6.1-rt 6.12" by default: Debian's kernels, each found
# through its header metapackage (linux-headers-<version>-amd64, else
# linux-headers-amd64 or linux-headers-rt-amd64 if it points to that
# version), or a header directory (KERNELS=/usr/src/linux-headers-...).
# A kernel that is not installed is a failed test, never a skip.
#
# MODES="near-zero portable" by default. TESTS="name ..." runs only those
# guest tests, or groups of them (test.d/GROUP), to iterate on one.
#
# The suite runs whole in each mode on the first kernel, and in near-zero
# mode on the others; there, portable mode leaves out the groups whose
# tests read and write the registry's files and events the same way in
# both modes (PORTABLE_SKIP): test.d/tools/ (perf, bpftrace and trace-cmd
# read the markers' events and probe the sites' symbols alike in both
# modes; the group took 179 s of the 301 s of 6.1's suite), registry/,
# control/, markerctl/ and events/ (70 s of the 111 s of portable mode on
# 6.1-rt, 2026-12-07). What the mode changes, the sites, firing, arming
# and disarming (sites/, fire/, counts/, probes/, irq/, kprobes/,
# inline/, offers/, loader/, pred/, and the stress boot), runs on every
# kernel. PORTABLE_SKIP="" runs it whole everywhere.
# Logs in build/check/<kernel>/:
# <mode>.build (the W=1 build), <mode>.sparse (sparse's output),
# <mode>.log (the guest's console),
# <mode>.log.vm (vm.sh's verdict), <mode>-stress.log (the stress test's
# boot: test.d/stress/), <mode>/ (the payload). Every boot runs its two
# vCPUs on one host thread (vm.sh: stale translations under MTTCG).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$top/build/check
kernels=${KERNELS:-6.1 6.1-rt 6.12}
modes=${MODES:-near-zero portable}
portable_skip=${PORTABLE_SKIP-tools registry control markerctl events}
first=''
pass=0
fail=0

# result OK|FAIL DESCRIPTION: counted in $pass, $fail; guest_results: the
# results of a vm.sh boot
# shellcheck source=SCRIPTDIR/lib.sh
. "$here/lib.sh"

# release KDIR: the kernel release KDIR builds for (the modules' vermagic,
# the /boot/vmlinuz-<release> vm.sh boots)
release() {
	sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$1/include/generated/utsrelease.h" 2>/dev/null || true
}

# kernel_kdir NAME: the installed header directory of Debian's kernel NAME
# (6.1, 6.1-rt, 6.12...): the package a header metapackage depends on,
# else the newest installed linux-headers-<NAME>.*-<flavour>
kernel_kdir() {
	local ver=${1%-rt} flavour=amd64 meta pkg rel

	[ "$1" = "$ver" ] || flavour=rt-amd64
	for meta in "linux-headers-$ver-$flavour" "linux-headers-$flavour"; do
		pkg=$(dpkg-query -W -f='${Status}|${Depends}\n' "$meta" 2>/dev/null |
			sed -n 's/^install ok installed|\(linux-headers-[^ ,|]*\).*/\1/p') ||
			true
		rel=${pkg#linux-headers-}
		case "$flavour:$rel" in
		amd64:*-rt-amd64) continue ;;
		"$flavour:$ver".*-"$flavour") ;;
		*) continue ;;
		esac
		if [ -d "/usr/src/$pkg" ]; then
			echo "/usr/src/$pkg"
			return 0
		fi
	done
	printf '%s\n' /usr/src/linux-headers-"$ver".*-"$flavour" |
		if [ "$flavour" = amd64 ]; then grep -v -- '-rt-amd64$'; else cat; fi |
		sort -V | while read -r pkg; do
			[ -d "$pkg" ] && echo "$pkg"
		done | tail -n 1 | grep .
}

# noendbr_tramps OBJ: the trampolines (__marker_tramp_*) of an object
# file that its .discard.noendbr lists (the linker drops .discard.* from
# the .ko). Entries are .quad (6.1) or .long (6.12) relocations against
# the section or a symbol; the symbol table resolves both.
noendbr_tramps() {
	local a b addr sec name val base add
	local -A at=() listed=()

	while IFS=$'\t' read -r a b; do
		addr=${a%% *} sec=${a##* } name=${b##* }
		at[$name]=$sec:$((16#$addr))
	done < <(objdump -t "$1" | grep -E '^[0-9a-f]{16} ')
	while read -r _ _ val; do
		base=${val%%[+-]0x*} add=0
		case "$val" in
		*+0x*) add=$((16#${val##*+0x})) ;;
		*-0x*) add=-$((16#${val##*-0x})) ;;
		esac
		[ -n "${at[$base]:-}" ] || continue
		listed[${at[$base]%%:*}:$((${at[$base]##*:} + add))]=1
	done < <(objdump -r -j .discard.noendbr "$1" 2>/dev/null |
		grep -E '^[0-9a-f]{16} ')
	for name in "${!at[@]}"; do
		case "$name" in
		__marker_tramp_*) [ -z "${listed[${at[$name]}]:-}" ] || echo "$name" ;;
		esac
	done
}

# check_tramps KERNEL MODE KO...: every trampoline symbol of the modules
# either starts with ENDBR64 or is listed in .discard.noendbr: the site
# descriptor holds its address, and an IBT kernel traps an indirect
# branch to an address without ENDBR.
check_tramps() {
	local k=$1 mode=$2 ko mod o objs name found n=0 mods=0 bad=''
	local -A ok

	shift 2
	for ko in "$@"; do
		ok=()
		mod=${ko%.ko}.mod
		# the objects linked into the module, one or more a line
		while read -r -a objs; do
			for o in "${objs[@]}"; do
				case "$o" in /*) ;; *) o=$top/$o ;; esac
				while read -r name; do
					ok[$name]=1
				done < <(noendbr_tramps "$o")
			done
		done < <(cat "$mod" 2>/dev/null || true)
		# trampolines whose first instruction is endbr64 (f3 0f 1e fa)
		while read -r name; do
			ok[$name]=1
		done < <(objdump -d "$ko" | awk '
			/^[0-9a-f]+ <__marker_tramp_.*>:$/ { sym = $2; next }
			sym != "" && /^ *[0-9a-f]+:\t/ {
				if ($2 " " $3 " " $4 " " $5 == "f3 0f 1e fa") {
					gsub(/[<>:]/, "", sym); print sym
				}
				sym = ""
			}')
		found=0
		while read -r name; do
			found=1 n=$((n + 1))
			[ -n "${ok[$name]:-}" ] || bad="$bad $(basename "$ko"):$name"
		done < <(objdump -t "$ko" | awk '$NF ~ /^__marker_tramp_/ { print $NF }')
		mods=$((mods + found))
	done
	if [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		result OK "$k: $mode: IBT: each of the $n trampolines ($mods modules) is in .discard.noendbr or starts with ENDBR"
	else
		[ -z "$bad" ] || echo "# no ENDBR, not in .discard.noendbr:$bad"
		result FAIL "$k: $mode: IBT: each of the $n trampolines ($mods modules) is in .discard.noendbr or starts with ENDBR"
	fi
}

# guest NAME MODE KDIR PAYLOAD LOG WHAT [QEMU-ARGS]: boot the payload, one
# result a test, and one for the log's being clean
guest() {
	local k=$1 mode=$2 kdir=$3 payload=$4 log=$5 what=$6 vm_rc=0

	KDIR=$kdir "$here/vm.sh" --hostfs --log "$log" --payload "$payload" \
		${7:+--qemu-args "$7"} 2>"$log.vm" || vm_rc=$?
	guest_results "$k: " "$log" "$vm_rc" "$log.vm" "$k: $mode: $what"
}

# check_kernel NAME KDIR: the whole flow, in each mode, for one kernel
check_kernel() {
	local k=$1 kdir=$2 dir=$out/$1 mode payload build_rc kos

	mkdir -p "$dir"
	for mode in $modes; do
		payload=$dir/$mode
		rm -rf "$payload"
		mkdir -p "$payload"

		# From clean, so that the log has every object's warnings,
		# and nothing built for another kernel stays.
		make -C "$kdir" M="$top" clean >/dev/null 2>&1 || true
		build_rc=0
		make -C "$top" -s W=1 KDIR="$kdir" MARKERS_MODE="$mode" \
			modules markerctl >"$dir/$mode.build" 2>&1 || build_rc=$?
		if [ "$build_rc" -eq 0 ] &&
		   ! grep -qE 'warning:|error:' "$dir/$mode.build"; then
			result OK "$k: $mode: build, W=1 without warnings"
		else
			sed 's/^/# /' "$dir/$mode.build"
			result FAIL "$k: $mode: build, W=1 without warnings (see $dir/$mode.build)"
		fi
		if ! grep -q 'objtool' "$dir/$mode.build"; then
			result OK "$k: $mode: objtool: no warning in the W=1 build"
		else
			result FAIL "$k: $mode: objtool: no warning in the W=1 build"
		fi
		[ "$build_rc" -eq 0 ] || continue
		# sparse on every source of the modules (C=2: built or not; W=1,
		# the same command lines: nothing is rebuilt):
		# address spaces, locking annotations, endianness
		if make -C "$top" -s W=1 C=2 KDIR="$kdir" MARKERS_MODE="$mode" \
			modules >"$dir/$mode.sparse" 2>&1 &&
		   ! grep -qE 'warning:|error:' "$dir/$mode.sparse"; then
			result OK "$k: $mode: sparse: no warning"
		else
			sed 's/^/# /' "$dir/$mode.sparse"
			result FAIL "$k: $mode: sparse: no warning (see $dir/$mode.sparse)"
		fi
		mapfile -t kos < <(find "$top/kernel" "$top/loader" "$top/samples" \
			"$top/tools/testing/markers" -name '*.ko')
		cp "${kos[@]}" "$payload/"
		cp "$top/tools/markerctl/markerctl" "$here/run-tests.sh" "$payload/"
		cp -r "$here/test.d" "$payload/"
		echo "$mode" >"$payload/mode"
		[ -z "${TESTS:-}" ] || echo "$TESTS" >"$payload/only"
		if [ "$mode" = portable ] && [ "$k" != "$first" ] &&
		   [ -n "$portable_skip" ]; then
			echo "# $k: portable: not run, as on $first: $portable_skip"
			echo "$portable_skip" >"$payload/skip"
		fi
		while read -r status desc; do
			result "$status" "$k: $desc"
		done < <(KDIR=$kdir "$here/third-party.sh" "$mode" "$payload")

		check_tramps "$k" "$mode" "${kos[@]}"
		while read -r status desc; do
			result "$status" "$k: $desc"
		done < <("$here/check-sites.sh" "$mode" "$payload"/*.ko)

		guest "$k" "$mode" "$kdir" "$payload" "$dir/$mode.log" \
			"guest log clean, suite complete"
		# The stress test (TESTS=stress: in the suite's boot), in a
		# boot of its own, with a log of its own
		if [ -z "${TESTS:-}" ]; then
			echo stress >"$payload/only"
			guest "$k" "$mode" "$kdir" "$payload" "$dir/$mode-stress.log" \
				"stress boot clean"
			rm -f "$payload/only"
		fi
	done
}

export KDIR=${KDIR:-$(make -s -C "$top" --no-print-directory print-kdir)}
mkdir -p "$out"
while read -r status desc; do
	result "$status" "$desc"
done < <("$here/compile-tests.sh")

# markerctl against fake registry files, on the host (loads nothing)
if make -s -C "$top/tools/markerctl" test >"$out/markerctl-selftest.log" 2>&1; then
	result OK "markerctl: selftest.sh, $(tail -n 1 "$out/markerctl-selftest.log")"
else
	grep -A3 '^not ok' "$out/markerctl-selftest.log" | sed 's/^/# /'
	result FAIL "markerctl: selftest.sh, $(tail -n 1 "$out/markerctl-selftest.log") (see $out/markerctl-selftest.log)"
fi

for k in $kernels; do
	kpass=$pass kfail=$fail
	case "$k" in
	/*)	kdir=$k
		k=$(release "$kdir") ;;
	*)	kdir=$(kernel_kdir "$k") || kdir='' ;;
	esac
	if [ -z "$k" ] || [ -z "$kdir" ] || [ -z "$(release "$kdir")" ]; then
		result FAIL "${k:-$kdir}: kernel headers installed (${kdir:+no release in }${kdir:-no linux-headers package for it})"
	else
		echo "# $k: KDIR=$kdir ($(release "$kdir"))"
		first=${first:-$k}
		check_kernel "$k" "$kdir"
	fi
	echo "# ${k:-$kdir}: $((pass - kpass)) passed, $((fail - kfail)) failed"
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
