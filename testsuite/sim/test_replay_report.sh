#!/usr/bin/env bash
# scripts/replay_report.py, the replay experiments' table and plots, on bundles made here without
# a cluster: data/sacct_sample.txt (a real export) scored by campsim as replay.py scores a bundle.
# Window "tiny": set-up a twice (the second run with one job ending 2 s later), set-up c once and
# c with a room for short jobs (c-room10) once.
# The tables' figures must be campsim's own (the mean over a's two runs), the fair-share columns
# campsim's baselines on a's exports (one as replay.py now predicts set-up a: Fair Tree with
# whole-node reservations on the nodes) and on its job list in trace time (x 60), and one PNG per
# window. CAMPSIM is set by make check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
campsim=${CAMPSIM:-../../build/src/sim/campsim}
case $campsim in /*) ;; *) campsim=$PWD/$campsim ;; esac
report=$here/../../scripts/replay_report.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

# make_bundle NAME POLICY SACCT: a finished bundle as replay.py leaves it (the files the report
# reads), its report/ made by campsim with replay.py's metrics command.
make_bundle() {
	local bundle=$work/results/$1 policy=$2
	mkdir -p "$bundle"
	cp "$3" "$bundle/sacct.txt"
	printf 'id,user,submit,cpus,limit,runtime,limit_min\n1,rp1,0,2,120,3,2\n2,rp2,4,4,60,8,1\n' \
		>"$bundle/jobs.csv"
	python3 - "$bundle" "$policy" <<'PY'
import json, sys
bundle, policy = sys.argv[1:]
command = ["run", "--sacct", bundle + "/sacct.txt", "--cpus", "8", "--observed", "--policy",
           policy, "--calc-period", "1", "--tau", "0.1667", "--out", bundle + "/report"]
setup = "c" if "ostrich" in policy else "a"
json.dump({"parameters": {"nodes": 2, "node_cpus": 4, "compress": 60, "setup": setup},
           "slurm_conf_lines": ["PriorityCalcPeriod=1", "SchedulerType=sched/backfill",
                                "SchedulerParameters=bf_interval=2,sched_interval=2,"
                                "bf_max_job_test=50"],
           "metrics_command": command, "summary": {"submission_lag_max_s": 0}},
          open(bundle + "/parameters.json", "w"))
PY
	local command
	mapfile -t command < <(python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["metrics_command"]))' "$bundle/parameters.json")
	"$campsim" "${command[@]}" >/dev/null
}

later=$work/sacct_later.txt
# Job 1 of the sample ends 2 s later in the second run.
sed 's/^\(1|1|.*|2026-11-25T19:43:17|\)2026-11-25T19:43:20|3|/\12026-11-25T19:43:22|5|/' \
	"$DATA_DIR/sacct_sample.txt" >"$later"
check "the second run's export differs from the first" not cmp -s "$DATA_DIR/sacct_sample.txt" "$later"
make_bundle tiny-a-r1 fairtree/easy "$DATA_DIR/sacct_sample.txt"
make_bundle tiny-a-r2 fairtree/easy "$later"
make_bundle tiny-c-r1 ostrich/conservative "$DATA_DIR/sacct_sample.txt"
make_bundle tiny-c-room10-r1 ostrich/conservative "$DATA_DIR/sacct_sample.txt"
mkdir -p "$work/results/unfinished-b-r1" # no report/: left out

python3 "$report" "$work/results" --campsim "$campsim" --png-dir "$work/png" >"$work/out.md" 2>"$work/err.txt"
check_equal "replay_report.py exits 0" 0 "$?"
cat "$work/err.txt"
check "one section for the window tiny" grep -qx '### tiny' "$work/out.md"
check "no section for the bundle without metrics" not grep -q 'unfinished' "$work/out.md"
check_equal "the tables' columns: each set-up observed with its run count; campsim's predictions; a against the fair-share baselines" \
	"| metric | a observed (2 runs) | c observed (1 run) | c-room10 observed (1 run) |
| metric | a: campsim fairtree/easy | c: campsim ostrich/conservative | c-room10: campsim ostrich/conservative |
| metric | a observed (2 runs) | campsim fairtree/easy (replay time, the bundle's prediction) | campsim fairtree/slurm_backfill on the nodes (replay time, replay.py's prediction now) | campsim fairshare/easy (replay time) | campsim fairtree/easy (trace time) | campsim fairshare/easy (trace time) |" \
	"$(grep '^| metric' "$work/out.md")"

# campsim's fair-share baselines as the test makes them: on each run's export (replay time), and
# on the job list with times x 60 (trace time).
printf 'id,user,submit,cpus,limit,runtime\n1,rp1,0,2,7200,180\n2,rp2,240,4,3600,480\n' >"$work/trace-time.csv"
for run in 1 2; do
	"$campsim" run --sacct "$work/results/tiny-a-r$run/sacct.txt" --cpus 8 --observed \
		--policy fairshare/easy --calc-period 1 --tau 0.1667 --out "$work/fs$run" >/dev/null
	# replay.py's prediction of set-up a from the bundle's slurm.conf lines: 2 nodes x 4,
	# bf_max_job_test 50, reservations in whole minutes (bf_resolution's default), passes every
	# 1 s (half of bf_interval 2), the calc period in seconds.
	"$campsim" run --sacct "$work/results/tiny-a-r$run/sacct.txt" --nodes 2 --node-cpus 4 \
		--observed --policy fairtree/slurm_backfill --fs-calc-period 60 --depth 50 \
		--horizon 86400 --bf-resolution 60 --sched-period 1 --tau 0.1667 \
		--out "$work/nm$run" >/dev/null
done
"$campsim" run --jobs "$work/trace-time.csv" --cpus 8 --policy fairtree/easy,fairshare/easy \
	--tau 10 --out "$work/tt" >/dev/null

# The expected rows from campsim's own files: a's two runs averaged, as the report rounds;
# the three tables' rows in order.
expected_rows() { # LABEL METRIC
	python3 - "$work" "$1" "$2" <<'PY'
import csv, sys
work, label, metric = sys.argv[1:]
def value(path, column):
    rows = list(csv.reader(open(path)))
    index = rows[0].index(column)
    v = [float(r[index]) for r in rows[1:] if r[0] == metric][0]
    return v / 60 if "/tt/" in path and metric in ("wait_s.mean", "makespan_s") else v
def number(v):
    return "%.0f" % v if abs(v) >= 100 else ("%.3g" % v if abs(v) < 10 else "%.1f" % v)
def row(values):
    return "| %s | %s |" % (label, " | ".join(number(v) for v in values))
results = work + "/results/"
a = sum(value(results + "tiny-a-r%d/report/comparison.csv" % r, "observed/log") for r in (1, 2)) / 2
fa = sum(value(results + "tiny-a-r%d/report/comparison.csv" % r, "fairtree/easy") for r in (1, 2)) / 2
fs = sum(value(work + "/fs%d/comparison.csv" % r, "fairshare/easy") for r in (1, 2)) / 2
nm = sum(value(work + "/nm%d/comparison.csv" % r, "fairtree/slurm_backfill") for r in (1, 2)) / 2
c = value(results + "tiny-c-r1/report/comparison.csv", "observed/log")
cp = value(results + "tiny-c-r1/report/comparison.csv", "ostrich/conservative")
tt = [value(work + "/tt/comparison.csv", p) for p in ("fairtree/easy", "fairshare/easy")]
print(row([a, c, c]))
print(row([fa, cp, cp]))
print(row([a, fa, nm, fs] + tt))
PY
}
for row in "utilization:utilization" "stretch all max:bounded_campaign_stretch.all.max" \
	"bounded slowdown mean:bounded_slowdown.mean" "makespan (replay s):makespan_s"; do
	check_equal "row '${row%%:*}' is campsim's figures (a: mean of its two runs)" \
		"$(expected_rows "${row%%:*}" "${row#*:}")" "$(grep -F "| ${row%%:*} |" "$work/out.md" | grep -v ' % |')"
done
check "the two runs of a differ in utilization (so the mean is tested)" not cmp -s \
	<(grep "^utilization," "$work/results/tiny-a-r1/report/comparison.csv") \
	<(grep "^utilization," "$work/results/tiny-a-r2/report/comparison.csv")
check "the load line gives the jobs, users and compression" \
	grep -q '^2 jobs of 2 users; 60x' "$work/out.md"
if command -v gnuplot >/dev/null; then
	check "a PNG for the window" bash -c "head -c 4 '$work/png/tiny.png' | grep -q PNG"
fi

# replay.py --rescore gives campsim's prediction the room the cluster ran (its slurm.conf lines,
# in replay seconds), and a bundle without one (recorded before the room became sched/campaign's
# default) none: campsim's core policies would plan the default room unless told 0.
rescore_command() { # SCHEDULER_PARAMETERS [RANKS_AT_BEGIN]: the rescore's campsim command line
	local bundle=$work/rescore-bundle
	rm -rf "$bundle" && mkdir -p "$bundle"
	cp "$DATA_DIR/sacct_sample.txt" "$bundle/sacct.txt"
	python3 - "$bundle" "$1" "${2:-}" <<'PY'
import json, sys
bundle, scheduler, ranks_at_begin = sys.argv[1:]
saved = {"parameters": {"setup": "c", "nodes": 2, "node_cpus": 4, "compress": 60},
         "slurm_conf_lines": ["PriorityType=priority/campaign",
                              "PriorityParameters=policy=ostrich,calc_period=1",
                              "SchedulerType=sched/campaign",
                              "SchedulerParameters=" + scheduler]}
if ranks_at_begin:
    saved["ranks_at_begin"] = ranks_at_begin == "true"
json.dump(saved, open(bundle + "/parameters.json", "w"))
PY
	CAMPSIM=$campsim python3 "$here/../../scripts/replay.py" --rescore "$bundle" --out "$work/rescored" \
		2>&1 >/dev/null
}
rescore_options() { # SCHEDULER_PARAMETERS: the room options of the rescore's campsim command
	rescore_command "$1" | grep -o -- '--short-[a-z-]* [0-9.]*' | tr '\n' ' '
}
check_equal "the rescore of a bundle with a room predicts with it" \
	"--short-room 0.1 --short-limit 60 --short-room-recent 12 " \
	"$(rescore_options "sched_interval=-1,defer,campaign_period=1,campaign_short_limit=60,campaign_short_room=0.1,campaign_short_room_recent=12")"
check_equal "and of a bundle without one, without" "--short-room 0 " \
	"$(rescore_options "sched_interval=-1,defer,campaign_period=1")"
# Bundles of plugins that rank at begin times say so ("ranks_at_begin": true) and are predicted
# without campsim's rank lag; older ones (no key) with it, as they ran.
check "a bundle without ranks_at_begin is predicted with --rank-lag" \
	grep -q -- '--rank-lag' <<<"$(rescore_command "sched_interval=-1,defer,campaign_period=1")"
# (the rescore's campsim command is there: a rescore that failed prints none)
predicted_without_lag() { grep -q -- '--policy' <<<"$1" && not grep -q -- '--rank-lag' <<<"$1"; }
check "one with \"ranks_at_begin\": true without" \
	predicted_without_lag "$(rescore_command "sched_interval=-1,defer,campaign_period=1" true)"
check "one with \"ranks_at_begin\": false with it" \
	grep -q -- '--rank-lag' <<<"$(rescore_command "sched_interval=-1,defer,campaign_period=1" false)"
check_equal "replay.py records ranks_at_begin in new bundles" "True" \
	"$(python3 -c "import sys; sys.path.insert(0, '$here/../../scripts'); import replay; print(replay.RANKS_AT_BEGIN)")"
# A new set-up c names sched/campaign's default room in its slurm.conf lines, the times divided
# by the compression (3600 s and 21600 s at 30x: 120 and 720), so its prediction reads it back.
# The room comes from campsim replay-plan's notes (plan/scheduler_defaults.h), not from a copy.
printf 'id,user,submit,cpus,limit,runtime\n1,1,0,2,7200,30\n' >"$work/window.csv"
"$campsim" replay-plan --jobs "$work/window.csv" --cpus 8 --nodes 2 --node-cpus 4 --compress 30 \
	--out "$work/window-plan.csv" >"$work/window-notes.txt" 2>&1
check_equal "set-up c runs the default room, scaled" \
	"campaign_period=1,campaign_short_limit=120,campaign_short_room=0.05,campaign_short_room_demand=blocked,campaign_short_room_recent=720" \
	"$(python3 -c "import sys; sys.path.insert(0, '$here/../../scripts'); import replay
notes = open('$work/window-notes.txt').read()
print([l for l in replay.setup_conf('c', 30, 20000, replay.short_room_settings({'compress': 30, 'default_room': True}, notes))
       if l.startswith('SchedulerParameters')][0].split('defer,')[1])")"
check_equal "a 1 h limit stays short at 7x (9 whole minutes, not 514 s)" "540" \
	"$("$campsim" replay-plan --jobs "$work/window.csv" --cpus 8 --nodes 2 --node-cpus 4 --compress 7 \
		--out "$work/window-plan7.csv" 2>&1 | grep -o 'campaign_short_limit=[0-9]*' | cut -d= -f2)"
check_equal "and the rerun of a bundle from before the default room runs without one" \
	"{'campaign_short_room': '0'}" \
	"$(python3 -c "import sys; sys.path.insert(0, '$here/../../scripts'); import replay
print(replay.short_room_settings({'compress': 30, 'short_room': None}, ''))")"
# sched/campaign plans CPUs within the cluster's nodes, so set-up c's prediction runs on them
# (not on one pool of nodes x CPUs).
check_equal "set-up c's prediction is on the cluster's nodes" "--nodes 2 --node-cpus 4" \
	"$(CAMPSIM=$campsim python3 "$here/../../scripts/replay.py" --rescore "$work/rescore-bundle" \
		--out "$work/rescored" 2>&1 >/dev/null | grep -o -- '--nodes [0-9]* --node-cpus [0-9]*\|--cpus [0-9]*')"

# --repredict: each set-up's prediction made again as replay.py --rescore makes it now (c on the
# cluster's 2 x 4 nodes), not the one stored in the bundle (c on one pool of 8 CPUs).
python3 "$report" "$work/results" --campsim "$campsim" --repredict >"$work/repredicted.md"
check "--repredict labels the predictions as replay.py's now" \
	grep -q '^| metric | a: campsim, replay.py now | c: campsim, replay.py now |' "$work/repredicted.md"
CAMPSIM=$campsim python3 "$here/../../scripts/replay.py" --rescore "$work/results/tiny-c-r1" \
	--out "$work/c-now" >/dev/null 2>&1
check_equal "--repredict's c column is replay.py --rescore's prediction" \
	"$(python3 - "$work/c-now/comparison.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
column = [c for c in rows[0][1:] if not c.startswith("observed")][0]
v = [float(r[rows[0].index(column)]) for r in rows[1:] if r[0] == "makespan_s"][0]
print("%.0f" % v if abs(v) >= 100 else ("%.3g" % v if abs(v) < 10 else "%.1f" % v))
PY
)" "$(grep -F '| makespan (replay s) |' "$work/repredicted.md" | sed -n 2p | cut -d'|' -f4 | tr -d ' ')"

# Fidelity over the runs (issue 17 point 3): each set-up's mean observed value against its mean
# prediction, in % of the observed, judged against replay.py's goal (10 % for medians and
# utilization, 20 % for p95s); a's two runs averaged on both sides.
fidelity_row() { # METRIC GOAL_PERCENT: the row as the report should print it, from campsim's files
	python3 - "$work" "$1" "$2" <<'PY'
import csv, sys
work, metric, goal = sys.argv[1], sys.argv[2], float(sys.argv[3])
def value(run, column):
    rows = list(csv.reader(open(work + "/results/tiny-%s/report/comparison.csv" % run)))
    return [float(r[rows[0].index(column)]) for r in rows[1:] if r[0] == metric][0]
def number(v):
    return "%.0f" % v if abs(v) >= 100 else ("%.3g" % v if abs(v) < 10 else "%.1f" % v)
def cell(runs, predicted_column):
    o = sum(value(r, "observed/log") for r in runs) / len(runs)
    p = sum(value(r, predicted_column) for r in runs) / len(runs)
    diff = 100.0 * (p - o) / o
    return "%s / %s (%+.1f %%%s)" % (number(o), number(p), diff,
                                      "" if abs(diff) <= goal + 1e-9 else ", outside")
print("| %s | %d %% | %s | %s | %s |" % (metric, goal, cell(["a-r1", "a-r2"], "fairtree/easy"),
      cell(["c-r1"], "ostrich/conservative"), cell(["c-room10-r1"], "ostrich/conservative")))
PY
}
check "the fidelity table's columns: each set-up with its run count" \
	grep -qx '| fidelity | goal | a (2 runs) | c (1 run) | c-room10 (1 run) |' "$work/out.md"
for row in "utilization 10" "bounded_campaign_stretch.all.p95 20" "response_s.p50 10"; do
	check_equal "fidelity row ${row% *}: mean observed against mean predicted, goal ${row#* } %" \
		"$(fidelity_row $row)" "$(grep -F "| ${row% *} |" "$work/out.md" | grep -F ' %')"
done
check "and the goals met per set-up" grep -qx 'Goals met over the runs: a [0-9]* of 10, c [0-9]* of 10, c-room10 [0-9]* of 10.' "$work/out.md"

python3 "$report" "$work/nowhere" --campsim "$campsim" >/dev/null 2>"$work/err.txt"
check_equal "a missing directory exits 1" 1 "$?"
check "and names it" grep -q "$work/nowhere: not a directory" "$work/err.txt"
python3 "$report" "$work/png" --campsim "$campsim" >/dev/null 2>"$work/err.txt"
check "a directory without bundles is an error naming it" grep -q "$work/png: no finished bundle" "$work/err.txt"
python3 "$report" "$work/results" --campsim "$work/no-campsim" >/dev/null 2>"$work/err.txt"
check "a campsim that is not there is an error naming it" grep -q "campsim not found at $work/no-campsim" "$work/err.txt"
finish
