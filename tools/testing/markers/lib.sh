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
# ktap_print_msg). For run-tests.sh, its test.d/, builtin-guest.sh and
# debug-guest.sh.
fail() {
	ktap_print_msg "$*"
	return 1
}

# The registry's listing, $LIST (markers/list) in the guest scripts that
# set it: test.d/functions, builtin-guest.sh and hot-paths-guest.sh.

# A near-zero site's patched bytes (the listing's code column, one entry a
# copy of the site) as NOPs, as jumps
NOPS='^(6690|0f1f440000)(,(6690|0f1f440000))*$'
JMPS='^(eb..|e9........)(,(eb..|e9........))*$'

is_nop() {
	echo "$1" | grep -qE "$NOPS"
}

is_jmp() {
	echo "$1" | grep -qE "$JMPS"
}

# site NAME MODULE: the listing lines of NAME's sites in MODULE ("kernel":
# vmlinux)
site() {
	grep "^$1 $2 " "$LIST"
}

# colnum NAME: the number of the listing's field under NAME in its header
colnum() {
	awk -v name="$1" '{
		for (i = 1; i <= NF; i++)
			if ($i != "#" && ++n && $i == name)
				print n
		exit
	}' "$LIST"
}

# col NAME LINE...: the field under NAME of each listing line in LINE
col() {
	echo "$2" | awk -v n="$(colnum "$1")" '{ print $n }'
}

# result OK|FAIL DESCRIPTION: one host result line, "ok - DESCRIPTION" or
# "not ok - DESCRIPTION", counted in the caller's $pass or $fail. For
# check.sh, intree.sh and tools/markerctl/selftest.sh.
result() {
	if [ "$1" = OK ]; then
		pass=$((pass + 1))
		echo "ok - $2"
	else
		fail=$((fail + 1))
		echo "not ok - $2"
	fi
}

# guest_results PREFIX LOG VM_RC VM_ERR DESCRIPTION: the results of a boot
# of vm.sh whose console is in LOG: one per KTAP "ok N"/"not ok N" line of
# LOG, PREFIX before its description, then DESCRIPTION's own: OK if vm.sh
# exited VM_RC 0, else its verdict (VM_ERR, its stderr) as comments first.
# For check.sh and intree.sh.
guest_results() {
	while read -r tap_line; do
		case "$tap_line" in
		"ok "*)		result OK "$1${tap_line#ok [0-9]* }" ;;
		"not ok "*)	result FAIL "$1${tap_line#not ok [0-9]* }" ;;
		esac
	done <<EOF
$(grep -E '^(not )?ok [0-9]+ ' "$2" || true)
EOF
	if [ "$3" -eq 0 ]; then
		result OK "$5"
	else
		sed 's/^/# /' "$4"
		result FAIL "$5 (see $2)"
	fi
}
