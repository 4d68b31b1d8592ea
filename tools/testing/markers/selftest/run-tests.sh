#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Self-check of the markers QEMU rig (no modules): run with
#	tools/testing/markers/vm.sh --log /tmp/rig.log \
#		--payload tools/testing/markers/selftest

# shellcheck source=SCRIPTDIR/../ktap.sh
. ./ktap.sh

ktap_print_header
ktap_set_plan 2

if grep -q ' T start_kernel$' /proc/kallsyms; then
	ktap_test_pass "kallsyms readable"
else
	ktap_test_fail "kallsyms readable"
fi

if grep -q ' /sys/kernel/debug debugfs ' /proc/mounts &&
   [ -e /sys/kernel/tracing/kprobe_events ]; then
	ktap_test_pass "debugfs and tracefs mounted"
else
	ktap_test_fail "debugfs and tracefs mounted"
fi

ktap_finished
