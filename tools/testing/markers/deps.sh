#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh - install the Debian packages a make target needs.
#
# Usage: deps.sh demo|check|bench|style
#
# Run by the top-level Makefile before the target's scripts, so a fresh
# Debian 12 machine needs only make (and root). Idempotent and silent when
# nothing is missing; installs only what is (as root, or it says what to do).

set -euo pipefail

# The modules and markerctl, against Debian's linux-headers-amd64 (the
# Makefile's default KDIR).
BUILD=(
	make gcc binutils libc6-dev		# the build
	libkmod-dev libjson-c-dev pkg-config	# markerctl
	linux-headers-amd64			# KDIR
)
# vm.sh: the guest kernel, QEMU, the busybox initramfs.
RIG=(
	linux-image-amd64
	qemu-system-x86 busybox-static cpio gzip
)
CHECK=(
	linux-headers-rt-amd64 linux-image-rt-amd64	# the kernel matrix
	linux-headers-6.12-amd64 linux-image-6.12-amd64
	linux-perf trace-cmd bpftrace		# the guest tools
	linux-source-6.1 linux-source-6.12	# intree.sh: the kernel trees
	xz-utils perl
	bc bison flex libelf-dev libssl-dev ccache dkms python3 git
	sparse					# check.sh: C=2
)
BENCH=(
	gnuplot-nox python3			# the chart, the report
	linux-source-6.1 xz-utils perl		# intree.sh: the in-tree kernel
	bc bison flex libelf-dev libssl-dev ccache git
)
STYLE=(
	linux-source-6.12 xz-utils perl		# checkpatch.pl, kernel-doc
	shellcheck git python3-sphinx
)

case "${1:-}" in
demo)	pkgs=("${BUILD[@]}" "${RIG[@]}") ;;
check)	pkgs=("${BUILD[@]}" "${RIG[@]}" "${CHECK[@]}" "${STYLE[@]}") ;;
style)	pkgs=("${STYLE[@]}") ;;
bench)	pkgs=("${BUILD[@]}" "${RIG[@]}" "${BENCH[@]}") ;;
*)	echo "usage: deps.sh demo|check|bench|style" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	echo "deps.sh: missing packages: ${missing[*]}; run as root or: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps.sh: installing ${missing[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
