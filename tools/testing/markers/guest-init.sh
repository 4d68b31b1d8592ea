#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# guest-init.sh - /init of the markers test guest (busybox sh, PID 1).
#
# Mounts the pseudo filesystems, runs /payload/run-tests.sh, prints the
# sentinel that vm.sh looks for and powers off.  Must never exit: PID 1
# exiting panics the guest.

export PATH=/bin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing

cd /payload || exit 1
rc=0
sh ./run-tests.sh || rc=$?

echo "MARKERS-VM-DONE rc=$rc"
sync
poweroff -f
