#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# third-party.sh MODE PAYLOAD - what a module built elsewhere gets from
# what the project installs: "make install DESTDIR=<scratch>" for KDIR's
# kernel, then third-party/ copied to a directory outside the tree and
# built there against it, with only the documented Kbuild line (its path
# under DESTDIR). The module goes into PAYLOAD for the guest suite's
# third_party_module test. Prints "OK|FAIL description" lines.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
mode=$1
payload=$2
: "${KDIR:?KDIR must be set}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$payload.third-party.log

# W=1 as check.sh built the tree: the same command line rebuilds nothing.
if ! make -C "$top" -s --no-print-directory install DESTDIR="$tmp/root" \
	KDIR="$KDIR" MARKERS_MODE="$mode" W=1 >"$log" 2>&1; then
	echo "FAIL $mode: third party: make install DESTDIR=... (see $log)"
	exit 0
fi
cp -r "$here/third-party" "$tmp/src"
sed -i "s|^include /usr/src/markers/markers.kbuild$|include $tmp/root/usr/src/markers/markers.kbuild|" \
	"$tmp/src/Kbuild"
grep -q "^include $tmp/root/" "$tmp/src/Kbuild" ||
	{ echo "FAIL $mode: third party: no documented include line in third-party/Kbuild"; exit 0; }
if make -C "$KDIR" M="$tmp/src" W=1 modules >>"$log" 2>&1 &&
   ! grep -E 'warning:|error:' "$log"; then
	cp "$tmp/src/thirdparty_example.ko" "$payload/"
	echo "OK $mode: third party: built outside the tree against make install, W=1 without warnings"
else
	echo "FAIL $mode: third party: build outside the tree (see $log)"
fi
