#!/usr/bin/env python3
"""Where a replay's observed schedule and campsim's prediction part, job by job
(doc/replay-results.md, "Why the ostrich medians differ").

  scripts/replay_gap.py BUNDLE [--report DIR] [--late-s S]

Joins, by Slurm's job id, the observed schedule (REPORT/observed_log.jobs.csv, from the sacct
export) and the prediction (the other *.jobs.csv in REPORT, default BUNDLE/report) and prints:
- the first second (from the first arrival): how many jobs each schedule started, by user,
  and whether the cluster started them in job-id order (slurmctld.log.gz's start lines);
- per campaign (campsim's metric campaigns, the same jobs in both when both schedules agree):
  its user's group (light: bottom half of the users by CPU-seconds; heavy: top tenth), its
  first start, flow and bounded stretch in each schedule, and how many of its jobs started
  more than --late-s seconds (default 3) after their predicted start, and their
  replay-seconds late in all;
- the seconds when an eligible pending job fitted the free CPUs (one pool; every job of the
  ostrich workload is 8 CPUs on 32-CPU nodes, so a fit is a real one), in each schedule.
"""

import argparse
import csv
import glob
import gzip
import json
import math
import os
import re
import sys
from collections import Counter

START = re.compile(r"sched/campaign: started JobId=(\d+)|sched: Allocate JobId=(\d+)"
                   r"|_start_job: Started JobId=(\d+)")


def die(message):
    print("replay_gap: " + message, file=sys.stderr)
    sys.exit(1)


def read_jobs(path):
    try:
        with open(path) as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        die("%s: %s" % (path, error))
    needed = {"job_id", "user", "campaign", "cpus", "submit_s", "start_s", "end_s"}
    if not rows or needed - set(rows[0]):
        die("%s: no jobs, or no column %s" % (path, ", ".join(sorted(needed - set(rows[0] if
                                                                               rows else {})))))
    return {int(r["job_id"]): {"user": int(r["user"]), "campaign": int(r["campaign"]),
                               "cpus": int(r["cpus"]), "submit": int(r["submit_s"]),
                               "start": int(r["start_s"]), "end": int(r["end_s"])}
            for r in rows}


def prediction_path(report):
    found = [p for p in glob.glob(os.path.join(report, "*.jobs.csv"))
             if os.path.basename(p) != "observed_log.jobs.csv"]
    if len(found) != 1:
        die("%s: expected observed_log.jobs.csv and one prediction's *.jobs.csv, found %s"
            % (report, ", ".join(sorted(os.path.basename(p) for p in found)) or "none"))
    return found[0]


def user_groups(jobs):
    """light (bottom half by CPU-seconds) and heavy (top tenth) users, as campsim's metrics
    (src/sim/metrics/user_groups.cc; ties by user number)."""
    load = Counter()
    for job in jobs.values():
        load[job["user"]] += (job["end"] - job["start"]) * job["cpus"]
    users = sorted(load, key=lambda u: (load[u], u))
    light = set(users[:len(users) // 2])
    heavy = set(sorted(load, key=lambda u: (-load[u], u))[:math.ceil(len(users) / 10)])
    return {u: "heavy" if u in heavy else "light" if u in light else "-" for u in users}


def log_start_order(bundle, t0):
    """Job ids started in the first second, in the log's order; None without a log."""
    path = os.path.join(bundle, "slurmctld.log.gz")
    if not os.path.isfile(path):
        return None
    from datetime import datetime, timezone
    order = []
    with gzip.open(path, "rt", errors="replace") as handle:
        for line in handle:
            match = re.match(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)", line)
            started = START.search(line)
            if not match or not started:
                continue
            when = datetime.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S").replace(
                tzinfo=timezone.utc).timestamp()
            if int(when) == t0:
                order.append(int(next(g for g in started.groups() if g)))
    return order


def idle_fits(jobs, total_cpus):
    t0 = min(j["submit"] for j in jobs.values())
    span = max(j["end"] for j in jobs.values()) - t0 + 1
    busy, smallest = [0] * span, [None] * span
    for job in jobs.values():
        for second in range(job["start"] - t0, job["end"] - t0):
            busy[second] += job["cpus"]
        for second in range(job["submit"] - t0, job["start"] - t0):
            if smallest[second] is None or job["cpus"] < smallest[second]:
                smallest[second] = job["cpus"]
    fits = [s for s in range(span) if smallest[s] is not None
            and total_cpus - busy[s] >= smallest[s]]
    return len(fits), sum(total_cpus - busy[s] for s in fits)


def campaigns_of(jobs, tau_s):
    by_campaign = {}
    for job_id, job in jobs.items():
        by_campaign.setdefault(job["campaign"], []).append(job_id)
    rows = {}
    for campaign, ids in by_campaign.items():
        members = [jobs[i] for i in ids]
        submit = min(j["submit"] for j in members)
        start = min(j["start"] for j in members)
        end = max(j["end"] for j in members)
        rows[campaign] = {"user": members[0]["user"], "ids": set(ids), "submit": submit,
                          "start": start, "flow": end - submit}
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundle")
    parser.add_argument("--report", help="campsim's report directory (default BUNDLE/report)")
    parser.add_argument("--late-s", type=int, default=3)
    args = parser.parse_args()
    if args.late_s < 0:
        parser.error("--late-s %d: seconds >= 0" % args.late_s)
    report = args.report or os.path.join(args.bundle, "report")
    try:
        with open(os.path.join(args.bundle, "parameters.json")) as handle:
            params = json.load(handle)["parameters"]
        total = int(params["nodes"]) * int(params["node_cpus"])
    except (OSError, ValueError, KeyError) as error:
        die("%s: no usable parameters.json (%s)" % (args.bundle, error))
    observed = read_jobs(os.path.join(report, "observed_log.jobs.csv"))
    predicted_path = prediction_path(report)
    predicted = read_jobs(predicted_path)
    if set(observed) != set(predicted):
        die("%s and %s: not the same jobs" % ("observed_log.jobs.csv",
                                              os.path.basename(predicted_path)))
    t0 = min(j["submit"] for j in observed.values())
    groups = user_groups(observed)
    print("%s: %d jobs; prediction %s" % (os.path.basename(os.path.normpath(args.bundle)),
                                          len(observed), os.path.basename(predicted_path)))

    def first_second(jobs):
        started = [i for i, j in jobs.items() if j["start"] == t0]
        users = Counter(jobs[i]["user"] for i in started)
        return len(started), " ".join("%d:%d" % item for item in sorted(users.items()))

    count, users = first_second(observed)
    order = log_start_order(args.bundle, t0)
    in_order = ("no log" if order is None else
                "started in job-id order" if order == sorted(order) else
                "not in job-id order")
    print("first second: observed %d started (user:jobs %s; %s)" % (count, users, in_order))
    count, users = first_second(predicted)
    print("              predicted %d started (user:jobs %s)" % (count, users))

    tau = 10.0 / float(params.get("compress") or 1)
    seen, expected = campaigns_of(observed, tau), campaigns_of(predicted, tau)
    print("%-8s %4s %-5s %4s | %-26s | %-26s | %s" % (
        "campaign", "user", "group", "jobs", "observed: start flow stretch",
        "predicted: start flow stretch", "late jobs, s late"))
    for campaign in sorted(seen):
        mine = seen[campaign]
        theirs = expected.get(campaign)
        late = [observed[i]["start"] - predicted[i]["start"] for i in mine["ids"]
                if observed[i]["start"] - predicted[i]["start"] > args.late_s]

        def cells(row, jobs):
            if row is None:
                return "%26s" % "(no such campaign)"
            bound = max(max(jobs[i]["end"] - jobs[i]["start"] for i in row["ids"]),
                        sum((jobs[i]["end"] - jobs[i]["start"]) * jobs[i]["cpus"]
                            for i in row["ids"]) / total, tau)
            return "%8d %6d %10.3g" % (row["start"] - t0, row["flow"], row["flow"] / bound)

        print("%-8d %4d %-5s %4d | %s | %s | %d, %d" % (
            campaign, mine["user"], groups[mine["user"]], len(mine["ids"]),
            cells(mine, observed), cells(theirs, predicted), len(late), sum(late)))
    for name, jobs in (("observed", observed), ("predicted", predicted)):
        seconds, idle_cpu_s = idle_fits(jobs, total)
        print("%-9s: %d s with an eligible job fitting the free CPUs, %.1f CPUs free then "
              "(mean), %d CPU-s" % (name, seconds, idle_cpu_s / seconds if seconds else 0,
                                     idle_cpu_s))
    return 0


if __name__ == "__main__":
    sys.exit(main())
