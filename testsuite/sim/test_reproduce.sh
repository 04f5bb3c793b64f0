#!/usr/bin/env bash
# campsim reproduce: the LPC-EGEE study, on the repository's copy of the trace found with no
# directory given, lands inside its fixed bands; an experiment prints the same figures twice
# (fixed seeds); a missing trace and an unknown name are refused by name.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, finish

# The trace is in the repository (data/traces): campsim finds it with no directory given, from
# the build tree (the source tree's copy) or installed ($(pkgdatadir)/traces).
env -u CAMPSIM_TRACE_DIR "$campsim" reproduce lpc-egee >"$work/lpc.txt"
status=$?
cat "$work/lpc.txt"
check "reproduce lpc-egee passes its bands (exit 0)" test "$status" -eq 0
check "it counts the thesis's 55 users" grep -q ' campaigns from 55 users' "$work/lpc.txt"
check "it found the trace without CAMPSIM_TRACE_DIR" \
	grep -qE '^setup: trace .*/(data|share/slurm-campaign)/traces/LPC-EGEE-2004-1.2-cln.swf.gz:' "$work/lpc.txt"
! CAMPSIM_TRACE_DIR=$work/nowhere "$campsim" reproduce lpc-egee >/dev/null 2>"$work/err"
check "a missing trace is named with the directory looked in" grep -q "not found in $work/nowhere" "$work/err"

figures() { "$campsim" reproduce faircamp-zipf --instances 2 | grep -E '^  k = |^k=' ; }
figures >"$work/first.txt"
figures >"$work/second.txt"
check "faircamp-zipf prints figures for every k" test "$(grep -c '^  k = ' "$work/first.txt")" -eq 5
check "each k's checked figure is the max user mean campaign stretch, FCFS job-level against FairCamp job by job" \
	test "$(grep -c '^  k = .*: max user mean campaign stretch FCFS .*, checked)' "$work/first.txt")" -eq 5
check "the bands check that reading" \
	test "$(grep -c '^k=[0-9]* FCFS/FairCamp max user mean campaign stretch ' "$work/first.txt")" -eq 5
check "the same fixed seeds give the same figures" cmp -s "$work/first.txt" "$work/second.txt"
! "$campsim" reproduce nonsense >/dev/null 2>"$work/err"
check "an unknown experiment is refused by name" grep -q "unknown experiment 'nonsense'" "$work/err"
finish
