#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# vm.sh - boot a throwaway QEMU guest and run a test payload inside it.
#
# Usage: vm.sh [--kernel VMLINUZ] [--append "extra cmdline"] [--timeout SECS]
#              [--qemu-args "extra QEMU arguments"] [--hostfs]
#              --log LOGFILE --payload DIR
#
# DIR is copied whole to /payload in a busybox initramfs, with the guest
# scripts' libraries (ktap.sh, lib.sh, kernel-bad.sh); the guest runs
# "sh ./run-tests.sh" there and powers off.  The serial console (CRs
# stripped) ends up in LOGFILE; V=1 also streams it to stdout.  Nothing is
# ever loaded into the host kernel.
#
# Kernel: --kernel, else the /boot/vmlinuz-* matching $KDIR (if set), else
# the newest /boot/vmlinuz-*-amd64.
#
# --qemu-args: words added after the default QEMU arguments, split on
# blanks (e.g. "-icount shift=0" for instruction counting, as make bench);
# with an "-accel", it replaces the default "-accel tcg,thread=single".
#
# --hostfs: share the host's root read-only with 9p (virtio), as virtme-ng
# does, so that the guest runs the host's programs (perf, bpftrace,
# trace-cmd) without copying them: the guest kernel's 9p and virtio modules,
# with their dependencies, from /lib/modules/<its release>, go into the
# initramfs (decompressed), and guest-init.sh mounts the share on /host,
# with /proc, /sys, debugfs, tracefs, /dev and a tmpfs /tmp inside it, ready
# for "chroot /host CMD". Modules the kernel has built in are skipped.
#
# Guests run one at a time: a second vm.sh waits for the first
# (flock on MARKERS_GUEST_LOCK, default /tmp/markers-guest.lock).
#
# Exit: the guest's run-tests.sh exit code; 1 if the log shows a crash, a
# warning or no completion sentinel (reason on stderr); 2 on usage errors.

set -euo pipefail

SENTINEL='MARKERS-VM-DONE rc='
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# KERNEL_BAD: what fails the run wherever it appears in the log
# shellcheck source=SCRIPTDIR/kernel-bad.sh
. "$HERE/kernel-bad.sh"

die() { echo "vm.sh: $1" >&2; exit "${2:-1}"; }
usage() { die "usage: vm.sh [--kernel VMLINUZ] [--append CMDLINE] [--timeout SECS] [--qemu-args ARGS] [--hostfs] --log LOGFILE --payload DIR" 2; }

kernel='' append='' timeout=600 log='' payload='' qemu_args='' hostfs=0
while [ $# -gt 0 ]; do
	if [ "$1" = --hostfs ]; then
		hostfs=1
		shift
		continue
	fi
	[ $# -ge 2 ] || usage
	case "$1" in
	--kernel)  kernel=$2 ;;
	--append)  append=$2 ;;
	--timeout) timeout=$2 ;;
	--log)     log=$2 ;;
	--payload) payload=$2 ;;
	--qemu-args) qemu_args=$2 ;;
	*) usage ;;
	esac
	shift 2
done
{ [ -n "$log" ] && [ -d "$payload" ]; } || usage
[ -f "$payload/run-tests.sh" ] || die "$payload/run-tests.sh missing" 2
[[ "$timeout" =~ ^[0-9]+$ ]] || die "bad --timeout '$timeout'" 2

#
# Pick the kernel.  Debian's headers put the upstream version (e.g. 6.1.192)
# in include/config/kernel.release and the package ABI name that /boot uses
# (e.g. 6.1.0-57-amd64, also the modules' vermagic) in utsrelease.h, so try
# both.
#
if [ -z "$kernel" ] && [ -n "${KDIR:-}" ]; then
	for rel in "$(cat "$KDIR/include/config/kernel.release" 2>/dev/null)" \
		   "$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' \
			"$KDIR/include/generated/utsrelease.h" 2>/dev/null)"; do
		if [ -n "$rel" ] && [ -f "/boot/vmlinuz-$rel" ]; then
			kernel=/boot/vmlinuz-$rel
			break
		fi
	done
	[ -n "$kernel" ] || die "no /boot/vmlinuz-* matches KDIR=$KDIR" 2
fi
if [ -z "$kernel" ]; then
	kernel=$(printf '%s\n' /boot/vmlinuz-*-amd64 | sort -V | tail -n 1)
fi
[ -f "$kernel" ] || die "kernel '$kernel' not found" 2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Build the initramfs: busybox + applet links, /init, /payload.
root=$tmp/root
mkdir -p "$root"/{bin,dev,proc,sys,tmp,payload}
cp /bin/busybox "$root/bin/busybox"
for applet in $(/bin/busybox --list); do
	[ "$applet" = busybox ] || ln -s busybox "$root/bin/$applet"
done
ln -s bin "$root/sbin"
install -m 0755 "$HERE/guest-init.sh" "$root/init"
cp -a "$payload/." "$root/payload/"
cp "$HERE/ktap.sh" "$HERE/lib.sh" "$HERE/kernel-bad.sh" "$root/payload/"
# Dynamically linked programs of the payload (markerctl) get the shared
# libraries and the dynamic loader that ldd names, at the same paths.
while IFS= read -r -d '' exe; do
	[ "$(head -c 4 "$exe" | tr -d '\0')" = $'\177ELF' ] || continue
	for lib in $(ldd "$exe" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done < <(find "$payload" -type f -perm -u+x -print0)

# --hostfs: the modules of the 9p share, dependencies first, in the order
# of lib/hostfs/order. The release is the one the image says it is (file
# prints "version 6.1.0-57-amd64 (...)"), else the name's vmlinuz-<release>.
# hostfs_add MODULE: add MODULE after what it depends on, once
hostfs_add() {
	local m=$1 f d

	case " $hostfs_mods " in *" $m "*) return 0 ;; esac
	f=$(modinfo -k "$rel" -n "$m" 2>/dev/null) ||
		die "--hostfs: no module $m for $rel (or built in: neither)"
	[ "$f" = '(builtin)' ] && return 0
	for d in $(modinfo -k "$rel" -F depends "$m" | tr ',' ' '); do
		hostfs_add "$d"
	done
	case "$f" in
	*.ko)     cp "$f" "$root/lib/hostfs/$m.ko" ;;
	*.ko.xz)  xz -dc "$f" >"$root/lib/hostfs/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" >"$root/lib/hostfs/$m.ko" ;;
	*.ko.gz)  gzip -dc "$f" >"$root/lib/hostfs/$m.ko" ;;
	*) die "--hostfs: cannot read $f" ;;
	esac
	hostfs_mods="$hostfs_mods $m"
	echo "$m" >>"$root/lib/hostfs/order"
}
if [ "$hostfs" = 1 ]; then
	rel=$(file -bL "$kernel" | sed -n 's/.*, version \([^ ]*\) .*/\1/p')
	[ -n "$rel" ] || rel=$(basename "$kernel" | sed -n 's/^vmlinuz-//p')
	hostfs_mods=''
	mkdir -p "$root/lib/hostfs" "$root/host"
	: >"$root/lib/hostfs/order"
	if [ -d "/lib/modules/$rel" ]; then
		for m in virtio_pci 9pnet_virtio 9p; do
			hostfs_add "$m"
		done
	else
		echo "vm.sh: --hostfs: no /lib/modules/$rel, assuming 9p is built in" >&2
	fi
fi
(cd "$root" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$tmp/initrd.gz"

# The guest's clock runs with the host's while its emulated CPUs may be
# starved by a busy host: watchdog_thresh=60 (a soft lockup after 120 s)
# keeps a slow vCPU from reading as a locked-up one.
qemu=(timeout -k 10 "$timeout" qemu-system-x86_64
	-machine q35 -cpu max -smp 2 -m 1024 -nographic -no-reboot
	-kernel "$kernel" -initrd "$tmp/initrd.gz"
	-append "console=ttyS0 panic=-1 oops=panic panic_on_warn=1 softlockup_panic=1 watchdog_thresh=60 hung_task_panic=1 loglevel=7 $append")
# One host thread for both vCPUs unless --qemu-args says otherwise: under
# multi-threaded TCG (QEMU 7.2), a vCPU may go on running its stale
# translation of a site that another vCPU has just patched, and loop on an
# int3 that memory no longer holds (each trap backs up over it), which no
# CPU would do. Seen as a soft lockup in the stress boot and as a spinning
# kthread that kthread_stop() waited on for good (6.1 PREEMPT_RT); never
# with thread=single. The vCPUs still interleave, a translation block at a
# time.
case " $qemu_args " in
*" -accel "*)	;;
*)		qemu+=(-accel "tcg,thread=single") ;;
esac
# shellcheck disable=SC2206 # split on purpose: one word an argument
[ -z "$qemu_args" ] || qemu+=($qemu_args)
[ "$hostfs" = 0 ] ||
	qemu+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")

# One guest at a time on the machine, whoever starts it (make check, make
# bench, a stage run by hand): two would share the host's two cores and
# starve each other's vCPUs. The lock goes with this script's exit.
lock=${MARKERS_GUEST_LOCK:-/tmp/markers-guest.lock}
exec 8>>"$lock"
if ! flock -n 8; then
	echo "vm.sh: waiting for the guest that holds $lock" >&2
	flock 8
fi

qrc=0
if [ "${V:-0}" = 1 ]; then
	"${qemu[@]}" </dev/null | tee "$tmp/serial.raw" || qrc=$?
else
	"${qemu[@]}" </dev/null >"$tmp/serial.raw" || qrc=$?
fi
tr -d '\r' <"$tmp/serial.raw" >"$log"

# Judge the log.
if hit=$(grep -n -m 1 -E -- "$KERNEL_BAD" "$log"); then
	die "$log:$hit"
fi
if ! done_line=$(grep -o -m 1 -E "${SENTINEL}[0-9]+" "$log"); then
	[ "$qrc" -eq 124 ] && die "guest timed out after ${timeout}s (no sentinel in $log)"
	die "guest did not finish (qemu rc=$qrc, no sentinel in $log)"
fi
rc=${done_line#"$SENTINEL"}
[ "$rc" -eq 0 ] || echo "vm.sh: guest tests failed (rc=$rc), see $log" >&2
exit "$rc"
