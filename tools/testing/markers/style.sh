#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# style.sh - checkpatch.pl --strict on every C file and header of the
# project. checkpatch comes from the newest of Debian's linux-source
# tarballs (6.12), extracted once into build/checkpatch.

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

# marker.h generates code with the preprocessor, as tracepoint.h does:
# checkpatch's heuristics for ordinary macros (a value in parentheses, an
# argument used once, one statement) do not apply to its argument-list
# machinery, nor the CamelCase warning to C11's _Generic, nor the externs
# warning to the trampoline declared inside MARK(). Every other check
# applies to it, and everything applies to every other file.
GENERATOR_IGNORES=COMPLEX_MACRO,MACRO_ARG_REUSE,CAMELCASE,AVOID_EXTERNS
GENERATOR_IGNORES+=,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
# (and, from 6.12's checkpatch, an argument a selector macro drops)
GENERATOR_IGNORES+=,MACRO_ARG_UNUSED

cd "$top"
checkpatch() {
	"$cp_dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--quiet --no-summary "$@"
}
rc=0
mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.h' |
		     grep -vx -e include/linux/marker.h \
			  -e include/wrapper/kernel-version.h)
checkpatch -f "${files[@]}" || rc=1
# the one place that reads LINUX_VERSION_CODE (see its comment)
checkpatch --ignore LINUX_VERSION_CODE -f include/wrapper/kernel-version.h || rc=1
checkpatch --ignore "$GENERATOR_IGNORES" -f include/linux/marker.h || rc=1
[ "$rc" -eq 0 ] && echo "style.sh: checkpatch --strict clean"
exit "$rc"
