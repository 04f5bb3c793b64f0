#!/usr/bin/env bash
# The replay on the real cluster (scripts/replay.py), small: 40 jobs of 2 trace users over one
# trace hour at 60x on 2 nodes x 4 CPUs, under priority/campaign + sched/campaign. Every job is
# submitted as its own user's local login, runs, reaches sacct with plausible times (arrival at
# its scheduled moment, start >= arrival, run time as compressed), the metrics table is printed
# with the observed row, and the bundle holds what --rerun needs.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d /var/tmp/replay-smoke.XXXXXX)
trap 'stop_cluster; rm -rf "$work"' EXIT
replay=$cluster_dir/../../scripts/replay.py

# Users 101 and 202 (the trace's numbers); run times 60..540 trace seconds (1..9 s at 60x),
# limits 10 trace minutes and one job of each user without a limit (-1).
python3 - "$work/window.csv" <<'PY'
import random, sys
draw = random.Random(17)
with open(sys.argv[1], "w") as out:
    out.write("id,user,submit,cpus,limit,runtime\n")
    for i in range(40):
        user = 101 if i % 3 else 202
        limit = -1 if i in (5, 6) else 600
        out.write("%d,%d,%d,%d,%d,%d\n" % (1000 + i, user, 50000 + i * 90, draw.randint(1, 4),
                                          limit, draw.randint(1, 9) * 60))
PY

echo "== replay 40 jobs at 60x (setup c)"
started=$(date +%s)
CAMPSIM=$campsim_bin python3 "$replay" --jobs "$work/window.csv" --cpus 8 --setup c \
	--nodes 2 --node-cpus 4 --compress 60 --lead 5 --start-delay 8 --out "$work/bundle" \
	>"$work/out.txt" 2>"$work/err.txt"
rc=$?
echo "  replay took $(($(date +%s) - started)) s"
check_equal "replay.py exits 0" 0 "$rc"
[ "$rc" = 0 ] || tail -20 "$work/err.txt"
check "the progress line was shown" grep -q 'submitted 40/40 (0 before their moment)  pending 0  running 0  done 40' "$work/err.txt"
check "the metrics table is printed with the observed row" grep -q 'observed/log' "$work/out.txt"
check "the table also has campsim's prediction (ostrich/conservative)" grep -q 'ostrich/conservative' "$work/out.txt"
for file in jobs.csv plan-notes.txt slurm.conf parameters.json submissions.csv sacct.txt metrics.txt fidelity.txt README; do
	check "bundle has $file" test -s "$work/bundle/$file"
done
check "the bundle's slurm.conf is the cluster's (priority/campaign, sched/campaign)" \
	grep -q '^SchedulerType=sched/campaign' "$work/bundle/slurm.conf"
# The prediction runs with the cluster's periods: priority/campaign's calc_period=1 and
# sched/campaign's campaign_period=1 (issue 17 point 3).
prediction_periods() {
	python3 -c 'import json, sys
command = json.load(open(sys.argv[1]))["metrics_command"]
value = lambda option: command[command.index(option) + 1] if option in command else None
sys.exit(0 if value("--calc-period") == "1" and value("--sched-period") == "1" else 1)' \
		"$work/bundle/parameters.json"
}
check "the prediction has the cluster's periods (--calc-period 1 --sched-period 1)" prediction_periods
# slurmctld's start, the phase of Fair Tree's recalculations in setup a's prediction.
started_recorded() {
	python3 -c 'import json, sys
summary = json.load(open(sys.argv[1]))["summary"]
started, t0 = summary.get("slurmctld_started"), summary["t0"]
sys.exit(0 if isinstance(started, int) and t0 - 900 < started <= t0 else 1)' \
		"$work/bundle/parameters.json"
}
check "the bundle records slurmctld's start (BOOT_TIME), before the first moment" started_recorded
# Its plugins rank at begin times (issue 17's first second), so its prediction has no rank lag.
ranks_at_begin_recorded() {
	python3 -c 'import json, sys
saved = json.load(open(sys.argv[1]))
sys.exit(0 if saved.get("ranks_at_begin") is True and "--rank-lag" not in saved["metrics_command"] else 1)' \
		"$work/bundle/parameters.json"
}
check "the bundle records \"ranks_at_begin\": true and predicts without --rank-lag" ranks_at_begin_recorded
check "the fidelity table lists utilization" grep -q '^utilization ' "$work/bundle/fidelity.txt"
rescore() {
	CAMPSIM=$campsim_bin python3 "$replay" --rescore "$work/bundle" --out "$work/rescore" \
		>"$work/rescore.txt" 2>/dev/null &&
		grep -q 'observed/log' "$work/rescore.txt" && grep -q '^fidelity ' "$work/rescore.txt"
}
check "--rescore scores the bundle again without a cluster (table and fidelity)" rescore

# One line per failed expectation, from the plan, the submissions and sacct joined by job.
python3 - "$work/bundle" >"$work/problems.txt" <<'PY'
import csv, sys, calendar, time
bundle = sys.argv[1]
plan = {row["id"]: row for row in csv.DictReader(open(bundle + "/jobs.csv"))}
subs = {row["id"]: row for row in csv.DictReader(open(bundle + "/submissions.csv"))}
rows = list(csv.DictReader(open(bundle + "/sacct.txt"), delimiter="|"))
acct = {row["JobIDRaw"]: row for row in rows}
epoch = lambda text: calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%S"))
print("count plan=%d submitted=%d sacct=%d" % (len(plan), len(subs), len(rows)))
for id, job in plan.items():
    sub = subs.get(id)
    if sub is None:
        print("job %s never submitted" % id); continue
    row = acct.get(sub["jobid"])
    if row is None:
        print("job %s (Slurm %s) missing from sacct" % (id, sub["jobid"])); continue
    if row["User"] != job["user"]:
        print("job %s ran as %s, not %s" % (id, row["User"], job["user"]))
    if row["JobName"] != "rp" + id:
        print("job %s has the name %s" % (id, row["JobName"]))
    if row["State"] != "COMPLETED":
        print("job %s ended %s" % (id, row["State"]))
        continue
    eligible, start, end = epoch(row["Eligible"]), epoch(row["Start"]), epoch(row["End"])
    if abs(eligible - int(sub["scheduled"])) > 1:
        print("job %s eligible at %+d s of its moment" % (id, eligible - int(sub["scheduled"])))
    if start < eligible or start < epoch(row["Submit"]):
        print("job %s started before it arrived" % id)
    if abs((end - start) - int(job["runtime"])) > 2:
        print("job %s ran %d s, not %s s" % (id, end - start, job["runtime"]))
    if int(row["TimelimitRaw"]) != int(job["limit_min"]):
        print("job %s limit %s min, not %s" % (id, row["TimelimitRaw"], job["limit_min"]))
PY
check_equal "40 jobs planned, submitted and in sacct" "count plan=40 submitted=40 sacct=40" \
	"$(head -n 1 "$work/problems.txt")"
check_equal "each job ran as its user's login (rp101, rp202), completed, arrived at its moment (1 s), started after it arrived, ran its compressed time (2 s) under its whole-minute limit" \
	"" "$(tail -n +2 "$work/problems.txt" | head -5)"
check_equal "two local users, one per trace user" "rp101 rp202" \
	"$(cut -d, -f2 "$work/bundle/jobs.csv" | tail -n +2 | sort -u | tr '\n' ' ' | sed 's/ $//')"
check "the plan notes state the limit rounding" grep -q 'limits: whole minutes, rounded up' "$work/bundle/plan-notes.txt"
check "the observed row's utilization is a number above 0" python3 -c '
import csv, sys
rows = {r["metric"]: r for r in csv.DictReader(open(sys.argv[1]))}
sys.exit(0 if float(rows["utilization"]["observed/log"]) > 0 else 1)' "$work/bundle/report/comparison.csv"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
