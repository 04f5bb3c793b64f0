#!/usr/bin/env bash
# campsim reproduce: the LPC-EGEE study lands inside its fixed bands (when the trace is here),
# an experiment prints the same figures twice (fixed seeds), and an unknown name is refused.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
traces=${TRACE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/traces}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi; }

if [ -f "$traces/LPC-EGEE-2004-1.2-cln.swf.gz" ]; then
	CAMPSIM_TRACE_DIR=$traces "$campsim" reproduce lpc-egee >"$work/lpc.txt"
	status=$?
	cat "$work/lpc.txt"
	check "reproduce lpc-egee passes its bands (exit 0)" test "$status" -eq 0
	check "it counts the thesis's 55 users" grep -q ' campaigns from 55 users' "$work/lpc.txt"
else
	echo "skipped: $traces/LPC-EGEE-2004-1.2-cln.swf.gz absent"
fi

figures() { "$campsim" reproduce faircamp-zipf --instances 2 | grep -E '^  k = |^k=' ; }
figures >"$work/first.txt"
figures >"$work/second.txt"
check "faircamp-zipf prints figures for every k" test "$(grep -c '^  k = ' "$work/first.txt")" -eq 5
check "the same fixed seeds give the same figures" cmp -s "$work/first.txt" "$work/second.txt"
! "$campsim" reproduce nonsense >/dev/null 2>"$work/err"
check "an unknown experiment is refused by name" grep -q "unknown experiment 'nonsense'" "$work/err"
exit "$failures"
