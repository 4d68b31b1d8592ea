#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# fresh-root.sh - the README's path from nothing: a minimal Debian 12 root
# (debootstrap --variant=minbase), only make and git installed in it, a
# clean clone of this repository's HEAD, and "make demo" run there as root
# in a chroot, exactly as the README says. Run by .ci/run before make check.
#
# Usage: fresh-root.sh [TARGET...]	(make targets, default: demo)
#
# The root is a temporary directory under MARKERS_CACHE (default
# /var/cache/markers, outside the clone), removed at the end. It gets the
# host's apt sources and the apt.conf.d files that set Acquire:: options
# (a proxy, for one); the host's /var/cache/apt/archives is its package
# cache, so nothing is downloaded twice, but every package is installed
# from nothing. The clone is of HEAD: commit what you want tested.
#
# Prints "ok - fresh root: make TARGET..." or "not ok - ...", and the time
# taken; exits nonzero on failure. Logs in build/fresh-root/.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=$top/build/fresh-root
cache=${MARKERS_CACHE:-/var/cache/markers}
suite=bookworm
targets=("${@:-demo}")
desc="fresh root: make ${targets[*]}"
start=$(date +%s)

root=''
mounts=()

say() { echo "# fresh-root: $*"; }

# fail WHAT [LOG]: the reason, the log's tail, the result line
fail() {
	echo "not ok - $desc: $1"
	[ -z "${2:-}" ] || tail -n 40 "$2" | sed 's/^/# /'
	say "took $(($(date +%s) - start)) s"
	exit 1
}

# The processes still running in the root, the mounts in reverse order,
# then the root itself; only once nothing is mounted under it any more.
cleanup() {
	local i pid busy
	trap '' INT TERM	# a signal now would stop the cleanup half-way
	[ -n "$root" ] || return 0
	for pid in /proc/[0-9]*; do
		[ "$(readlink "$pid/root" 2>/dev/null)" = "$root" ] &&
			kill -KILL "${pid#/proc/}" 2>/dev/null
	done
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" ||
			echo "fresh-root: cannot unmount ${mounts[i]}" >&2
	done
	busy=$(awk -v r="$root/" 'index($2 "/", r) == 1 { print $2 }' /proc/mounts)
	if [ -n "$busy" ]; then
		echo "fresh-root: still mounted, $root left in place: $busy" >&2
		return 0
	fi
	rm -rf --one-file-system "$root"
}
trap cleanup EXIT
trap 'fail "line $LINENO: $BASH_COMMAND"' ERR
trap 'exit 130' INT
trap 'exit 143' TERM

# mnt ARGS... TARGET: mount, and remember TARGET for cleanup
mnt() {
	mount "$@"
	mounts+=("${*: -1}")
}

# in_root COMMAND: run COMMAND with bash in the root, as a fresh login would,
# with none of this shell's environment (no KDIR, no MAKEFLAGS)
in_root() {
	chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

[ "$(id -u)" -eq 0 ] || { echo "fresh-root.sh: run as root" >&2; exit 2; }
if ! command -v debootstrap >/dev/null; then
	say "installing debootstrap"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
fi
mkdir -p "$out" "$cache"
rm -f "$out"/*.log

# The host's mirror (the first URI of its sources), as debootstrap's.
mirror=$(sed -n -e 's/^URIs: *\([^ ]*\).*/\1/p' \
		-e 's/^deb \(\[[^]]*\] \)\?\([^ ]*\).*/\2/p' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources 2>/dev/null |
	 grep -v -m 1 security) || true
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d "$cache/fresh-root.XXXXXX")
chmod 0755 "$root"	# as a root directory is; apt downloads as _apt
t=$(date +%s)
debootstrap --variant=minbase --cache-dir=/var/cache/apt/archives \
	"$suite" "$root" "$mirror" >"$out/debootstrap.log" 2>&1 ||
	fail "debootstrap $suite $mirror" "$out/debootstrap.log"
say "debootstrap --variant=minbase $suite: $(($(date +%s) - t)) s"

# How the host reaches the mirror, and nothing else of its configuration.
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
	 /etc/apt/sources.list.d/*.sources /etc/apt/trusted.gpg.d/* \
	 /etc/apt/keyrings/*; do
	[ -f "$f" ] && install -D -m 0644 "$f" "$root$f"
done
for f in /etc/apt/apt.conf.d/*; do
	grep -qs '^[[:space:]]*Acquire' "$f" && install -m 0644 "$f" "$root$f"
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# No daemon started by a package script outlives the chroot.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

mnt -t proc proc "$root/proc"
mnt --bind /sys "$root/sys"
mnt --bind /dev "$root/dev"
mnt --bind /dev/pts "$root/dev/pts"
mnt --bind /var/cache/apt/archives "$root/var/cache/apt/archives"

t=$(date +%s)
in_root 'apt-get update -qq &&
	 DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends make git >/dev/null' \
	>"$out/prereq.log" 2>&1 || fail "apt-get install make git" "$out/prereq.log"
say "apt-get install make git: $(($(date +%s) - t)) s"

# A clean clone of HEAD (and of its branch, to check that out).
refs=(HEAD)
if branch=$(git -C "$top" symbolic-ref -q HEAD); then
	refs+=("$branch")
fi
git -C "$top" bundle create "$root/tmp/markers.bundle" "${refs[@]}" \
	>"$out/clone.log" 2>&1 || fail "git bundle" "$out/clone.log"
in_root 'git clone -q /tmp/markers.bundle /root/markers' >>"$out/clone.log" 2>&1 ||
	fail "git clone" "$out/clone.log"
say "cloned $(git -C "$top" log -1 --format='%h %s')"

t=$(date +%s)
log=$out/make-$(IFS=-; echo "${targets[*]}").log
if ! in_root "cd /root/markers && make ${targets[*]}" >"$log" 2>&1; then
	say "make ${targets[*]}: $(($(date +%s) - t)) s"
	fail "make ${targets[*]} failed (see $log)" "$log"
fi
say "make ${targets[*]}: $(($(date +%s) - t)) s"
echo "ok - $desc"
say "took $(($(date +%s) - start)) s"
