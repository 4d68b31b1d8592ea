#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-init.sh - /init of the markers test guest (busybox sh, PID 1).
#
# Mounts the pseudo filesystems and, when vm.sh --hostfs put the 9p modules
# in /lib/hostfs, the host's root on /host (read-only, with the pseudo
# filesystems and a tmpfs /tmp inside it, for "chroot /host CMD"); runs
# /payload/run-tests.sh, prints the sentinel that vm.sh looks for and powers
# off.  Must never exit: PID 1 exiting panics the guest.

export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing

if [ -f /lib/hostfs/order ]; then
	for m in $(cat /lib/hostfs/order); do
		insmod "/lib/hostfs/$m.ko" || echo "guest-init: insmod $m failed"
	done
	# cache=loose: the guest keeps what it read of the share (perf's
	# and bpftrace's programs and libraries), where cache=none read
	# them again at each start; nothing writes to the share while a
	# guest runs. The tools tests on Debian's 6.1: 182 s -> 70 s.
	if mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose \
		hostroot /host; then
		mount -t proc proc /host/proc
		mount -t sysfs sysfs /host/sys
		mount -t debugfs debugfs /host/sys/kernel/debug
		mount -t tracefs tracefs /host/sys/kernel/tracing
		mount -t devtmpfs devtmpfs /host/dev
		mount -t tmpfs tmpfs /host/tmp
	else
		echo "guest-init: cannot mount the host's root on /host"
	fi
fi

cd /payload || exit 1
rc=0
sh ./run-tests.sh || rc=$?

echo "MARKERS-VM-DONE rc=$rc"
sync
poweroff -f
