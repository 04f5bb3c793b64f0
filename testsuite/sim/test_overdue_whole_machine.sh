#!/usr/bin/env bash
# Regression case of a held-out log's mechanism (doc/fairness-results.md, "A held-out log:
# NASA-iPSC" and "Paced late campaigns"): campaigns of whole-machine jobs fall days behind in
# OStrich's virtual schedule, because a 128-CPU job starts only when the machine drains. Keyed by
# their completion in V (overdue=keep, the thesis) they then outrank every campaign, and so do
# they once the postponement's bound passes (overdue=share with overdue_pace=none): a campaign of
# ten one-hour whole-machine jobs runs back to back, no other job starts for ten hours, and light
# users' p95 bounded campaign stretch is many times fair-share's. Paced (overdue_pace=share, the
# default), each job the late campaign starts moves its bound by the job's work over its share,
# so its jobs interleave with the others' as under fair-share. The workload, 128 CPUs for four
# days at an offered load of 0.85: two users keep the machine busy with 32- and 16-CPU jobs of 15
# and 10 minutes, two users each submit a campaign of ten whole-machine one-hour jobs once a day,
# and four light users each submit ten 4-CPU jobs of 1-5 minutes every 4 hours. CAMPSIM is set
# by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, finish

awk 'BEGIN {
	OFS = ","; print "id,user,submit,cpus,limit,runtime"; span = 4 * 86400
	for (t = 0; t < span; t += 400) print ++id, 1, t, 32, 900, 900
	for (t = 100; t < span; t += 300) print ++id, 2, t, 16, 600, 600
	for (u = 3; u <= 4; u++)
		for (t = (u - 3) * 43200 + 3600; t < span; t += 86400)
			for (j = 0; j < 10; j++) print ++id, u, t, 128, 3600, 3600
	for (u = 11; u <= 14; u++)
		for (t = 1800 + (u - 11) * 3600; t < span; t += 14400)
			for (j = 0; j < 10; j++) { r = 60 + (j * 37 + u * 11) % 240; print ++id, u, t, 4, r, r }
}' >"$work/jobs.csv"

run() { # name [parameters]
	"$campsim" run --jobs "$work/jobs.csv" --cpus 128 --load 0.85 \
		--policy fairshare/easy,fairtree/easy,ostrich/conservative ${2:+--parameters "$2"} \
		--out "$work/$1" >"$work/$1.txt" 2>&1
}
metric() { awk -v name="$2" -v column="$3" '$1 == name { print $(column + 1) }' "$work/$1/comparison.txt"; }
# against_fair RUN METRIC: the core policy's figure over the better of the two fair-share ones
against_fair() {
	awk -v a="$(metric "$1" "$2" 1)" -v b="$(metric "$1" "$2" 2)" -v ours="$(metric "$1" "$2" 3)" \
		'BEGIN { best = a < b ? a : b; if (best > 0) printf "%.2f", ours / best }'
}
at_most() { awk -v r="$1" -v bound="$2" 'BEGIN { exit !(r != "" && r <= bound) }'; }
at_least() { awk -v r="$1" -v bound="$2" 'BEGIN { exit !(r != "" && r >= bound) }'; }

check "campsim replays the workload with the default parameters" run default
check "with overdue=keep" run keep overdue=keep
check "and with overdue_pace=none" run unpaced overdue_pace=none
light=bounded_campaign_stretch.light_cpu.p95
heavy=bounded_campaign_stretch.heavy_cpu.p95
default=$(against_fair default $light) keep=$(against_fair keep $light)
unpaced=$(against_fair unpaced $light) heavy_default=$(against_fair default $heavy)
echo "  light users' p95 against the better fair-share: default ${default}x, keep ${keep}x," \
	"unpaced ${unpaced}x; heavy users' p95: default ${heavy_default}x"
check "overdue=keep: light users wait at least 5x fair-share's (${keep}x)" at_least "$keep" 5
check "overdue_pace=none: light users wait at least 5x fair-share's (${unpaced}x)" at_least "$unpaced" 5
check "default: light users within 1.3x of fair-share's (${default}x)" at_most "$default" 1.3
check "default: heavy users' p95 within 1.25x of fair-share's (${heavy_default}x)" \
	at_most "$heavy_default" 1.25
finish
