#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-tests.sh - the markers integration suite, run inside the QEMU guest
# by vm.sh (busybox sh), in the shape of the kernel's ftracetest: one file
# a test, test.d/GROUP/NAME.tc, its helpers in test.d/functions, and the
# guest reset to a known state (reset_guest) before the first test and
# after each. The payload holds the modules, test.d/, and a file "mode"
# saying which mode they were built in (near-zero or portable).
#
# A test's header may say "# requires: WORD..."; it runs only where each
# WORD holds, and is listed on a comment line where one does not:
#
#   debug	the debug kernel (debug-guest.sh sets MARKERS_SUITE_DEBUG=1):
#		lockdep, CONFIG_FAILSLAB
#   distro	a Debian kernel, not the debug one
#   named	named in ./only (its name or its group): a long campaign,
#		make stress, make faults
#   no-registry	starts with neither the registry nor the annotated
#		modules loaded
#
# ./only, if the payload has it (check.sh TESTS="...", make stress, make
# faults): the names of the tests, or of the groups, to run. ./skip: those
# not to run in this boot (check.sh: test.d/tools/ in portable mode but on
# the first kernel; intree.sh: markerctl and tools on the debug kernel),
# each listed on a comment line. The tests run
# in the order of their paths; a last one, unload_everything, unloads the
# registry and the annotated modules (debug-guest.sh loads marker.ko
# again).
#
# After each test, "# time: NAME SECONDS s": the test's time and its
# reset's, by the guest's clock, to find what makes a suite slow.

# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh
# shellcheck source=SCRIPTDIR/lib.sh
. ./lib.sh
# shellcheck source=SCRIPTDIR/test.d/functions
. ./test.d/functions

# Keep the console for TAP lines; the kernel log is printed at the end,
# where vm.sh looks for warnings and oopses.
echo 4 >/proc/sys/kernel/printk

# field NAME FILE: set $fv to the value of FILE's "# NAME:" header line
# (the comment lines it opens with), or to nothing. The shell's own read,
# no subshell: on the debug kernel, each program started costs about
# 0.35 s, and this runs for every test.
field() {
	fv=
	while IFS= read -r fl; do
		case $fl in
		"# $1:"*)
			fv=${fl#"# $1:"}
			return ;;
		"#"*) ;;
		*)	return ;;
		esac
	done <"$2"
}

# name_of TEST-FILE: set $t to its name and $g to its group
name_of() {
	t=${1##*/}
	t=${t%.tc}
	g=${1%/*}
	g=${g##*/}
}

# centisecs: set $cs to the guest's uptime in hundredths of a second
centisecs() {
	read -r cs _ </proc/uptime
	cs=${cs%.*}${cs#*.}
}

# unmet TEST-FILE: the first requirement of TEST-FILE that does not hold
# here, or nothing
unmet() {
	name_of "$1"
	field requires "$1"
	for r in $fv; do
		case $r in
		debug)	[ "${MARKERS_SUITE_DEBUG:-0}" = 1 ] || { echo "$r"; return; } ;;
		distro)	[ "${MARKERS_SUITE_DEBUG:-0}" != 1 ] || { echo "$r"; return; } ;;
		named)	case " $only " in
			*" $t "*|*" $g "*) ;;
			*) echo "$r"; return ;;
			esac ;;
		no-registry) ;;
		*)	echo "unknown requirement $r"; return ;;
		esac
	done
}

only=
[ ! -f ./only ] || only=$(tr '\n\t' '  ' <./only)
skip=
[ ! -f ./skip ] || skip=$(tr '\n\t' '  ' <./skip)
tests=''
n=1	# and unload_everything
for f in test.d/*/*.tc; do
	name_of "$f"
	if [ -n "$only" ]; then
		case " $only " in
		*" $t "*|*" $g "*) ;;
		*) continue ;;
		esac
	fi
	case " $skip " in
	*" $t "*|*" $g "*)
		echo "# not run in this boot (./skip): $t"
		continue ;;
	esac
	why=$(unmet "$f")
	if [ -n "$why" ]; then
		echo "# not run here (requires $why): $t"
		continue
	fi
	tests="$tests $f"
	n=$((n + 1))
done

ktap_print_header
ktap_set_plan $n
reset_guest >/dev/null || echo "# the first reset failed"
for f in $tests; do
	name_of "$f"
	field requires "$f"
	case " $fv " in
	*" no-registry "*)
		reset_guest no-registry ;;
	esac
	centisecs
	start=$cs
	if (. "./$f"); then
		ok=1
	else
		ok=0
	fi
	# what the test left is reset; if it cannot be, the test fails
	reset_guest || ok=0
	# the test's and its reset's time, for the slow tests to be found
	centisecs
	printf '# time: %s %d.%02d s\n' "$t" $(((cs - start) / 100)) \
		$(((cs - start) % 100))
	if [ $ok = 1 ]; then
		ktap_test_pass "$MODE: $t"
	else
		ktap_test_fail "$MODE: $t"
	fi
done

# Nothing holds a reference on the registry or the annotated modules.
if rmmod marker_test_sites && rmmod marker_example && rmmod marker; then
	ktap_test_pass "$MODE: unload_everything"
else
	ktap_test_fail "$MODE: unload_everything"
fi

echo "# kernel log follows"
dmesg
ktap_finished
