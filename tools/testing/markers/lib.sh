# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# lib.sh - the helpers that several of the rig's scripts share, in POSIX sh:
# busybox sh runs it in the guest, where vm.sh copies it into every payload
# beside ktap.sh, and bash on the host. Sourced:
#
#	. ./lib.sh			in the guest (after ./ktap.sh)
#	. "$here/lib.sh"		on the host

# fail MSG: why a guest test failed, as a KTAP diagnostic line ("# MSG");
# returns 1, so that "[ ... ] || fail MSG" fails the test (ktap.sh's
# ktap_print_msg). For run-tests.sh, its tests-*.sh, builtin-guest.sh and
# debug-guest.sh.
fail() {
	ktap_print_msg "$*"
	return 1
}

# result OK|FAIL DESCRIPTION: one host result line, "ok - DESCRIPTION" or
# "not ok - DESCRIPTION", counted in the caller's $pass or $fail. For
# check.sh and intree.sh.
result() {
	if [ "$1" = OK ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}
