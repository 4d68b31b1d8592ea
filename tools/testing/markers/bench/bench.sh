#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# bench.sh - what a marker costs: build the benchmark modules, read the
# sites from the built code, boot the QEMU guest with instruction counting
# and again without, and write the report. Run by "make bench" after
# deps.sh. See Documentation/markers-bench.rst.
#
# Output in build/bench/: report.md, cases.csv, sites.csv, scaling.csv,
# scaling.png, headline.rst (for Documentation/markers-bench.rst), the
# guest logs (*.log) and the build logs.
#
# SCALE="10 100 1000 10000" (the distinct-name scaling modules' sizes),
# PASSES="icount icount2 time" (the boots), V=1 streams the consoles,
# INTREE=0 leaves out the in-tree kernel's boot (the built-in batches).

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../../.." && pwd)
out=$top/build/bench
scale_sizes=${SCALE:-10 100 1000 10000}
passes=${PASSES:-icount icount2 time}
# The Makefile's default (Debian's linux-headers-amd64 tree), unless given.
if [ -z "${KDIR:-}" ]; then
	KDIR=$(make -s -C "$top" --no-print-directory print-kdir)
fi
export KDIR
start=$(date +%s)

say() { echo "bench: $*"; }
die() { echo "bench: $*" >&2; exit 1; }

# build LOG DIR [make arguments...]: an out-of-tree build, W=1, no warnings
build() {
	local log=$1 dir=$2
	shift 2
	if ! make -C "$KDIR" M="$dir" W=1 "$@" modules >"$log" 2>&1 ||
	   grep -E 'warning:|error:' "$log"; then
		tail -n 30 "$log" >&2
		die "build of $dir failed or warned, see $log"
	fi
}

rm -rf "$out"
mkdir -p "$out"

say "building the modules (W=1)"
build "$out/modules.build" "$top" MARKERS_MODE=near-zero
# out of the source tree, so that make check never sees it
mdir=$out/module
mkdir -p "$mdir"
cp "$here/Kbuild" "$here"/marker_bench*.[ch] "$mdir/"
build "$out/bench.build" "$mdir" MARKERS_TOP="$top" \
	KBUILD_EXTRA_SYMBOLS="$top/Module.symvers"

# The scaling modules: N sites of N names (near-zero), and two of 1000
# sites: 100 names of 10 sites each, and portable mode.
say "generating and building the scaling modules ($scale_sizes; 1000 shared; 1000 portable; tracepoints and plain functions from 1000)"
sdir=$out/scale-src
mkdir -p "$sdir"
cp "$here/marker_bench.h" "$sdir/"
# -g0: the debug information of 10000 sites is 50 MB and minutes to build
echo "ccflags-y += -I$top/include -I$top/arch/x86/include -DCONFIG_MARKERS_MODULE=1 -g0" >"$sdir/Kbuild"
order=()
gen() {	# MODULE SITES NAMES MODE PREFIX
	"$here/gen-scale.sh" "$@" >"$sdir/$1.c"
	echo "obj-m += $1.o" >>"$sdir/Kbuild"
	order+=("$1.ko")
	echo "$5" >"$sdir/$1.prefix"
	echo "$3" >"$sdir/$1.names"
}
for n in $scale_sizes; do
	gen "mb_scale_$n" "$n" "$n" near-zero "s${n}_"
done
gen mb_shared_1000 1000 100 near-zero shared_
gen mb_portable_1000 1000 1000 portable p1000_
# Loading side by side: the same functions holding tracepoints, and alone
loadonly=()
for n in $scale_sizes; do
	[ "$n" -ge 1000 ] || continue
	gen "mb_tp_$n" "$n" "$n" tracepoint "t${n}_"
	gen "mb_plain_$n" "$n" "$n" plain "x${n}_"
	loadonly+=("mb_tp_$n" "mb_plain_$n")
done
build "$out/scale.build" "$sdir" -j2 \
	KBUILD_EXTRA_SYMBOLS="$top/Module.symvers $mdir/Module.symvers"

# The sites, from the built code, against the same sources built with
# CONFIG_MARKERS off (MARK() compiles to nothing) and in portable mode.
say "reading the sites with objdump"
for variant in off portable; do
	vdir=$out/static-$variant
	mkdir -p "$vdir"
	cp "$top/samples/markers/marker_example.c" "$here"/marker_bench*.[ch] "$vdir/"
	{
		echo "ccflags-y += -I$top/include -I$top/arch/x86/include"
		echo "obj-m += marker_example.o"
		if [ "$variant" = portable ]; then
			echo "ccflags-y += -DCONFIG_MARKERS_MODULE=1 -DMARKERS_FORCE_PORTABLE"
		else
			# off: what <linux/marker.h> compiles away on request
			echo "ccflags-y += -DMARKERS_DISABLE"
			echo "CFLAGS_marker_bench_main.o += -I\$(src)"
			echo "obj-m += marker_bench.o"
			echo "marker_bench-y := marker_bench_main.o marker_bench_portable.o"
		fi
	} >"$vdir/Kbuild"
	build "$out/static-$variant.build" "$vdir" \
		KBUILD_EXTRA_SYMBOLS="$top/Module.symvers"
done
python3 "$here/sites.py" --csv "$out/sites.csv" --md "$out/sites.md" \
	"near-zero:$top/samples/markers/marker_example.ko:$out/static-off/marker_example.ko" \
	"near-zero:$mdir/marker_bench.ko:$out/static-off/marker_bench.ko" \
	"portable:$out/static-portable/marker_example.ko:$out/static-off/marker_example.ko" \
	"ref:$mdir/marker_bench.ko:bench_key_fn:bench_empty" \
	"ref:$mdir/marker_bench.ko:bench_tp_fn:bench_empty" \
	"ref:$mdir/marker_bench.ko:bench_tp3:bench_empty3"

# One payload a pass: the modules, the guest script, its plan.
payload() {	# NAME PLAN...
	local p=$out/payload-$1
	shift
	mkdir -p "$p/scale"
	cp "$top/kernel/marker.ko" "$mdir/marker_bench.ko" "$p/"
	cp "$here/bench-guest.sh" "$p/run-tests.sh"
	echo "$*" >"$p/plan"
	if [[ " $* " == *" scale "* ]]; then
		for ko in "${order[@]}"; do
			strip --strip-debug -o "$p/scale/$ko" "$sdir/$ko"
			m=${ko%.ko}
			cp "$sdir/$m.prefix" "$sdir/$m.names" "$p/scale/"
		done
		echo "${order[*]}" >"$p/scale/order"
		# one typed probe a name, registered and unregistered one by one
		touch "$p/scale/mb_scale_1000.typed" "$p/scale/mb_shared_1000.typed"
		# loaded and removed only: no marker to arm
		for m in "${loadonly[@]}"; do
			touch "$p/scale/$m.loadonly"
		done
	fi
}

for pass in $passes; do
	case $pass in
	# One CPU: the guest clock counts the instructions of every vCPU,
	# and QEMU 7.2 does not bring up a second one under -icount.
	icount)	 payload "$pass" cases; qargs="-icount shift=0 -smp 1" ;;
	icount2) payload "$pass" baseline; qargs="-icount shift=0 -smp 1" ;;
	time)	 payload "$pass" cases scale; qargs="" ;;
	*) die "unknown pass $pass" ;;
	esac
	say "booting the guest: pass $pass${qargs:+ ($qargs)}"
	t0=$(date +%s)
	"$top/tools/testing/markers/vm.sh" --timeout 1200 --qemu-args "$qargs" \
		--log "$out/$pass.log" --payload "$out/payload-$pass" ||
		die "pass $pass failed, see $out/$pass.log"
	echo "$pass $(($(date +%s) - t0))" >>"$out/boot-seconds"
done

# The built-in form's shared batches (goal "arming 1000 names, built in"):
# intree.sh's kunit and builtin stages, the KUnit kernel with the markers
# built in (cached outside the clone; about 14 minutes to build cold),
# booted with marker_test_many.ko. And the hot paths' patch set (goal "hot
# paths of vmlinux marked"): its hotpaths stage, two kernels of
# configs/hot-paths.config (about 20 minutes to build cold, then what
# changed) booted with the workload under -icount. INTREE=0 leaves them
# out.
intree_logs=()
if [ "${INTREE:-1}" != 0 ]; then
	say "the in-tree kernels (intree.sh: kunit, builtin, hotpaths)"
	# no earlier run's figures in this one's report
	rm -f "$top"/build/intree/builtin.log "$top"/build/intree/hotpaths-*.log \
		"$top"/build/intree/hotpaths-size.txt
	STAGES="kunit builtin hotpaths" "$top/tools/testing/markers/intree.sh" \
		>"$out/intree.log" 2>&1 ||
		say "intree.sh failed (see $out/intree.log): what failed is not measured"
	# each goal reads its own stage's lines, and finds none if it failed
	intree_logs=(--builtin-log "$top/build/intree/builtin.log"
		     --hotpaths-dir "$top/build/intree")
fi

say "writing the report"
python3 "$here/report.py" --out "$out" --passes "$passes" \
	--wall "$(($(date +%s) - start))" "${intree_logs[@]}"
say "done in $(($(date +%s) - start)) s: $out/report.md"
