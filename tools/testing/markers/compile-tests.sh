#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# compile-tests.sh - what the compiler must accept and refuse, built as
# throwaway modules against KDIR. Prints "OK|FAIL description" lines for
# check.sh.
#
#   - MARK() with a format that does not match its arguments: refused
#   - MARK() with a structure argument: refused
#   - MARKER_PROBE() whose function does not take the declared types: refused
#   - out of tree without markers.kbuild (no CONFIG_MARKERS_MODULE):
#     refused, with the line to add, rather than compiled away
#   - markers off in a tree that carries them (CONFIG_MARKERS_TREE, no
#     CONFIG_MARKERS), or out of tree with MARKERS_DISABLE: builds, with no
#     site, no key, no kprobe symbol, and the format still checked

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$top/build/compile-tests
: "${KDIR:?KDIR must be set (the top-level Makefile exports it)}"

# build NAME CFLAGS BODY: a module whose init runs BODY; its output in $out/NAME.log
build() {
	local dir=$out/$1

	rm -rf "$dir"
	mkdir -p "$dir"
	cat >"$dir/t.c" <<EOC
#include <linux/marker.h>
#include <linux/module.h>
struct pair { int a, b; };
static int x = 1;
static void __maybe_unused probe_int(void *data, int v) { }
$3
static int __init t_init(void) { t_body(); return 0; }
module_init(t_init);
MODULE_LICENSE("GPL");
EOC
	echo "obj-m += t.o" >"$dir/Kbuild"
	echo "ccflags-y += -I$top/include -I$top/arch/x86/include $2" >>"$dir/Kbuild"
	make -C "$KDIR" M="$dir" modules >"$dir.log" 2>&1
}

# refused NAME PATTERN CFLAGS BODY: the build fails with PATTERN in its errors
refused() {
	if build "$1" "$3" "$4"; then
		echo "FAIL compile: $1: accepted"
	elif grep -q "$2" "$out/$1.log"; then
		echo "OK compile: $1: refused ($2)"
	else
		echo "FAIL compile: $1: refused, but not for '$2' (see $out/$1.log)"
	fi
}

on=-DCONFIG_MARKERS_MODULE=1
mkdir -p "$out"

refused bad_format "expects argument of type .char \*., but argument 2 has type .int." "$on -Werror=format" \
	'static void t_body(void) { MARK(t_mark, "%s", x); }'
refused struct_argument 'aggregate value used where an integer was expected' "$on" \
	'static void t_body(void) { struct pair p = { 1, 2 }; MARK(t_mark, "%p", p); }'
refused probe_type 'negative width in bit-field' "$on" \
	'static struct marker_probe p = MARKER_PROBE(t_mark, probe_int, NULL, long);
	 static void t_body(void) { marker_probe_register(&p); }'
refused off_format_checked "expects argument of type .char \*., but argument 2 has type .int." \
	"-DCONFIG_MARKERS_TREE=1 -Werror=format" \
	'static void t_body(void) { MARK(t_mark, "%s", x); }'
refused out_of_tree_without_fragment "include /usr/src/markers/markers.kbuild" "" \
	'static void t_body(void) { MARK(t_mark, "%d", x); }'

# off_empty NAME CFLAGS: MARK() compiles to nothing
off_empty() {
	if build "$1" "$2" 'static void t_body(void) { MARK(t_mark, "%d", x++); }'; then
		ko=$out/$1/t.ko
		if objdump -h "$ko" | grep -qE '__markers|__jump_table|static_call' ||
		   nm "$ko" | grep -qE '__marker_|__mark_kprobe'; then
			echo "FAIL compile: $1: $ko still has marker sections or symbols"
		elif objdump -dr "$ko" | grep -q 'R_X86_64_PC32	\.data'; then
			echo "FAIL compile: $1: x++ was evaluated (a reference to x in the code)"
		else
			echo "OK compile: $1: no site, no key, no symbol, arguments not evaluated"
		fi
	else
		echo "FAIL compile: $1: does not build (see $out/$1.log)"
	fi
}

off_empty off_in_tree -DCONFIG_MARKERS_TREE=1
off_empty off_disabled -DMARKERS_DISABLE
