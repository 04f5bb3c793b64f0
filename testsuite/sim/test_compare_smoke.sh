#!/usr/bin/env bash
# Smoke test of the evaluation command, bench/compare.sh (the full run on the shared traces is a
# documented command outside CI): four days of SDSC-SP2 at the log's load and at 0.9, three
# policies, and a small synthetic workload over two seeds. One table line per trace, load and policy; the JSON holds the same runs with the
# ratios against the baselines; the scaled run says by how much it scaled; a PNG per load where
# gnuplot is installed. CAMPSIM is set by make check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
campsim=${CAMPSIM:-../../build/src/sim/campsim}
case $campsim in /*) ;; *) campsim=$PWD/$campsim ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, finish

compare() {
	CAMPSIM=$campsim OUT=$work/out LOADS="log 0.9" POLICIES="fairshare/easy,fairtree/easy,ostrich/conservative" \
		CAMPSIM_ARGS="--from 1428000 --to 1773600" SYNTHETIC=ostrich-profiles SEEDS="1 2" \
		SYNTHETIC_ARGS="--users 4 --job-count 300" \
		bash "$here/../../bench/compare.sh" "$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz" >"$work/stdout" 2>"$work/stderr"
}
check "compare.sh runs" compare
cat "$work/stdout" | head -8
lines() { grep -c "^SDSC-SP2-1998-4.2-cln" "$work/out/compare.txt"; }
check_equal "one table line per load and policy" 6 "$(lines)"
json_check() {
	python3 - "$work/out/compare.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert len(runs) == 6, len(runs)
for run in runs:
    if run["policy"] == "fairshare/easy":
        assert abs(run["ratios"]["light95_vs_fairshare"] - 1) < 1e-9, run
    assert run["metrics"]["utilization"] > 0 and run["metrics"]["makespan_s"] > 0, run
synthetic = json.load(open(sys.argv[1]))["synthetic"]
assert len(synthetic) == 3, synthetic
for row in synthetic:
    assert row["seeds"] == 2 and row["workload"] == "ostrich-profiles", row
    p95 = row["metrics"]["bounded_campaign_stretch.all.p95"]
    assert p95["mean"] >= 1 and p95["ci95"] >= 0, row
PY
}
check "compare.json holds the six runs (fair-share against itself 1) and the synthetic summary over two seeds" json_check
# The goal lines of the default (bench/goal_lines.py) at both loads against the easy pair, their
# count printed after the table.
check "goal.txt judges ostrich/conservative's ten lines against the easy pair" \
	grep -q "^goal_lines: ostrich/conservative against easy: [0-9]* of 10 lines PASS$" "$work/out/goal.txt"
check "and compare.sh prints the count" grep -q "^goal_lines: ostrich/conservative against easy:" "$work/stdout"
check "the 0.9 run was scaled" grep -q -- "--load 0.9: inter-arrival times scaled by" \
	"$work/out/runs/SDSC-SP2-1998-4.2-cln@0.9/campsim.txt"
# bench/worst_campaigns.py: the default's worst campaign at each load, the one with the largest
# bounded stretch in its campaigns.csv, with its limits from the trace and a count at the end.
worst() {
	python3 "$here/../../bench/worst_campaigns.py" "$work/out" \
		"$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz" >"$work/worst.txt" 2>&1
}
check "worst_campaigns.py reads the compare output" worst
check "it names the worst campaign at both loads and counts them" \
	grep -q "^worst_campaigns: [0-9] of 2 worst campaigns of ostrich/conservative" "$work/worst.txt"
worst_is_largest() {
	python3 - "$work/out/runs/SDSC-SP2-1998-4.2-cln@0.9" "$work/worst.txt" <<'PY'
import csv, glob, re, sys
rows = list(csv.DictReader(open(glob.glob(sys.argv[1] + "/p*/ostrich_conservative.campaigns.csv")[0])))
top = max(rows, key=lambda r: float(r["flow_s"]) / max(float(r["lower_bound_s"]), 10))
line = [l for l in open(sys.argv[2]) if l.startswith("SDSC-SP2-1998-4.2-cln@0.9:")][0]
assert re.search(rf"campaign {top['campaign']} of user {top['user']}:", line), (top, line)
PY
}
check "the campaign it names at 0.9 is the largest bounded stretch there" worst_is_largest
# compare.sh runs each policy alone, JOBS at once, and merges the runs: the merged table is the
# one campsim writes for all the policies in one run, to the byte but for the rows that measure
# the run (CPU and wall seconds, memory), which differ between any two runs.
schedule_rows() { grep -vE '^(scheduler\.cpu_s|scheduler\.cpu_per_event_ms|run\.wall_s|run\.peak_rss_kb),' "$1"; }
one_run() {
	"$campsim" run --swf "$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz" --load 0.9 \
		--policy fairshare/easy,fairtree/easy,ostrich/conservative --from 1428000 --to 1773600 \
		--out "$work/one" >/dev/null 2>&1
}
check "campsim runs the three policies in one run" one_run
check "the merged comparison.csv is the one run's" \
	cmp <(schedule_rows "$work/one/comparison.csv") \
	<(schedule_rows "$work/out/runs/SDSC-SP2-1998-4.2-cln@0.9/comparison.csv")
check "timing.txt gives the stages and every run's wall time" \
	grep -q "runs/SDSC-SP2-1998-4.2-cln@0.9: .*ostrich/conservative" "$work/out/timing.txt"
# SITE=yes: the site's sched/backfill baselines in runs of their own, two more rows per load, and
# light users' p95 over the better of them (1 for that one). HALF_LIFE_1D=yes likewise: the
# fair-share baselines with a one-day half-life, two more rows and the l95/1d, a95/1d columns.
site_compare() {
	SITE=yes HALF_LIFE_1D=yes CAMPSIM=$campsim OUT=$work/site LOADS="log" POLICIES="fairshare/easy,ostrich/conservative" \
		CAMPSIM_ARGS="--from 1428000 --to 1773600" \
		bash "$here/../../bench/compare.sh" "$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz" >"$work/site-stdout" 2>&1
}
check "compare.sh runs with SITE=yes" site_compare
site_check() {
	python3 - "$work/site/compare.json" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
assert sorted(r["policy"] for r in runs) == ["fairshare/easy", "fairshare/easy-1d", "fairshare/site",
                                             "fairtree/easy-1d", "fairtree/site",
                                             "ostrich/conservative"], runs
site = [r["ratios"]["light95_vs_site"] for r in runs if r["policy"].endswith("/site")]
assert all(x is not None for x in site) and abs(min(site) - 1) < 1e-9, site
for key in ("light95_vs_1d", "all95_vs_1d"):
    day = [r["ratios"][key] for r in runs if r["policy"].endswith("/easy-1d")]
    assert all(x is not None for x in day) and abs(min(day) - 1) < 1e-9, (key, day)
fairshare_easy = next(r for r in runs if r["policy"] == "fairshare/easy")
assert abs(fairshare_easy["ratios"]["light95_vs_fairshare"] - 1) < 1e-9, fairshare_easy
PY
}
check "SITE=yes adds fairshare/site and fairtree/site, the better of them 1 in l95/site" site_check
judged_sets() {
	for set in site easy-1d; do
		grep -q "^goal_lines: ostrich/conservative against $set: [0-9]* of 5 lines PASS$" \
			"$work/site/goal.txt" || return 1
	done
}
check "goal.txt judges the default against the site and one-day pairs" judged_sets
check "and not against fairshare/easy alone (fairtree/easy is not in POLICIES)" not \
	grep -q "against easy:" "$work/site/goal.txt"
check "compare.txt has the l95/site column" grep -q "l95/site" "$work/site/compare.txt"
check "compare.txt has the l95/1d and a95/1d columns" grep -q "l95/1d *a95/1d" "$work/site/compare.txt"
# The one-day rows are campsim's fair-share with --fs-half-life 86400: the same schedules as a run
# of its own with it, and not those of the default 7 days (they differ in this window).
day_run() { # HALF_LIFE_S DIR
	"$campsim" run --swf "$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz" \
		--policy fairshare/easy,fairtree/easy --fs-half-life "$1" --from 1428000 --to 1773600 \
		--out "$2" >/dev/null 2>&1
}
check "campsim runs the fair-share pair with a 1-day and a 7-day half-life" \
	eval 'day_run 86400 "$work/day" && day_run 604800 "$work/week"'
day_merged=$work/site/halflife1d/SDSC-SP2-1998-4.2-cln@log/comparison.csv
check "the easy-1d rows are the one-day half-life's schedules" \
	cmp <(schedule_rows "$work/day/comparison.csv") <(schedule_rows "$day_merged")
check "and not the seven-day half-life's" not \
	cmp -s <(schedule_rows "$work/week/comparison.csv") <(schedule_rows "$day_merged")
if command -v gnuplot >/dev/null; then
	check "a PNG per load" test -s "$work/out/compare-log.png" -a -s "$work/out/compare-0.9.png"
fi
finish
