#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# demo-guest.sh - the 2006 scenario, narrated inside the guest (run by
# demo.sh as the payload's run-tests.sh). Each step prints the commands
# it runs and the kernel's own new lines.

# shellcheck source=SCRIPTDIR/ktap.sh
. ./ktap.sh

echo 1 >/proc/sys/kernel/printk	# the kernel's lines are shown by step()
dmesg -c >/dev/null

# step TITLE: print a heading; kernel lines of the previous step first
step() {
	kernel_lines
	echo
	echo "== $*"
}

kernel_lines() {
	dmesg -c | sed -n 's/^\[[ 0-9.]*\] /  kernel: /p'
}

echo "=== demo start"
step "Load the registry and the annotated module (the 2006 test module)"
log_cmd insmod marker.ko
log_cmd insmod marker_example.ko
log_cmd cat /sys/kernel/debug/markers/list

step "Open /proc/testmark: the three markers run disarmed, nothing is printed"
log_cmd cat /proc/testmark

step "Load the probe module: subsys_mark1 is armed (its NOP is now a jump)"
log_cmd insmod probe_example.ko
log_cmd grep subsys_mark1 /sys/kernel/debug/markers/list

step "Open /proc/testmark again: the probe prints the marker's argument"
log_cmd cat /proc/testmark

step "Remove the probe: the site is a NOP again"
log_cmd rmmod probe_example
log_cmd grep subsys_mark1 /sys/kernel/debug/markers/list

step "Open /proc/testmark: nothing is printed"
log_cmd cat /proc/testmark

step "No C code: enable subsys_mark3 with the print action (markerctl)"
log_cmd ./markerctl enable subsys_mark3 --action print
log_cmd cat /proc/testmark

step "The line it printed, from the ftrace instance 'markers' (trace_pipe)"
log_cmd ./markerctl watch --count 1

step "The generic loader, configured at insmod time: count every subsys_* hit"
log_cmd ./markerctl disable subsys_mark3
log_cmd insmod marker_loader.ko 'markers=subsys_*' action=count
log_cmd cat /proc/testmark
log_cmd cat /proc/testmark
log_cmd ./markerctl list
log_cmd rmmod marker_loader
kernel_lines
echo "=== demo end"
