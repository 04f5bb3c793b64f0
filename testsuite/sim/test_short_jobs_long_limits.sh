#!/usr/bin/env bash
# Issue 12's regression case: light users submit bursts of 1-9 s jobs with 4-hour limits while
# heavy users keep the machine full (seen on a real log: 91x fair-share's light-user p95 stretch).
# OStrich counting limits (work_estimate=limit) holds the bursts for hours (each burst is 320
# CPU-hours in V); the default (work_estimate=recent, work_estimate_below=0.1: a prediction for
# users whose runs use under a tenth of their limits) and work_estimate=recent for every user count
# their users' recent runs, and the bursts wait about as long as under Slurm's fair-share. 64 CPUs,
# one day: three heavy users each submit a 16-CPU, 1-hour job (2-hour limit) every 2600 s; three
# light users each submit 20 4-CPU jobs every 3 hours. CAMPSIM is set by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, finish

awk 'BEGIN {
	OFS = ","; print "id,user,submit,cpus,limit,runtime"; day = 86400
	for (u = 1; u <= 3; u++)
		for (t = u * 600; t < day; t += 2600) print ++id, u, t, 16, 7200, 3600
	for (u = 11; u <= 13; u++)
		for (t = 1800 + (u - 11) * 3600; t < day; t += 10800)
			for (j = 0; j < 20; j++) print ++id, u, t, 4, 14400, 1 + (j * 7 + u) % 9
}' >"$work/jobs.csv"

run() { # name [parameters]
	"$campsim" run --jobs "$work/jobs.csv" --cpus 64 --policy fairshare/easy,ostrich/conservative \
		${2:+--parameters "$2"} --out "$work/$1" >"$work/$1.txt" 2>&1
}
metric() { awk -v name="$2" -v column="$3" '$1 == name { print $(column + 1) }' "$work/$1/comparison.txt"; }
ratio_at_most() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { exit !(b > 0 && a <= r * b) }'; }
ratio_at_least() { awk -v a="$1" -v b="$2" -v r="$3" 'BEGIN { exit !(b > 0 && a >= r * b) }'; }

check "campsim runs the workload by limits" run limits work_estimate=limit
check "with the default parameters" run default
check "and with work_estimate=recent for every user" run recent work_estimate=recent,work_estimate_below=1
light=bounded_campaign_stretch.light_cpu.p95
heavy=bounded_campaign_stretch.heavy_cpu.p95
fair=$(metric limits $light 1) by_limits=$(metric limits $light 2)
echo "  light users' p95 bounded stretch: fair-share $fair, OStrich by limits $by_limits," \
	"default $(metric default $light 2), by recent runs $(metric recent $light 2)"
check "by limits, OStrich holds the bursts: at least 10x fair-share's ($by_limits against $fair)" \
	ratio_at_least "$by_limits" "$fair" 10
utilization_kept() { awk -v a="$(metric "$1" utilization 2)" -v b="$(metric "$1" utilization 1)" 'BEGIN { exit !(a >= b - 0.01) }'; }
for name in default recent; do
	check "$name: light users within 1.1x of fair-share's ($(metric $name $light 2) against $fair)" \
		ratio_at_most "$(metric $name $light 2)" "$fair" 1.1
	check "$name: heavy users' p95 within 1.1x of fair-share's ($(metric $name $heavy 2) against $(metric $name $heavy 1))" \
		ratio_at_most "$(metric $name $heavy 2)" "$(metric $name $heavy 1)" 1.1
	check "$name: utilization within a point of fair-share's ($(metric $name utilization 2) against $(metric $name utilization 1))" \
		utilization_kept $name
done
finish
