#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# style.sh - checkpatch.pl --strict on every C file and header of the
# project. checkpatch comes from Debian's linux-source-6.1 tarball,
# extracted once into build/checkpatch.

set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
cp_dir=$top/build/checkpatch
if [ ! -x "$cp_dir/scripts/checkpatch.pl" ]; then
	tarball=$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1)
	[ -f "$tarball" ] || { echo "style.sh: no linux-source tarball (run deps.sh)" >&2; exit 1; }
	mkdir -p "$cp_dir"
	top_dir=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$cp_dir" --strip-components=1 \
		"$top_dir/scripts/checkpatch.pl" "$top_dir/scripts/spelling.txt" \
		"$top_dir/scripts/const_structs.checkpatch"
fi

cd "$top"
mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.h')
"$cp_dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
	--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f "${files[@]}"
