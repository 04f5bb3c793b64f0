#!/usr/bin/env bash
# Smoke test of bench/fairness_goal_spread.sh (the full run on the shared traces is a documented
# command outside CI): four days of SDSC-SP2 at the log's load and at 0.9, each replayed at two
# offered loads 1 % apart. Each row's cells are what the replicas' own goal lines say (passes
# counted, the median and range of their ratios); the log's factor 1 is the log itself and its
# factor 1.01 campsim's --load at 1.01 times the window's offered load; TABLE_ONLY makes the same
# table again from the replicas kept; a bad factor or load is named.
# CAMPSIM is set by make check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
campsim=${CAMPSIM:-../../build/src/sim/campsim}
case $campsim in /*) ;; *) campsim=$PWD/$campsim ;; esac
build=$(cd "$(dirname "$campsim")/../.." && pwd)
trace=$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
window="--from 1428000 --to 1773600"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

spread() {
	BUILD_DIR=$build OUT=$work/out LOADS="log 0.9" SPREAD="1 1.01" CAMPSIM_ARGS="$window" \
		bash "$here/../../bench/fairness_goal_spread.sh" "$trace" >"$work/stdout" 2>"$work/stderr"
}
check "fairness_goal_spread.sh runs" spread
cat "$work/stdout"
rows() { grep -c "^SDSC-SP2-1998-4.2-cln@" "$work/out/spread.txt"; }
check_equal "one row per nominal load (the default policy against the easy set)" 2 "$(rows)"
check_equal "every cell counts two replicas" 10 \
	"$(grep "^SDSC-SP2-1998-4.2-cln@" "$work/out/spread.txt" | grep -o ' [0-2]/2 ' | wc -l)"

# The light line of the nominal 0.9, recomputed from the two replicas' goal.txt files.
replica_dir=$work/out/SDSC-SP2-1998-4.2-cln/0.9
expected=$(cat "$replica_dir"/*/goal.txt | awk '/^  light users/ {
		for (i = 1; i <= NF; i++) if ($i == "ratio") v[++n] = $(i + 1)
		passes += $NF == "PASS"
	}
	END {
		lo = v[1] < v[2] ? v[1] : v[2]; hi = v[1] < v[2] ? v[2] : v[1]
		printf "%d/2 %.2f [%.2f,%.2f]", passes, (v[1] + v[2]) / 2, lo, hi
	}')
check_equal "the 0.9 row's light cell is its replicas' (passes, median, range)" "$expected" \
	"$(awk -F' [|] ' '/^SDSC-SP2-1998-4.2-cln@0.9 / { sub(/ +$/, "", $2); print $2 }' "$work/out/spread.txt")"
check "the 0.9 replicas ran at 0.9 and 0.909" test -d "$replica_dir/0.90000" -a -d "$replica_dir/0.90900"
check "and 0.909 was scaled by campsim" grep -rqs -- "--load 0.909: inter-arrival times scaled by" \
	"$replica_dir/0.90900/goal"

# The log's own load: factor 1 is the log itself (judged as fairness_goal.sh judges LOADS=log),
# factor 1.01 is 1.01 times the window's offered load.
own=$("$campsim" run --swf "$trace" --policy fcfs/no_backfill $window --load 0.5 2>&1 |
	sed -n 's/.*offered load \([0-9.]*\) of the machine in the log.*/\1/p' | head -1)
scaled=$(awk -v l="$own" 'BEGIN { printf "%.5f", l * 1.01 }')
check "the log's replicas are the log and 1.01 times its offered load ($scaled)" \
	test -f "$work/out/SDSC-SP2-1998-4.2-cln/log/log/goal.txt" -a -f "$work/out/SDSC-SP2-1998-4.2-cln/log/$scaled/goal.txt"
direct() {
	BUILD_DIR=$build BASELINE=easy LOADS=log CAMPSIM_ARGS="$window" bash "$here/../../bench/fairness_goal.sh" "$trace" |
		grep -E '(PASS|FAIL)$'
}
check "the log's factor-1 replica judges as fairness_goal.sh on the log" \
	cmp <(direct) <(grep -E '(PASS|FAIL)$' "$work/out/SDSC-SP2-1998-4.2-cln/log/log/goal.txt")

again() {
	cp "$work/out/spread.txt" "$work/first.txt"
	BUILD_DIR=$build OUT=$work/out TABLE_ONLY=yes bash "$here/../../bench/fairness_goal_spread.sh" "$trace" >/dev/null &&
		cmp "$work/first.txt" "$work/out/spread.txt"
}
check "TABLE_ONLY=yes makes the same table from the replicas kept" again

# refused VARIABLE VALUE MESSAGE: the script with VARIABLE=VALUE exits 2 and says MESSAGE.
refused() {
	env BUILD_DIR="$build" OUT="$work/bad" "$1=$2" bash "$here/../../bench/fairness_goal_spread.sh" "$trace" \
		>"$work/bad.out" 2>&1
	[ $? -eq 2 ] && grep -q "$3" "$work/bad.out"
}
check "a bad SPREAD factor exits 2 naming it" refused SPREAD "1 x" "SPREAD factor 'x'"
check "a bad LOADS value exits 2 naming it" refused LOADS "log 0.9x" "LOADS value '0.9x'"
finish
