#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check.sh - build the modules in each mode and run the integration suite
# in a QEMU guest, plus the static checks on the built code. Prints one
# line per test and a closing "N passed, N failed"; exits nonzero on any
# failure. Run by "make check" after deps.sh.
#
# MODES="near-zero portable" by default; logs in build/check/<mode>.log.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$top/build/check
modes=${MODES:-near-zero portable}
pass=0
fail=0

# result OK|FAIL DESCRIPTION
result() {
	if [ "$1" = OK ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}

export KDIR=${KDIR:-$(make -s -C "$top" --no-print-directory print-kdir)}
mkdir -p "$out"
while read -r status desc; do
	result "$status" "$desc"
done < <("$here/compile-tests.sh")

for mode in $modes; do
	payload=$out/$mode
	rm -rf "$payload"
	mkdir -p "$payload"

	if make -C "$top" -s W=1 MARKERS_MODE="$mode" modules markerctl >"$out/$mode.build" 2>&1 &&
	   ! grep -E 'warning:|error:' "$out/$mode.build"; then
		result OK "$mode: build, W=1 without warnings"
	else
		cat "$out/$mode.build"
		result FAIL "$mode: build, W=1 without warnings"
		continue
	fi
	find "$top/kernel" "$top/loader" "$top/samples" "$top/tools/testing/markers" \
		-name '*.ko' -exec cp {} "$payload/" \;
	cp "$top/tools/markerctl/markerctl" "$here/tests-markerctl.sh" "$payload/"
	cp "$here/run-tests.sh" "$payload/"
	echo "$mode" >"$payload/mode"

	while read -r status desc; do
		result "$status" "$desc"
	done < <("$here/check-sites.sh" "$mode" "$payload"/*.ko)

	vm_rc=0
	"$here/vm.sh" --log "$out/$mode.log" --payload "$payload" 2>"$out/$mode.vm" ||
		vm_rc=$?
	while read -r line; do
		case "$line" in
		"ok "*)		result OK "${line#ok [0-9]* }" ;;
		"not ok "*)	result FAIL "${line#not ok [0-9]* }" ;;
		esac
	done < <(grep -E '^(not )?ok [0-9]+ ' "$out/$mode.log" || true)
	if [ "$vm_rc" -eq 0 ]; then
		result OK "$mode: guest log clean, suite complete"
	else
		sed 's/^/# /' "$out/$mode.vm"
		result FAIL "$mode: guest log clean, suite complete (see $out/$mode.log)"
	fi
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
