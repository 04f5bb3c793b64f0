#!/usr/bin/env bash
# Smoke test of bench/fairness_mechanisms.sh and bench/mechanism_workloads.py (the full run, six
# workloads over three seeds, is a documented command outside CI): two days of two workloads,
# two seeds, one offered load. The generator gives the same bytes for a seed and other jobs for
# another, a machine of 128 CPUs and no run above its limit; the table is
# bench/fairness_goal_spread.sh's with each seed one replica of its workload and load; a bad
# workload, seed or span is named. CAMPSIM is set by make check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
campsim=${CAMPSIM:-../../build/src/sim/campsim}
case $campsim in /*) ;; *) campsim=$PWD/$campsim ;; esac
build=$(cd "$(dirname "$campsim")/../.." && pwd)
generator=$here/../../bench/mechanism_workloads.py
bench=$here/../../bench/fairness_mechanisms.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

generate() { python3 "$generator" "$work/$1" --seed "$2" --days 2 --only arrays,one_heavy >/dev/null; }
check "the generator writes the workloads" generate a 1
check "again with the same seed" generate b 1
check "and with another" generate c 2
check "the same seed gives the same file" cmp "$work/a/arrays-s1.swf.gz" "$work/b/arrays-s1.swf.gz"
check "another seed gives another" bash -c "! cmp -s '$work/a/arrays-s1.swf.gz' '$work/c/arrays-s2.swf.gz'"
check_equal "the machine is 128 CPUs" 128 \
	"$(zcat "$work/a/one_heavy-s1.swf.gz" | sed -n 's/^; MaxProcs: //p')"
check_equal "no job runs longer than its limit or asks for no CPU" 0 \
	"$(zcat "$work/a/one_heavy-s1.swf.gz" | awk '!/^;/ && ($4 > $9 || $5 < 1)' | wc -l)"
check "campsim reads a workload as an SWF log" \
	"$campsim" run --swf "$work/a/arrays-s1.swf.gz" --policy fcfs/easy --out "$work/fcfs"

mechanisms() {
	BUILD_DIR=$build OUT=$work/out SEEDS="1 2" DAYS=2 WORKLOADS=arrays,one_heavy LOADS=0.9 \
		bash "$bench" >"$work/stdout" 2>"$work/stderr"
}
check "fairness_mechanisms.sh runs" mechanisms
cat "$work/stdout"
table=$work/out/spread.txt
check_equal "a row per workload (the default policy against the easy set)" 2 \
	"$(grep -cE '^(arrays|one_heavy)@0.9 +ostrich/conservative +easy ' "$table")"
check_equal "every cell counts two seeds" 10 "$(grep -E '^(arrays|one_heavy)@0.9 ' "$table" | grep -o ' [0-2]/2 ' | wc -l)"
# The table is bench/fairness_goal_spread.sh's (its cells tested there); here, that each seed is
# one replica of its workload's row: one_heavy's replicas are its two seeds' own judgements.
check_equal "one_heavy's replicas are its two seeds at 0.9" \
	"$(printf '%s\n' "one_heavy 0.9 s1" "one_heavy 0.9 s2")" \
	"$(awk -F'\t' '$1 == "one_heavy" { print $1, $2, $3 }' "$work/out/done.tsv")"
check "and each is fairness_goal.sh on that seed's workload at that load" bash -c "
	grep -q '^== one_heavy-s1@0.9: ostrich/conservative against' '$work/out/one_heavy/0.9/s1/goal.txt' &&
	grep -q '^== one_heavy-s2@0.9: ostrich/conservative against' '$work/out/one_heavy/0.9/s2/goal.txt'"

# refused VARIABLE VALUE MESSAGE: the script with VARIABLE=VALUE exits 2 and says MESSAGE.
refused() {
	env BUILD_DIR="$build" OUT="$work/bad" SEEDS=1 DAYS=2 "$1=$2" bash "$bench" >"$work/bad.out" 2>&1
	[ $? -eq 2 ] && grep -q "$3" "$work/bad.out"
}
check "an unknown workload exits 2 naming it" refused WORKLOADS arrays,bogus "unknown workload 'bogus'"
check "a bad seed exits 2 naming it" refused SEEDS "1 x" "seed 'x'"
check "a span under a day exits 2 naming it" refused DAYS 0 "days 0 is not at least 1"
finish
