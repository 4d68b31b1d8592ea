# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
#
# ktap.sh - minimal KTAP helpers for guest test scripts, kselftest style.
#
# Source it from busybox sh:
#
#	. ./ktap.sh
#	ktap_print_header
#	ktap_set_plan 2
#	ktap_test_pass "first"
#	ktap_test_skip "second"
#	ktap_finished		# prints "1 passed, 0 failed, 1 skipped", exits
#
# ktap_finished exits 0 if every planned test passed or was skipped, else 1.

KTAP_TESTNO=0
KTAP_PLAN=0
KTAP_CNT_PASS=0
KTAP_CNT_FAIL=0
KTAP_CNT_SKIP=0

ktap_print_header() {
	echo "TAP version 13"
}

ktap_set_plan() {
	KTAP_PLAN=$1
	echo "1..$1"
}

ktap_print_msg() {
	echo "# $*"
}

ktap_test_pass() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_PASS=$((KTAP_CNT_PASS + 1))
	echo "ok $KTAP_TESTNO $1"
}

ktap_test_fail() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_FAIL=$((KTAP_CNT_FAIL + 1))
	echo "not ok $KTAP_TESTNO $1"
}

ktap_test_skip() {
	KTAP_TESTNO=$((KTAP_TESTNO + 1))
	KTAP_CNT_SKIP=$((KTAP_CNT_SKIP + 1))
	echo "ok $KTAP_TESTNO $1 # SKIP"
}

ktap_finished() {
	if [ "$KTAP_TESTNO" -ne "$KTAP_PLAN" ]; then
		ktap_print_msg "planned $KTAP_PLAN tests but ran $KTAP_TESTNO"
	fi
	if [ "$KTAP_CNT_SKIP" -gt 0 ]; then
		echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed, $KTAP_CNT_SKIP skipped"
	else
		echo "$KTAP_CNT_PASS passed, $KTAP_CNT_FAIL failed"
	fi
	[ "$KTAP_CNT_FAIL" -eq 0 ] && [ "$KTAP_TESTNO" -eq "$KTAP_PLAN" ]
	exit $?
}

# Print "% CMD..." and run it, for golden transcripts; returns its status.
log_cmd() {
	echo "% $*"
	"$@"
}
