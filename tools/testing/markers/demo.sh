#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# demo.sh - "make demo": build the modules, boot the guest and show the
# 2006 scenario as the guest ran it, then the same without C code:
# markerctl and the generic loader.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$top/build/demo

rm -rf "$out"
mkdir -p "$out/payload"
make -C "$top" -s all >"$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
find "$top/kernel" "$top/loader" "$top/samples" -name '*.ko' \
	-exec cp {} "$out/payload/" \;
cp "$top/tools/markerctl/markerctl" "$out/payload/"
cp "$here/demo-guest.sh" "$out/payload/run-tests.sh"

echo "Booting Debian's kernel in QEMU (software emulation, ~10 s)..."
rc=0
"$here/vm.sh" --log "$out/guest.log" --payload "$out/payload" || rc=$?
sed -n '/^=== demo start$/,/^=== demo end$/p' "$out/guest.log" | sed '1d;$d'
exit "$rc"
