#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# check-sites.sh MODE MODULE.ko... - what the disarmed sites compile to,
# read from the built modules with objdump. Prints "OK|FAIL description"
# lines for check.sh.
#
# portable: every load from a site descriptor is followed by a compare
# and a conditional branch: the disarmed path is one load, a compare and a
# branch, with no indirect branch. (The armed path's load of ->funcs has
# the same shape.) near-zero: the code at every jump-table entry of a
# site's key is a 2- or 5-byte NOP, as objtool left it (the guest checks
# the bytes again after the module loader).
#
# Both modes: the helpers that build the generic probes' argument array
# read no stack-protector canary, __marker_call_generic_<n>(), which
# every __marker_call_all_<n>() reaches for one generic probe alone, is a
# straight line with one call, and no helper is traced (notrace: no
# __fentry__ call, one instruction a fire).
#
# The registry (marker.ko): the trace events' typed probes, which a site's
# trampoline may reach (marker_event_ftrace_<n>, marker_event_perf_<n>),
# are not traced either, as a TRACE_EVENT's probe is not.

set -euo pipefail

# registry KO: the registry's functions that sites call directly
registry() {
	local ko=$1 report nr bad

	report=$(objdump -dr --no-show-raw-insn "$ko" | awk '
		/^[0-9a-f]+ <marker_event_(ftrace|perf)_[0-9]+>:/ {
			fn = $2; sub(/^</, "", fn); sub(/>.*/, "", fn)
			n[fn]++; next
		}
		/^$/ { fn = ""; next }
		fn == "" { next }
		/R_X86_64_[A-Z0-9]+\t__fentry__/ { traced[fn]++ }
		END { for (f in n) printf "%s %d\n", f, traced[f] + 0 }')
	nr=$(grep -c '^marker_event_ftrace_' <<<"$report" || true)
	bad=$(awk '$2 { printf " %s: traced (calls __fentry__);", $1 }' <<<"$report")
	[ "$nr" -eq 11 ] || bad="$bad $nr marker_event_ftrace_<n>, not 11;"
	if [ -z "$bad" ]; then
		echo "OK registry: $(basename "$ko" .ko): the events' typed probes are not traced"
	else
		echo "FAIL registry: $(basename "$ko" .ko):$bad"
	fi
}

mode=$1
shift
for ko in "$@"; do
	name=$(basename "$ko" .ko)
	if nm "$ko" | grep -q ' [tT] marker_event_ftrace_0$'; then
		registry "$ko"
	fi
	sites=$(nm "$ko" | grep -c ' [dD] __marker_site_' || true)
	[ "$sites" -gt 0 ] || continue
	# Each instruction that reads a site's descriptor (a relocation
	# against __markers), with the two that follow it.
	report=$(objdump -dr --no-show-raw-insn "$ko" | awk '
		/^ *[0-9a-f]+:\t/ {
			if (want) { printf " | %s", $0; if (--want == 0) print "" }
			cur = $0; next
		}
		/R_X86_64_PC32\t__markers\+/ { printf "LOAD %s", cur; want = 2 }
	' | tr -s ' \t' ' ')
	loads=$(grep -c '^LOAD' <<<"$report" || true)
	# one load, then: cmp+jcc, or mov into a register, test/cmp, jcc
	bad=$(grep '^LOAD' <<<"$report" | grep -vcE \
		'^LOAD [0-9a-f]+: cmp[bwlq]? [^|]* \| [0-9a-f]+: j[a-z]+ |^LOAD [0-9a-f]+: mov[bwlq]? [^|]*\| [0-9a-f]+: (test|cmp)[bwlq]? [^|]* \| [0-9a-f]+: j[a-z]+ ' || true)
	bad=$((bad + $(grep -cE '\| [0-9a-f]+: jmp ' <<<"$report" || true)))
	if [ "$mode" = portable ]; then
		if [ "$loads" -ge "$sites" ] && [ "$bad" -eq 0 ]; then
			echo "OK $mode: $name: $sites sites, each load of a site is compared and branched on conditionally ($loads loads)"
		else
			echo "FAIL $mode: $name: $sites sites, $loads loads, $bad not followed by a compare and a jcc"
			echo "$report" >&2
		fi
	else
		# The jump-table entries of the sites' keys (code, target and
		# key relocations, 16 bytes an entry): their code must be NOPs.
		nops=0 others=''
		while read -r sec off; do
			hex=$(objdump -s -j "$sec" --start-address=$((off)) \
				--stop-address=$((off + 5)) "$ko" |
				awk '/^ [0-9a-f]+ / { print $2 $3 }')
			case "$hex" in
			6690*|0f1f440000*) nops=$((nops + 1)) ;;
			*) others="$others $sec+$off:$hex" ;;
			esac
		done < <(objdump -r -j __jump_table "$ko" | awk '
			$2 == "R_X86_64_PC32" && $1 ~ /0$/ { split($3, c, "+"); code = c[1] " " c[2] }
			$2 == "R_X86_64_PC64" && $3 ~ /^__marker_key_/ { print code }
		')
		if [ "$nops" -ge "$sites" ] && [ -z "$others" ]; then
			echo "OK $mode: $name: $sites sites, each disarmed site a single NOP ($nops patchable locations)"
		else
			echo "FAIL $mode: $name: $sites sites, $nops NOPs, not NOPs:$others"
		fi
	fi
	# The helpers, one block a function (GCC may clone one as .constprop)
	helpers=$(objdump -dr --no-show-raw-insn "$ko" | awk '
		/^[0-9a-f]+ <__marker_call_(all|array|generic|typed)_[0-9]+[.>]/ {
			fn = $2; sub(/^</, "", fn); sub(/[.>].*/, "", fn)
			n[fn]++; next
		}
		/^$/ { fn = ""; next }
		fn == "" { next }
		/%gs:0x28/ { canary[fn]++ }
		/R_X86_64_[A-Z0-9]+\t__fentry__/ { traced[fn]++; calls[fn]-- }
		/\tcall / { calls[fn]++ }
		/\tj[a-z]+ / && !/\tjmp / && !/__x86_return_thunk/ { jcc[fn]++ }
		END {
			for (f in n)
				printf "%s %d %d %d %d %d\n", f, n[f], canary[f] + 0,
					calls[f] + 0, jcc[f] + 0, traced[f] + 0
		}')
	bad=''
	while read -r fn nr canary calls jcc traced; do
		[ -n "$fn" ] || continue	# no helper: inline sites only
		case "$fn" in
		__marker_call_all_*)
			grep -q "^__marker_call_generic_${fn##*_} " <<<"$helpers" ||
				bad="$bad $fn: no __marker_call_generic_${fn##*_} beside it;"
			;;
		__marker_call_generic_*)
			[ "$calls" -eq "$nr" ] && [ "$jcc" -eq 0 ] ||
				bad="$bad $fn: $calls calls, $jcc conditional branches in $nr copies;"
			;;
		esac
		[ "$canary" -eq 0 ] || bad="$bad $fn: reads the canary;"
		[ "$traced" -eq 0 ] || bad="$bad $fn: traced (calls __fentry__);"
	done <<<"$helpers"
	if [ -z "$helpers" ]; then
		:
	elif [ -z "$bad" ]; then
		echo "OK $mode: $name: the argument array's helpers read no canary, one generic probe alone is called without a loop, no helper is traced"
	else
		echo "FAIL $mode: $name:$bad"
	fi
done
