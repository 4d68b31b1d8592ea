#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# intree.sh - the in-tree form, the KUnit suite and the debug kernel; run by
# "make check" after check.sh. The kernel is Debian's linux-source-$KERNEL
# (KERNEL=6.1 by default; "make check-intree KERNEL=6.12" for 6.12),
# extracted once and integrated with scripts/integrate.sh. Stages:
#
#   kunit    kunit.py run --arch=x86_64 with the project's .kunitconfig:
#            the marker_registry suite, CONFIG_MARKERS=y; one line a case
#   builtin  that kernel (plus configs/builtin.config) booted in the QEMU
#            rig: markers of vmlinux found, one armed from a probe module,
#            module markers with the built-in registry (builtin-guest.sh)
#   debug    a kernel with lockdep, PROVE_RCU, KASAN, kmemleak and debug
#            objects (configs/debug.config), CONFIG_MARKERS=m; the
#            integration suite on it, with modules built out of tree
#            against it, then a kmemleak scan (debug-guest.sh); without
#            the groups of MARKERS_DEBUG_SKIP (default "markerctl tools
#            inline kprobes": the user-space tools' tests, and two groups
#            of what the registry finds and kprobes attach to), which
#            "make check-debug" empties to run the suite whole
#            (MARKERS_STRESS_CYCLES=N, as make stress sets it: the stress
#            test alone, N cycles, then the kmemleak scan)
#   dkms     dkms.conf built by dkms against each installed Debian header tree,
#            and make install into a scratch directory
#   hotpaths make bench's, not in the default stages: the tree's kernel of
#            configs/hot-paths.config, with CONFIG_MARKERS=y and =n, each
#            booted under -icount with hot-paths-load (hot-paths-guest.sh):
#            what the markers of scripts/graft/hot-paths/ cost disarmed
#
# Prints "ok - ..."/"not ok - ..." lines, the wall time of each stage, a
# closing "N passed, N failed" and how long make check has taken. Exits
# nonzero on any failure. Logs in build/intree/ (6.1), build/intree-6.12/.
#
# Caches, outside the clone so that a fresh clone on the same machine
# rebuilds no kernel from scratch; MARKERS_CACHE, default /var/cache/markers:
#
#   src/<tree>        the extracted tree, integrated (links into the clone)
#                     with the hot paths' patch set (integrate.sh
#                     --hot-paths): linux-source-6.1, linux-source-6.12
#   kbuild/kunit      kunit.py's build directory (O=); kunit-6.12 for 6.12
#   kbuild/debug      the debug kernel's build directory (O=); debug-6.12
#   kbuild/hot-paths  the hotpaths stage's, CONFIG_MARKERS=y; hot-paths-off,
#                     =n
#   ccache            the compiler cache
#
# STAGES="docs kunit builtin debug dkms" by default for 6.1, "docs kunit
# builtin" for another KERNEL (builtin needs kunit's kernel); JOBS,
# default the number of CPUs.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
kernel=${KERNEL:-6.1}
cache=${MARKERS_CACHE:-/var/cache/markers}
if [ "$kernel" = 6.1 ]; then
	out=$top/build/intree
	suffix=''
	stages=${STAGES:-docs kunit builtin debug dkms}
else
	out=$top/build/intree-$kernel
	suffix=-$kernel
	stages=${STAGES:-docs kunit builtin}
fi
jobs=${JOBS:-$(nproc)}
start=$(date +%s)

# KERNEL_BAD: what fails a run wherever it appears in a kernel log
# shellcheck source=SCRIPTDIR/kernel-bad.sh
. "$here/kernel-bad.sh"

pass=0
fail=0
timings=()

# result OK|FAIL DESCRIPTION: counted in $pass, $fail; guest_results: the
# results of a vm.sh boot
# shellcheck source=SCRIPTDIR/lib.sh
. "$here/lib.sh"

# check DESCRIPTION COMMAND...: one result line for COMMAND's status, and the
# status (so that "check ... || return 1" stops a stage)
check() {
	local desc=$1

	shift
	if "$@"; then
		result OK "$desc"
	else
		result FAIL "$desc"
		return 1
	fi
}

mmss() {
	printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
}

# stage NAME: run stage_NAME, timed
stage() {
	local t0=$SECONDS

	"stage_$1" || true
	timings+=("$1 $(mmss $((SECONDS - t0)))")
	echo "# $1: $(mmss $((SECONDS - t0)))"
}

# w1_build DESCRIPTION LOG COMMAND...: one result for a build, COMMAND's
# output in LOG: OK if it succeeded without a warning or an error, else LOG
# printed first and a nonzero return
w1_build() {
	local desc=$1 log=$2

	shift 2
	if "$@" >"$log" 2>&1 && ! grep -E 'warning:|error:' "$log"; then
		result OK "$desc"
	else
		cat "$log"
		result FAIL "$desc"
		return 1
	fi
}

# fragment_holds FRAGMENT CONFIG: every option of FRAGMENT is so in CONFIG
fragment_holds() {
	local line name ok=0

	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$2" || { echo "# $2: not $line"; ok=1; } ;;
		"# CONFIG_"*" is not set")
			name=${line#\# }
			name=${name%% *}
			if grep -q "^$name=" "$2"; then
				echo "# $2: $(grep "^$name=" "$2"), not unset"
				ok=1
			fi ;;
		esac
	done <"$1"
	return $ok
}

# config_from FRAGMENT O STAGE: O's .config made from FRAGMENT (written as
# .config, then make olddefconfig: Kconfig's defaults for the rest), again
# only when FRAGMENT changed; a result line that every option of it held
config_from() {
	local frag=$1 o=$2 stage=$3

	mkdir -p "$o"
	if ! cmp -s "$frag" "$o/.markers-fragment"; then
		cp "$frag" "$o/.config"
		make -C "$src" O="$o" -s olddefconfig >"$out/$stage.config.log" 2>&1 ||
			{ cat "$out/$stage.config.log"; return 1; }
		cp "$frag" "$o/.markers-fragment"
	fi
	check "$stage: .config has every option of configs/$(basename "$frag")" \
		fragment_holds "$frag" "$o/.config"
}

# shadow DIR PATH...: DIR mirrors the project's PATHs with links to their
# sources, so that kbuild (M=DIR) writes its objects there, not in the
# clone, where check.sh's builds for Debian's kernel live.
shadow() {
	local dir=$1 f

	shift
	rm -rf "$dir"
	mkdir -p "$dir"
	(cd "$top" && find "$@" -type f \( -name '*.[chS]' -o -name Kbuild \) \
		! -name '*.mod.c') | while read -r f; do
		mkdir -p "$dir/$(dirname "$f")"
		ln -s "$top/$f" "$dir/$f"
	done
}

# -- The tree ---------------------------------------------------------------

tarball=/usr/src/linux-source-$kernel.tar.xz
src=$cache/src/$(basename "$tarball" .tar.xz)
kunit_o=$cache/kbuild/kunit$suffix
debug_o=$cache/kbuild/debug$suffix

stage_tree() {
	local version

	version=$(stat -c '%n %s %Y' "$tarball")
	if [ "$(cat "$src.stamp" 2>/dev/null)" != "$version" ]; then
		rm -rf "$src" "$src.stamp"
		mkdir -p "$cache/src"
		tar -xJf "$tarball" -C "$cache/src" || return 1
		echo "$version" >"$src.stamp"
	fi
	if "$top/scripts/integrate.sh" --hot-paths "$src" >"$out/integrate.log" 2>&1; then
		result OK "tree: $(basename "$tarball") integrated (scripts/integrate.sh --hot-paths)"
	else
		cat "$out/integrate.log"
		result FAIL "tree: $(basename "$tarball") integrated (scripts/integrate.sh --hot-paths)"
		return 1
	fi
	check "tree: integrated with links to the project, no copies" \
		test "$(readlink "$src/kernel/markers/marker_core.c")" = \
		"$top/kernel/marker_core.c" -a \
		"$(readlink "$src/include/linux/marker.h")" = \
		"$top/include/linux/marker.h" -a \
		"$(readlink "$src/arch/x86/include/asm/marker.h")" = \
		"$top/arch/x86/include/asm/marker.h"
}

# -- The documentation ------------------------------------------------------

# The pages as the tree builds them (Documentation/trace/markers/, linked by
# integrate.sh): "make SPHINXDIRS=trace htmldocs" with no warning about
# them, and the API reference's kernel-doc found at the in-tree paths.
stage_docs() {
	local o=$cache/kbuild/docs$suffix html f missing=''

	html=$o/Documentation/output/trace/markers/markers.html
	rm -f "$html"
	make -C "$src" O="$o" SPHINXDIRS=trace htmldocs >"$out/docs.log" 2>&1 ||
		tail -n 20 "$out/docs.log"
	check "docs: make SPHINXDIRS=trace htmldocs, no warning about the markers' pages" \
		test -f "$html" -a -z "$(grep -iE 'warning|error' "$out/docs.log" |
			grep -E 'trace/markers/|/marker[-_][a-z_-]*\.[ch]')"
	for f in $(sed -n 's/^EXPORT_SYMBOL_GPL(\(.*\));$/\1/p' "$top"/kernel/*.c); do
		grep -qF "id=\"c.$f\"" "$html" 2>/dev/null || missing="$missing $f"
	done
	check "docs: every export in the API reference in tree${missing:+ (missing:$missing)}" \
		test -z "$missing"
}

# -- KUnit ------------------------------------------------------------------

# The KTAP of kunit.py's test.log: one line per case and per parameter,
# "ok|not ok|skip PATH". "# Subtest: NAME" at indentation d names the test
# whose results are at d and whose own result is at d - 1. KUnit prints a
# skipped parameter as "ok": a case's "pass:P fail:F skip:S" line tells,
# and its parameters are held until then.
ktap_cases() {
	sed -E 's/^\[[ 0-9.]+\] ?//' "$1" | awk '
		{
			match($0, /^ */)
			d = int(RLENGTH / 4)
			l = substr($0, RLENGTH + 1)
		}
		l ~ /^# Subtest: / { name[d] = substr(l, 12); next }
		d == 1 && l ~ /^# [^ ]+: pass:[0-9]+ fail:[0-9]+ skip:[0-9]+ total:[0-9]+$/ {
			match(l, /skip:[0-9]+/)
			skipped = substr(l, RSTART + 5, RLENGTH - 5) + 0
			next
		}
		l ~ /^(not )?ok [0-9]+ / && d > 0 {
			st = l ~ /^not / ? "not ok" : "ok"
			sub(/^(not )?ok [0-9]+ /, "", l)
			if (l ~ /# SKIP/)
				st = "skip"
			sub(/ *# SKIP.*$/, "", l)
			path = ""
			for (i = 1; i <= d; i++)
				path = path name[i] ": "
			if (d > 1) {
				held[++n] = st
				heldpath[n] = path l
				next
			}
			for (i = 1; i <= n; i++)
				print (skipped && held[i] == "ok" ? "skip" : held[i]) \
					" " heldpath[i]
			print st " " path l
			n = 0
			skipped = 0
		}'
}

stage_kunit() {
	local rc=0 st desc n=0

	# what an earlier run left must not pass for this one's: a build
	# that fails leaves no log and no kernel for the builtin stage
	rm -f "$kunit_o/test.log" "$kunit_o/arch/x86/boot/bzImage"
	# two vCPUs on one host thread, as vm.sh boots them (stale
	# translations of patched sites under multi-threaded TCG)
	(cd "$src" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
		--kunitconfig="$top/.kunitconfig" \
		--kunitconfig="$here/configs/builtin.config" \
		--build_dir="$kunit_o" --jobs="$jobs" --qemu_args="-smp 2 -accel tcg,thread=single" \
		--timeout=900) >"$out/kunit.log" 2>&1 || rc=$?
	if [ ! -f "$kunit_o/test.log" ] ||
	   ! grep -q 'Subtest: marker_registry' "$kunit_o/test.log"; then
		tail -n 40 "$out/kunit.log" | sed 's/^/# /'
		result FAIL "kunit: kunit.py run built and booted the suite (see $out/kunit.log)"
		return 1
	fi
	while read -r st desc; do
		n=$((n + 1))
		case "$st" in
		ok)	result OK "kunit: $desc" ;;
		skip)	result FAIL "kunit: $desc (skipped)" ;;
		*)	result FAIL "kunit: ${desc#ok }" ;;	# "not ok PATH"
		esac
	done < <(ktap_cases "$kunit_o/test.log")
	grep -A5 -E '(EXPECTATION|ASSERTION) FAILED' "$kunit_o/test.log" |
		head -n 60 | sed 's/^/# /'
	check "kunit: kunit.py run passed ($n results)" test "$rc" -eq 0 -a "$n" -gt 0
	if grep -nE "$KERNEL_BAD" "$kunit_o/test.log" | head -n 5 | sed 's/^/# /' |
	   grep -q .; then
		result FAIL "kunit: kernel log clean (see $kunit_o/test.log)"
	else
		result OK "kunit: kernel log clean (lockdep, might_sleep, WARN)"
	fi
	# The tree's own objects, again with W=1 (kunit.py builds without).
	w1_build "kunit: in-tree build (CONFIG_MARKERS=y), W=1 without warnings" \
		"$out/kunit-w1.build" \
		make -C "$src" O="$kunit_o" -s W=1 kernel/markers/ samples/markers/
}

# -- CONFIG_MARKERS=y in the rig ----------------------------------------------

stage_builtin() {
	local payload=$out/builtin mods=$out/builtin-mods vm_rc=0

	if [ ! -f "$kunit_o/arch/x86/boot/bzImage" ]; then
		result FAIL "builtin: no kernel (the kunit stage builds it)"
		return 1
	fi
	check "builtin: vmlinux has the registry and sites (CONFIG_MARKERS=y)" \
		grep -q '^CONFIG_MARKERS=y$' "$kunit_o/.config"
	rm -rf "$payload"
	mkdir -p "$payload"
	# the test modules, out of tree against the same kernel
	shadow "$mods" tools/testing/markers
	w1_build "builtin: test modules built against it, W=1 without warnings" \
		"$out/builtin-mods.build" \
		make -C "$kunit_o" M="$mods/tools/testing/markers" -s W=1 modules ||
		return 1
	cp "$kunit_o/samples/markers/probe_example.ko" \
		"$mods"/tools/testing/markers/*.ko "$payload/"
	hot_paths_load "$payload" || return 1
	cp "$here/builtin-guest.sh" "$payload/run-tests.sh"
	"$here/vm.sh" --kernel "$kunit_o/arch/x86/boot/bzImage" \
		--append "kunit.enable=0 panic_print=0x20" --timeout 900 \
		--log "$out/builtin.log" --payload "$payload" \
		2>"$out/builtin.vm" || vm_rc=$?
	guest_results "" "$out/builtin.log" "$vm_rc" "$out/builtin.vm" \
		"builtin: guest log clean, checks complete"
}

# hot_paths_load DIR: the hot paths' workload, static (the guest's initramfs
# has busybox and nothing else), any warning an error
hot_paths_load() {
	w1_build "hot-paths-load built (static, -Wall -Wextra)" \
		"$out/hot-paths-load.build" \
		gcc -static -O2 -Wall -Wextra -Werror -o "$1/hot-paths-load" \
		"$here/hot-paths-load.c"
}

# -- The debug kernel -------------------------------------------------------

stage_debug() {
	local frag=$here/configs/debug.config payload=$out/debug mods=$out/debug-mods
	local vm_rc=0 f append='' timeout=2400

	config_from "$frag" "$debug_o" debug || return 1
	if make -C "$src" O="$debug_o" -j"$jobs" bzImage modules \
		>"$out/debug.build" 2>&1 && [ -f "$debug_o/kernel/markers/marker.ko" ]; then
		result OK "debug: kernel and in-tree marker.ko (CONFIG_MARKERS=m) built"
	else
		tail -n 40 "$out/debug.build"
		result FAIL "debug: kernel and in-tree marker.ko (CONFIG_MARKERS=m) built"
		return 1
	fi
	w1_build "debug: in-tree marker.ko, W=1 without warnings" \
		"$out/debug-w1.build" \
		make -C "$src" O="$debug_o" -s W=1 kernel/markers/

	# The integration suite's payload, as check.sh makes it, built against
	# the debug tree.
	shadow "$mods" Kbuild arch include kernel loader samples tools/testing/markers
	w1_build "debug: out-of-tree modules against it, W=1 without warnings" \
		"$out/debug-mods.build" \
		make -C "$debug_o" M="$mods" -s W=1 MARKERS_MODE=near-zero modules ||
		return 1
	rm -rf "$payload"
	mkdir -p "$payload"
	find "$mods" -name '*.ko' -exec cp {} "$payload/" \;
	cp "$debug_o/kernel/markers/marker.ko" "$payload/intree-marker.ko"
	if [ -f "$top/tools/markerctl/Makefile" ]; then
		make -C "$top" -s markerctl >"$out/markerctl.build" 2>&1 ||
			{ cat "$out/markerctl.build"; return 1; }
		cp "$top/tools/markerctl/markerctl" "$payload/"
	fi
	cp -r "$here/test.d" "$payload/"
	cp "$here/run-tests.sh" "$payload/suite.sh"
	cp "$here/debug-guest.sh" "$payload/run-tests.sh"
	echo near-zero >"$payload/mode"
	# make check leaves out the tests of the user-space tools, which
	# run on Debian's kernels (markerctl, perf, bpftrace, trace-cmd:
	# 194 s and 298 s of the 1776 s the whole suite took here), and
	# two groups with no lifetime, concurrency or bad input of their
	# own (inline, kprobes: 113 s and 41 s of the 1315 s the rest
	# took on 2026-12-07); make check-debug runs it whole
	# (MARKERS_DEBUG_SKIP="")
	local skip=${MARKERS_DEBUG_SKIP-markerctl tools inline kprobes}
	if [ -n "$skip" ]; then
		echo "$skip" >"$payload/skip"
		echo "# debug: not run in make check (make check-debug runs them): $skip"
	fi
	# make stress: the stress test alone, STRESS_CYCLES given to the
	# guest's init as an environment variable (an unknown parameter)
	if [ -n "${MARKERS_STRESS_CYCLES:-}" ]; then
		echo stress >"$payload/only"
		append="STRESS_CYCLES=$MARKERS_STRESS_CYCLES"
		timeout=5400
	fi
	# make faults: every fault injection test (test.d/faults/), or
	# those MARKERS_FAULTS names (make faults FAULTS="faults_arrival")
	if [ -n "${MARKERS_FAULTS:-}" ]; then
		if [ "$MARKERS_FAULTS" = 1 ]; then
			echo faults >"$payload/only"
		else
			echo "$MARKERS_FAULTS" >"$payload/only"
		fi
		timeout=5400
	fi
	# the suite's third-party module, built against this kernel as
	# check.sh builds it against the distro's
	while read -r status desc; do
		result "$status" "debug: $desc"
	done < <(KDIR=$debug_o "$here/third-party.sh" near-zero "$payload")

	# slub_debug=A,kmalloc-*: the caches test.d/faults/ may fail;
	# --hostfs: the tools tests (9p is built into this kernel)
	"$here/vm.sh" --kernel "$debug_o/arch/x86/boot/bzImage" --hostfs \
		--append "loglevel=6 panic_print=0x20 slub_debug=A,kmalloc-* $append" \
		--timeout "$timeout" \
		--log "$out/debug.log" --payload "$payload" \
		2>"$out/debug.vm" || vm_rc=$?
	guest_results "debug: " "$out/debug.log" "$vm_rc" "$out/debug.vm" \
		"debug: guest log clean (no lockdep, KASAN, kmemleak, WARN), suite complete"
}

# -- DKMS and make install ----------------------------------------------------

# dkms_one HEADERS SCRATCH: dkms add + build for the kernel of HEADERS.
dkms_one() {
	local hdr=$1 tmp=$2 kver version log ko

	kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$hdr/include/generated/utsrelease.h" 2>/dev/null)
	version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
	if [ -z "$kver" ] || [ -z "$version" ]; then
		result FAIL "dkms: $hdr has a release and dkms.conf a version"
		return
	fi
	log=$out/dkms-$kver.log
	rm -rf "$tmp/dkms"
	mkdir -p "$tmp/dkms"
	# No signing: the machine's MOK is not ours to make. DKMS names the
	# module as the kernel's modules are named: compressed where the
	# kernel compresses them (6.12: CONFIG_MODULE_COMPRESS_XZ).
	if sign_file=/nonexistent dkms add -m markers -v "$version" \
		--sourcetree "$tmp/src" --dkmstree "$tmp/dkms" >"$log" 2>&1 &&
	   sign_file=/nonexistent dkms build -m markers -v "$version" -k "$kver" \
		--sourcetree "$tmp/src" --dkmstree "$tmp/dkms" >>"$log" 2>&1 &&
	   ko=$(find "$tmp/dkms/markers/$version/$kver/x86_64/module" \
		-name 'marker.ko*' 2>/dev/null) && [ -n "$ko" ]; then
		result OK "dkms: dkms build markers/$version for $kver (${ko##*/})"
	else
		tail -n 30 "$log" | sed 's/^/# /'
		find "$tmp/dkms" -name make.log -exec tail -n 30 {} \; | sed 's/^/# /'
		result FAIL "dkms: dkms build markers/$version for $kver"
	fi
}

# Every installed Debian header tree (6.1, 6.1 PREEMPT_RT, 6.12): what a
# distro's DKMS does for each kernel it ships.
stage_dkms() {
	local hdr kver version tmp

	if ! command -v dkms >/dev/null; then
		result FAIL "dkms: dkms installed (apt-get install dkms)"
		return 1
	fi
	version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
	tmp=$(mktemp -d)
	# The tracked files, as a distro would unpack them in /usr/src.
	mkdir -p "$tmp/src/markers-$version"
	(
		cd "$top" || exit 1
		if git rev-parse --git-dir >/dev/null 2>&1; then
			git ls-files -z
		else
			find . -type f -print0
		fi
	) | (cd "$top" && xargs -0 cp --parents -t "$tmp/src/markers-$version")
	for hdr in /usr/src/linux-headers-*-amd64; do
		[ -f "$hdr/include/generated/utsrelease.h" ] || continue
		dkms_one "$hdr" "$tmp"
	done

	# make install, for the Makefile's default kernel (Debian's
	# linux-headers-amd64)
	hdr=$(make -s -C "$top" --no-print-directory print-kdir)
	kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
		"$hdr/include/generated/utsrelease.h" 2>/dev/null)
	if make -C "$top" -s install DESTDIR="$tmp/root" KDIR="$hdr" \
		>"$out/install.log" 2>&1 &&
	   [ -f "$tmp/root/lib/modules/$kver/updates/markers/marker.ko" ] &&
	   [ -f "$tmp/root/usr/src/markers/include/linux/marker.h" ] &&
	   [ -f "$tmp/root/usr/src/markers/include/linux/marker-defs.h" ] &&
	   [ -f "$tmp/root/usr/src/markers/arch/x86/include/asm/marker.h" ]; then
		result OK "install: make install DESTDIR=... (modules for $kver, header)"
	else
		cat "$out/install.log"
		result FAIL "install: make install DESTDIR=... (modules for $kver, header)"
	fi
	rm -rf "$tmp"
}

# -- The hot paths, measured (make bench) ---------------------------------

# size_line LABEL FILE...: "LABEL FILE text data bss" for each FILE
size_line() {
	local label=$1

	shift
	size "$@" | awk -v l="$label" 'NR > 1 { print l, $6, $1, $2, $3 }'
}

# code_line LABEL VMLINUX: "LABEL code BYTES 0 0", the bytes of vmlinux's
# functions (nm's sizes of its text symbols): its .text is padded to a
# fixed end (the SRSO mitigation's alias at a fixed address), so size's
# text does not move when code is added
code_line() {
	nm -S --defined-only "$2" | awk '$3 ~ /^[tTwW]$/ { print $2 }' |
		python3 -c 'import sys; print(sys.argv[1], "code", sum(int(x, 16) for x in sys.stdin), 0, 0)' "$1"
}

stage_hotpaths() {
	local frag=$here/configs/hot-paths.config payload v o vm_rc objs
	local on=$cache/kbuild/hot-paths$suffix off=$cache/kbuild/hot-paths-off$suffix

	config_from "$frag" "$on" hotpaths || return 1
	# "off": a build directory of its own, the same .config without the
	# markers (written only when it changes: a later build remakes what
	# the tree's changes touch, as the first one's)
	mkdir -p "$off"
	sed 's/^CONFIG_MARKERS=y$/# CONFIG_MARKERS is not set/' "$on/.config" \
		>"$off/.config.new"
	if cmp -s "$off/.config.new" "$off/.config"; then
		rm -f "$off/.config.new"
	else
		mv "$off/.config.new" "$off/.config"
	fi
	make -C "$src" O="$off" -s olddefconfig >"$out/hotpaths.config.log" 2>&1 ||
		{ cat "$out/hotpaths.config.log"; return 1; }
	check "hotpaths: the two configurations differ in CONFIG_MARKERS only" \
		test "$(diff <(grep '^CONFIG_' "$on/.config") \
			<(grep '^CONFIG_' "$off/.config") | grep '^[<>]')" = \
		'< CONFIG_MARKERS=y' || return 1
	for v in on off; do
		o=$on
		[ "$v" = on ] || o=$off
		if make -C "$src" O="$o" -j"$jobs" bzImage >"$out/hotpaths-$v.build" 2>&1; then
			result OK "hotpaths: kernel built ($v)"
		else
			tail -n 40 "$out/hotpaths-$v.build"
			result FAIL "hotpaths: kernel built ($v)"
			return 1
		fi
	done
	# the text of the kernels, and of the files the patch set marks
	objs=$(sed -n 's|^+++ b/\(.*\)\.c$|\1.o|p' "$top"/scripts/graft/hot-paths/*.patch)
	{
		size_line on "$on/vmlinux"
		size_line off "$off/vmlinux"
		code_line on "$on/vmlinux"
		code_line off "$off/vmlinux"
		# shellcheck disable=SC2086 # one word an object
		(cd "$on" && size_line on $objs)
		# shellcheck disable=SC2086
		(cd "$off" && size_line off $objs)
	} | sed "s|$cache/kbuild/[^/ ]*/||" >"$out/hotpaths-size.txt"

	payload=$out/hotpaths
	rm -rf "$payload"
	mkdir -p "$payload"
	hot_paths_load "$payload" || return 1
	cp "$here/hot-paths-guest.sh" "$payload/run-tests.sh"
	for v in on off; do
		o=$on
		[ "$v" = on ] || o=$off
		echo "$v" >"$payload/variant"
		vm_rc=0
		# one vCPU: the guest clock counts the instructions of every
		# vCPU (as bench.sh's icount boots); no layout drawn at random
		# (KASLR, the kernel stack's offset): the two kernels run the
		# workload from the same addresses, boot after boot
		"$here/vm.sh" --kernel "$o/arch/x86/boot/bzImage" \
			--append "nokaslr randomize_kstack_offset=off" \
			--qemu-args "-icount shift=0 -smp 1" --timeout 900 \
			--log "$out/hotpaths-$v.log" --payload "$payload" \
			2>"$out/hotpaths-$v.vm" || vm_rc=$?
		guest_results "" "$out/hotpaths-$v.log" "$vm_rc" \
			"$out/hotpaths-$v.vm" "hotpaths $v: guest log clean, checks complete"
	done
}

# -----------------------------------------------------------------------------

if [ ! -f "$tarball" ]; then
	echo "not ok - tree: $tarball installed (apt-get install linux-source-$kernel)"
	echo "0 passed, 1 failed"
	exit 1
fi
mkdir -p "$out" "$cache/ccache" "$cache/kbuild"
# One run at a time on the shared tree and build directories.
exec 9>"$cache/lock"
flock 9

export CCACHE_DIR=$cache/ccache
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-10G}
export PATH=/usr/lib/ccache:$PATH
# Fixed build strings: a relinked vmlinux does not change for the date.
export KBUILD_BUILD_USER=markers KBUILD_BUILD_HOST=markers
KBUILD_BUILD_TIMESTAMP=$(date -u -d "@$(stat -c %Y "$tarball")")
export KBUILD_BUILD_TIMESTAMP

ccache -z >/dev/null
stage tree
for s in $stages; do
	stage "$s"
done

echo "# ccache: $(ccache -s | grep -iE '^ *(hits|misses):' | tr -s ' ' | paste -sd ' ')"
echo "# times: ${timings[*]}"
echo "$pass passed, $fail failed"
# make check's own time: our parent make's age, when there is one.
ppid=$PPID
while [ "$ppid" -gt 1 ] && [ "$(ps -o comm= -p "$ppid")" != make ]; do
	ppid=$(ps -o ppid= -p "$ppid" | tr -d ' ')
done
if [ "$ppid" -gt 1 ]; then
	echo "# make check: $(mmss "$(ps -o etimes= -p "$ppid" | tr -d ' ')") so far (intree.sh $(mmss $(($(date +%s) - start))))"
fi
[ "$fail" -eq 0 ]
