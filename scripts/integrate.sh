#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# integrate.sh [--hot-paths] KERNEL_TREE - make the markers part of a
# kernel source tree, so that CONFIG_MARKERS=y builds the registry into
# vmlinux and =m builds marker.ko (see Documentation/markers-intree.rst).
# Written for Debian's linux-source-6.1; the hooks are plain text edits
# that say where they fail.
#
# The tree gets symbolic links to this project's files, never copies (but
# for the text of the jump-label hook, below), so the in-tree and
# out-of-tree forms build the same sources:
#
#   include/**                        -> <project>/include/** (linux/marker.h)
#   arch/x86/include/asm/marker.h     -> <project>/arch/x86/include/asm/...
#   kernel/markers/*.[ch], Kbuild     -> <project>/kernel/
#   kernel/markers/Kconfig.marker     -> <project>/Kconfig.marker
#   samples/markers/*.[ch], Kbuild    -> <project>/samples/markers/
#   Documentation/trace/markers/*.rst -> <project>/Documentation/*.rst
#
# and one hook in each of these files, tagged "markers: integrate.sh":
#
#   init/Kconfig                      source "kernel/markers/Kconfig.marker"
#   kernel/Makefile                   obj-$(CONFIG_MARKERS) += markers/
#   samples/Makefile                  obj-$(CONFIG_SAMPLE_MARKERS) += markers/
#   include/asm-generic/vmlinux.lds.h the __markers and __markers_loc
#                                     sections of vmlinux,
#                                     between __start___markers and
#                                     __stop___markers, in .data
#   Documentation/trace/index.rst     markers/index, after tracepoints
#   include/linux/module.h            struct module: markers, num_markers
#   kernel/module/main.c              the module's __markers section there
#   kernel/jump_label.c               static_key_slow_inc_many(), _dec_many():
#                                     scripts/graft/kernel/jump_label.c,
#                                     inserted between tagged lines
#
# With --hot-paths, also the optional patch set scripts/graft/hot-paths/
# (MARK() on the context switch, file open, bio submission, device transmit
# and page allocation; Documentation/markers-intree.rst), applied with
# patch -p1 --fuzz=0. Without it, a patch set applied before is reversed.
#
# Idempotent: run it again after files are added to the project (links to
# files that are gone are removed) or after the project moves (the links
# follow it).

set -euo pipefail

TAG='markers: integrate.sh'

die() { echo "integrate.sh: $*" >&2; exit 1; }

hot_paths=0
if [ "${1:-}" = --hot-paths ]; then
	hot_paths=1
	shift
fi
[ $# -eq 1 ] || die "usage: integrate.sh [--hot-paths] KERNEL_TREE"
tree=$(cd "$1" && pwd) || die "no directory $1"
project=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

for f in Makefile init/Kconfig kernel/Makefile samples/Makefile \
	 include/asm-generic/vmlinux.lds.h include/linux/module.h \
	 kernel/module/main.c; do
	[ -f "$tree/$f" ] || die "$tree is not a kernel source tree (no $f)"
done

# link_dir SRC_DIR DST_DIR PATTERN... - link SRC_DIR's matching source
# files (not an out-of-tree build's *.mod.c) into DST_DIR, and drop
# DST_DIR's links that point nowhere any more.
link_dir() {
	local src=$1 dst=$2 f
	shift 2
	mkdir -p "$dst"
	for f in "$dst"/*; do
		if [ -L "$f" ] && { [ ! -e "$f" ] || [[ $f == *.mod.c ]]; }; then
			rm -f "$f"
		fi
	done
	for pattern in "$@"; do
		for f in "$src"/$pattern; do
			[ -f "$f" ] && [[ $f != *.mod.c ]] || continue
			ln -sfn "$f" "$dst/$(basename "$f")"
		done
	done
}

# The headers, wherever they are under include/ (linux/marker.h, uapi/...)
# and arch/*/include/ (asm/marker.h), where the tree has them.
(cd "$project" && find include arch -type f -name '*.h') | while read -r h; do
	mkdir -p "$tree/$(dirname "$h")"
	ln -sfn "$project/$h" "$tree/$h"
done

link_dir "$project/kernel" "$tree/kernel/markers" '*.c' '*.h' Kbuild
ln -sfn "$project/Kconfig.marker" "$tree/kernel/markers/Kconfig.marker"
link_dir "$project/samples/markers" "$tree/samples/markers" '*.c' '*.h' Kbuild
# The pages and their API reference: "make htmldocs" builds them as
# Documentation/trace/markers/, with kernel-doc directives that name the
# in-tree paths (kernel/markers/...).
link_dir "$project/Documentation" "$tree/Documentation/trace/markers" '*.rst'

# hooked FILE - is the hook in FILE already?
hooked() {
	grep -q "$TAG" "$tree/$1"
}

# append FILE LINE - add a one-line hook at the end of FILE.
append() {
	hooked "$1" && return 0
	printf '\n# %s\n%s\n' "$TAG" "$2" >>"$tree/$1"
}

append kernel/Makefile 'obj-$(CONFIG_MARKERS) += markers/'
append samples/Makefile 'obj-$(CONFIG_SAMPLE_MARKERS) += markers/'

# init/Kconfig: right after TRACEPOINTS, at the end of "General setup",
# where the 2.6.24 markers option was.
if ! hooked init/Kconfig; then
	grep -q '^config TRACEPOINTS$' "$tree/init/Kconfig" ||
		die "init/Kconfig: no 'config TRACEPOINTS' to put the option after"
	awk -v tag="$TAG" '
		{ print }
		/^config TRACEPOINTS$/ { want = 1; next }
		want && /^\tbool$/ {
			printf "\n# %s\nsource \"kernel/markers/Kconfig.marker\"\n", tag
			want = 0
		}
	' "$tree/init/Kconfig" >"$tree/init/Kconfig.markers-tmp"
	mv "$tree/init/Kconfig.markers-tmp" "$tree/init/Kconfig"
	hooked init/Kconfig || die "init/Kconfig: TRACEPOINTS is not a plain bool"
fi

# The linker script: vmlinux's sites in .data, right after the tracepoints,
# as one array with its bounds (so LD_ORPHAN_WARN has nothing to say).
lds=include/asm-generic/vmlinux.lds.h
if ! hooked "$lds"; then
	grep -q '^	\*(__tracepoints)[[:space:]]*\\$' "$tree/$lds" ||
		die "$lds: no '*(__tracepoints)' line in DATA_DATA to put __markers after"
	awk -v tag="$TAG" '
		{ print }
		/^\t\*\(__tracepoints\)[[:space:]]*\\$/ && !done {
			printf "\t/* %s */\t\t\t\t\t\\\n", tag
			printf "\t. = ALIGN(8);\t\t\t\t\t\t\t\\\n"
			printf "\t__start___markers = .;\t\t\t\t\t\t\\\n"
			printf "\tKEEP(*(__markers))\t\t\t\t\t\t\\\n"
			printf "\t__stop___markers = .;\t\t\t\t\t\t\\\n"
			done = 1
		}
	' "$tree/$lds" >"$tree/$lds.markers-tmp"
	mv "$tree/$lds.markers-tmp" "$tree/$lds"
	hooked "$lds" || die "$lds: could not add __markers"
fi
# ... and the copies of their code (struct marker_loc), after them; also
# into a tree hooked before __markers_loc existed.
if ! grep -q '__start___markers_loc' "$tree/$lds"; then
	awk '
		{ print }
		/^\t__stop___markers = \.;/ && !done {
			printf "\t__start___markers_loc = .;\t\t\t\t\t\\\n"
			printf "\tKEEP(*(__markers_loc))\t\t\t\t\t\t\\\n"
			printf "\t__stop___markers_loc = .;\t\t\t\t\t\\\n"
			done = 1
		}
	' "$tree/$lds" >"$tree/$lds.markers-tmp"
	mv "$tree/$lds.markers-tmp" "$tree/$lds"
	grep -q '__start___markers_loc' "$tree/$lds" ||
		die "$lds: could not add __markers_loc"
fi

# struct module: the module's sites, its __markers section, which the
# loader records as it records __tracepoints_ptrs; the registry's in-tree
# discovery reads them (kernel/marker_core.c). In every tree that carries
# the markers (CONFIG_MARKERS_TREE), so that a module built out of tree
# against it, with the markers or without, sees the kernel's layout.
mh=include/linux/module.h
if ! hooked "$mh"; then
	grep -q '^	tracepoint_ptr_t \*tracepoints_ptrs;$' "$tree/$mh" ||
		die "$mh: no tracepoints_ptrs in struct module to put the markers after"
	awk -v tag="$TAG" '
		{ print }
		/^\ttracepoint_ptr_t \*tracepoints_ptrs;$/ { want = 1; next }
		want && /^#endif$/ {
			printf "#ifdef CONFIG_MARKERS_TREE\t/* %s */\n", tag
			printf "\tunsigned int num_markers;\n"
			printf "\tstruct marker_site *markers;\n"
			printf "#endif\n"
			want = 0
		}
	' "$tree/$mh" >"$tree/$mh.markers-tmp"
	mv "$tree/$mh.markers-tmp" "$tree/$mh"
	hooked "$mh" || die "$mh: could not add the markers to struct module"
fi
mc=kernel/module/main.c
if ! hooked "$mc"; then
	grep -q '^					     &mod->num_tracepoints);$' "$tree/$mc" &&
		grep -q '^#include <linux/moduleloader.h>$' "$tree/$mc" ||
		die "$mc: no __tracepoints_ptrs in find_module_sections() to put __markers after"
	awk -v tag="$TAG" '
		{ print }
		/^#include <linux\/moduleloader.h>$/ {
			printf "#include <linux/marker-defs.h>\t/* %s */\n", tag
		}
		/^\t\t\t\t\t     &mod->num_tracepoints\);$/ { want = 1; next }
		want && /^#endif$/ {
			printf "#ifdef CONFIG_MARKERS_TREE\t/* %s */\n", tag
			printf "\tmod->markers = section_objs(info, \"__markers\",\n"
			printf "\t\t\t\t    sizeof(*mod->markers),\n"
			printf "\t\t\t\t    &mod->num_markers);\n"
			printf "#endif\n"
			want = 0
		}
	' "$tree/$mc" >"$tree/$mc.markers-tmp"
	mv "$tree/$mc.markers-tmp" "$tree/$mc"
	[ "$(grep -c "$TAG" "$tree/$mc")" = 2 ] ||
		die "$mc: could not record __markers in struct module"
fi

# kernel/jump_label.c: static_key_slow_inc_many() and _dec_many(), several
# keys patched in shared batches (scripts/graft/kernel/jump_label.c, its
# text between two tagged lines before __jump_label_update()), and the
# batching __jump_label_update()'s call of jump_label_many_add(). The text
# is replaced when the project's changes; the file is left untouched (its
# time too, so nothing rebuilds) when it is the same.
jl=kernel/jump_label.c
if ! grep -q "$TAG" "$tree/$jl"; then
	grep -q '^#ifndef HAVE_JUMP_LABEL_BATCH$' "$tree/$jl" &&
		grep -q '^		if (!arch_jump_label_transform_queue(entry, jump_label_type(entry))) {$' "$tree/$jl" ||
		die "$jl: no batching __jump_label_update() to add the batches of several keys to"
fi
awk -v tag="$TAG" -v text="$project/scripts/graft/$jl" '
	$0 == "/* " tag " begin */" { skip = 1; next }
	$0 == "/* " tag " end */" { skip = 0; next }
	skip { next }
	/^#ifndef HAVE_JUMP_LABEL_BATCH$/ && !done {
		print "/* " tag " begin */"
		while ((getline line < text) > 0)
			if (line !~ /^\/\/ SPDX-License-Identifier/)
				print line
		print "/* " tag " end */"
		done = 1
	}
	/^\t\tif \(jump_label_many_add\(entry\)\)/ { getline; getline; next }
	/^\t\tif \(!arch_jump_label_transform_queue\(entry, jump_label_type\(entry\)\)\) \{$/ {
		printf "\t\tif (jump_label_many_add(entry))\t/* %s */\n", tag
		print "\t\t\tcontinue;"
		print ""
	}
	{ print }
' "$tree/$jl" >"$tree/$jl.markers-tmp"
if cmp -s "$tree/$jl" "$tree/$jl.markers-tmp"; then
	rm -f "$tree/$jl.markers-tmp"
else
	mv "$tree/$jl.markers-tmp" "$tree/$jl"
fi
[ "$(grep -c "$TAG" "$tree/$jl")" = 3 ] ||
	die "$jl: could not add the batches of several keys"

# Documentation/trace/index.rst: the pages in the toctree, after the
# tracepoints' (the first toctree line that names them).
idx=Documentation/trace/index.rst
if ! grep -q '^   markers/index$' "$tree/$idx"; then
	grep -q '^   tracepoints$' "$tree/$idx" ||
		die "$idx: no '   tracepoints' entry to put markers/index after"
	awk '
		{ print }
		/^   tracepoints$/ && !done { print "   markers/index"; done = 1 }
	' "$tree/$idx" >"$tree/$idx.markers-tmp"
	mv "$tree/$idx.markers-tmp" "$tree/$idx"
fi

# The hot paths' patch set. The tree keeps a copy of each patch it has
# applied (.markers-hot-paths/), and a patch that is no longer wanted, or
# whose text changed, is reversed with that copy first; a patch applied
# as it is now is left alone, and so are its files' times.
applied=$tree/.markers-hot-paths
mkdir -p "$applied"
for p in "$applied"/*.patch; do
	[ -f "$p" ] || continue
	want=$project/scripts/graft/hot-paths/$(basename "$p")
	if [ "$hot_paths" = 1 ] && cmp -s "$p" "$want"; then
		continue
	fi
	# all its hunks or none, as it was applied
	patch -d "$tree" -p1 -R --fuzz=0 -s --dry-run <"$p" >/dev/null &&
		patch -d "$tree" -p1 -R --fuzz=0 -s <"$p" ||
		die "$(basename "$p"): could not reverse the patch as applied"
	rm -f "$p"
done
if [ "$hot_paths" = 1 ]; then
	for p in "$project"/scripts/graft/hot-paths/*.patch; do
		[ -f "$applied/$(basename "$p")" ] && continue
		# all its hunks or none
		patch -d "$tree" -p1 --fuzz=0 -s --dry-run <"$p" >/dev/null &&
			patch -d "$tree" -p1 --fuzz=0 -s <"$p" ||
			die "$(basename "$p") does not apply to $tree"
		cp "$p" "$applied/"
	done
fi

echo "integrate.sh: $tree now builds the markers of $project (CONFIG_MARKERS)"
