#!/usr/bin/env bash
# Smoke test of bench/fairness_mechanisms.sh and bench/mechanism_workloads.py (the full run, six
# workloads over three seeds, is a documented command outside CI): two days of two workloads,
# two seeds, one offered load. The generator gives the same bytes for a seed and other jobs for
# another, a machine of 128 CPUs and no run above its limit; each summary cell is what the
# seeds' own goal lines say (passes counted, the median and range of their ratios); a bad
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
check_equal "a block per workload (the default policy against the easy set)" 2 \
	"$(grep -c '^== .*@0.9: ostrich/conservative$' "$work/out/mechanisms.txt")"
check_equal "every line counts two seeds" 10 "$(grep -cE '^  .* [0-2]/2 ' "$work/out/mechanisms.txt")"
# The light line of one_heavy, recomputed from the two seeds' own goal lines.
expected=$(cat "$work/out/seed1.txt" "$work/out/seed2.txt" | awk '
	/^== one_heavy/ { on = 1; next } /^== / { on = 0 }
	on && /^  light users/ {
		for (i = 1; i <= NF; i++) if ($i == "ratio") v[++n] = $(i + 1)
		passes += $NF == "PASS"
	}
	END {
		lo = v[1] < v[2] ? v[1] : v[2]; hi = v[1] < v[2] ? v[2] : v[1]
		printf "%d/2  %.2f [%.2f, %.2f]", passes, (v[1] + v[2]) / 2, lo, hi
	}')
check_equal "one_heavy's light cell is its seeds' (passes, median, range)" "$expected" \
	"$(awk '/^== one_heavy/ { on = 1; next } /^== / { on = 0 }
		on && /^  light users/ { print substr($0, 38) }' \
		"$work/out/mechanisms.txt")"

# refused VARIABLE VALUE MESSAGE: the script with VARIABLE=VALUE exits 2 and says MESSAGE.
refused() {
	env BUILD_DIR="$build" OUT="$work/bad" SEEDS=1 DAYS=2 "$1=$2" bash "$bench" >"$work/bad.out" 2>&1
	[ $? -eq 2 ] && grep -q "$3" "$work/bad.out"
}
check "an unknown workload exits 2 naming it" refused WORKLOADS arrays,bogus "unknown workload 'bogus'"
check "a bad seed exits 2 naming it" refused SEEDS "1 x" "seed 'x'"
check "a span under a day exits 2 naming it" refused DAYS 0 "days 0 is not at least 1"
finish
