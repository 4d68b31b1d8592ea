#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# deps.sh - install the Debian packages the build and the test rig need.
# Idempotent: installs only what is missing (as root, or it says what to do).

set -euo pipefail

PKGS=(
	make gcc binutils libc6-dev		# the build
	libkmod-dev pkg-config			# markerctl
	linux-headers-amd64			# KDIR
	linux-image-amd64			# the guest kernel
	qemu-system-x86 busybox-static cpio gzip # the rig
	linux-source-6.1 xz-utils perl		# checkpatch.pl
	gnuplot-nox python3			# make bench: the chart, the report
	bc bison flex libelf-dev libssl-dev ccache dkms # intree.sh
)

missing=()
for p in "${PKGS[@]}"; do
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
