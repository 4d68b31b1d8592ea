#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# style.sh - make style: checkpatch.pl --strict on every C file and header
# of the project, kernel-doc -Wall on the registry's sources and the API
# headers, shellcheck on every shell script, and Documentation/ built with
# Sphinx, the API reference included, into build/docs. Any finding fails it.
#
# checkpatch, kernel-doc and the kernel's kerneldoc extension for Sphinx
# come from the newest of Debian's linux-source tarballs (6.12:
# linux-source-6.12, as make check installs it), extracted once into
# build/style; shellcheck and Sphinx are Debian's (deps.sh style).

set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
ks_dir=$top/build/style
# 6.12's kernel-doc is still the perl script, which needs nothing else
# from the tree (the python one, scripts/kernel-doc.py with scripts/lib/kdoc,
# came later).
if [ ! -x "$ks_dir/scripts/checkpatch.pl" ] || [ ! -x "$ks_dir/scripts/kernel-doc" ] ||
   [ ! -f "$ks_dir/Documentation/sphinx/kerneldoc.py" ]; then
	tarball=$(printf '%s\n' /usr/src/linux-source-*.tar.xz | sort -V | tail -n 1)
	[ -f "$tarball" ] || { echo "style.sh: no linux-source tarball (apt-get install linux-source-6.12)" >&2; exit 1; }
	mkdir -p "$ks_dir"
	top_dir=$(basename "$tarball" .tar.xz)
	tar -xJf "$tarball" -C "$ks_dir" --strip-components=1 \
		"$top_dir/scripts/checkpatch.pl" "$top_dir/scripts/spelling.txt" \
		"$top_dir/scripts/const_structs.checkpatch" \
		"$top_dir/scripts/kernel-doc" \
		"$top_dir/Documentation/sphinx/kerneldoc.py" \
		"$top_dir/Documentation/sphinx/kernellog.py"
fi
command -v shellcheck >/dev/null ||
	{ echo "style.sh: no shellcheck (apt-get install shellcheck)" >&2; exit 1; }
command -v sphinx-build >/dev/null ||
	{ echo "style.sh: no sphinx-build (apt-get install python3-sphinx)" >&2; exit 1; }

# marker.h (and asm/marker.h, for its trampoline) generates code with
# the preprocessor, as tracepoint.h does: checkpatch's heuristics for
# ordinary macros (a value in parentheses, an argument used once, one
# statement) do not apply to its argument-list machinery, nor the
# CamelCase warning to C11's _Generic, nor the externs warning to the
# trampoline declared inside MARK(). Every other check applies to them,
# and everything applies to every other file.
GENERATOR_IGNORES=COMPLEX_MACRO,MACRO_ARG_REUSE,CAMELCASE,AVOID_EXTERNS
GENERATOR_IGNORES+=,MULTISTATEMENT_MACRO_USE_DO_WHILE,TRAILING_SEMICOLON
# (and, from 6.12's checkpatch, an argument a selector macro drops)
GENERATOR_IGNORES+=,MACRO_ARG_UNUSED

cd "$top"
checkpatch() {
	"$ks_dir/scripts/checkpatch.pl" --strict --no-tree --terse --show-types \
		--quiet --no-summary "$@"
}
rc=0
mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.h' |
		     grep -vx -e include/linux/marker.h \
			  -e arch/x86/include/asm/marker.h \
			  -e include/wrapper/kernel-version.h)
checkpatch -f "${files[@]}" || rc=1
# the one place that reads LINUX_VERSION_CODE (see its comment)
checkpatch --ignore LINUX_VERSION_CODE -f include/wrapper/kernel-version.h || rc=1
checkpatch --ignore "$GENERATOR_IGNORES" -f include/linux/marker.h \
	arch/x86/include/asm/marker.h || rc=1
# the hot paths' patch set, as the patches it is: on stdin (given a path
# inside a git tree, checkpatch reads the patch's context lines as added)
mapfile -t patches < <(git ls-files -co --exclude-standard 'scripts/graft/*.patch')
for p in "${patches[@]}"; do
	out=$(checkpatch - <"$p" 2>&1) || true
	if [ -n "$out" ]; then
		printf '%s\n' "${out//-:/$p:}"
		rc=1
	fi
done

# kernel-doc: the comments Documentation/markers.rst pulls in, and every
# other /** comment of the registry, parsed as the kernel's documentation
# build parses them. -Wall adds the checks of a function's "Return:"
# section, of short descriptions and of text before the sections; -Werror
# makes the warnings its exit status, and any other output (perl's own
# warnings on a comment it misreads) fails too. -none: no document.
mapfile -t kdoc_files < <(git ls-files -co --exclude-standard \
	'kernel/*.c' 'kernel/*.h' 'include/linux/marker*.h' 'arch/*.h' \
	'include/wrapper/*.h' 'scripts/graft/*.c')
if ! out=$("$ks_dir/scripts/kernel-doc" -none -Wall -Werror \
	"${kdoc_files[@]}" 2>&1) || [ -n "$out" ]; then
	printf '%s\n' "$out"
	rc=1
fi

# The API reference: Documentation/ built as the kernel builds its own
# (Documentation/conf.py: its kerneldoc extension, the kernel-doc above),
# -W: a warning fails it. Every function the registry exports must be in
# it, from a kernel-doc directive of Documentation/markers.rst.
rm -rf build/docs
if ! sphinx-build -q -W --keep-going -b html Documentation build/docs; then
	rc=1
else
	mapfile -t exports < <(git ls-files -co --exclude-standard 'kernel/*.c' |
		xargs sed -n 's/^EXPORT_SYMBOL_GPL(\(.*\));$/\1/p')
	for f in "${exports[@]}"; do
		grep -qF "id=\"c.$f\"" build/docs/markers.html ||
			{ echo "style.sh: $f is exported but not in the API reference (Documentation/markers.rst)"; rc=1; }
	done
fi

# Every shell script through shellcheck: the *.sh ones (the sourced
# libraries name their shell in a directive) and any other whose first
# line runs a shell (the guest tests, test.d/*/*.tc, and .ci/run). -x
# follows the sourced files (test.d/functions); warnings and errors
# only, as its style and info notes (SC1091 for a path it cannot
# resolve) do not name bugs.
shebang='^#! *(/usr)?/bin/(env +)?(ba|da)?sh( |$)'
mapfile -t scripts < <(git ls-files -co --exclude-standard |
	while read -r f; do
		[ -f "$f" ] || continue
		first=''
		IFS= read -r first <"$f" || true
		case "$f" in
		*.sh)	echo "$f" ;;
		*)	[[ $first =~ $shebang ]] && echo "$f" ;;
		esac
	done)
shellcheck -S warning -x "${scripts[@]}" || rc=1

[ "$rc" -eq 0 ] &&
	echo "style.sh: checkpatch --strict (${#files[@]} + 2 files, ${#patches[@]} patches), kernel-doc -Wall (${#kdoc_files[@]}), shellcheck -S warning (${#scripts[@]}), API reference (${#exports[@]} exports) clean"
exit "$rc"
