#!/usr/bin/env python3
"""The cluster's plans beside campsim's, second by second (doc/replay.md, "Plans side by side").

  scripts/replay_plan_map.py BUNDLE [--from S] [--to S] [--users rp3,rp6]

BUNDLE must have been replayed with `--debug-flags Backfill,BackfillMap` (sched/campaign logs
one plan line per pass). campsim replays the bundle's prediction (its metrics command) with
`--dump-plan FROM-TO` and prints the same line. For each replay second from --from to --to
(default 0-120), one row per side (CL: the last pass of that second on the cluster, CS: campsim's
plan at that second): the room for short jobs, running jobs (and how many of them expect to end
within 30 s), the starts now, and for each chosen login the jobs placed and their first planned
starts in seconds from then. Env: BUILD_DIR or CAMPSIM, as scripts/replay.py.
"""

import argparse
import calendar
import csv
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from replay import campsim_binary  # BUILD_DIR or CAMPSIM, as replay.py finds it

LINE = re.compile(r"room=(\d+) running=(\S*) planned=(\S*)")
CLUSTER = re.compile(r"\[(\S+?)\.\d+\] BACKFILL_MAP: sched/campaign: plan (.*)")
CAMPSIM = re.compile(r"campsim: \S+ plan at (\d+) (.*)")
PLACED = re.compile(r"(\d+)@\+(-?\d+)/(\d+):")


def die(message):
    print("replay_plan_map: " + message, file=sys.stderr)
    sys.exit(1)


def epoch(text):
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%S"))


def summary(text, login_of, users):
    """One side's row: room, running, ending within 30 s, starts now, per login placements."""
    found = LINE.search(text)
    if not found:
        return None
    room, running, planned = found.groups()
    ends = [int(item.split(">+")[1]) for item in running.split(",") if item]
    placed = {user: [] for user in users}
    starts_now = 0
    for item in planned.split(","):
        job = PLACED.match(item)
        if not job:
            continue
        start = int(job.group(2))
        starts_now += start == 0
        login = login_of.get(int(job.group(1)))
        if login in placed:
            placed[login].append(start)
    columns = ["room %3s" % room, "running %2d (%2d end <= 30 s)" % (len(ends), sum(
        1 for end in ends if end <= 30)), "now %2d" % starts_now]
    for user in users:
        starts = sorted(placed[user])
        columns.append("%s %2d [%s]" % (user, len(starts), ",".join(map(str, starts[:8]))))
    return "  ".join(columns)


def cluster_rows(bundle, t0, first, last, login_of, users):
    rows = {}
    path = os.path.join(bundle, "slurmctld.log.gz")
    with gzip.open(path, "rt", errors="replace") as handle:
        for line in handle:
            found = CLUSTER.match(line)
            if found:
                second = epoch(found.group(1)) - t0
                if first <= second <= last:
                    rows[second] = summary(found.group(2), login_of, users)  # last pass wins
    if not rows:
        die("%s: no BackfillMap plan lines from %d to %d s (replayed with --debug-flags "
            "Backfill,BackfillMap?)" % (path, first, last))
    return rows


def campsim_rows(bundle, params, first, last, users):
    command = list(params["metrics_command"])
    if command[:1] == ["run"]:
        command = command[1:]
    if "--observed" in command:
        command.remove("--observed")
    if "--out" in command:
        del command[command.index("--out"):command.index("--out") + 2]
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([campsim_binary(), "run"] + command +
                              ["--dump-plan", "%d-%d" % (first, last), "--out", out],
                              capture_output=True, text=True)
        if done.returncode != 0:
            die("campsim failed: " + done.stderr.strip()[-800:])
        found = [name for name in os.listdir(out) if name.endswith(".jobs.csv")]
        if len(found) != 1:
            die("campsim wrote %d jobs.csv files, expected one prediction" % len(found))
        with open(os.path.join(out, found[0])) as handle:
            id_of = {int(row["job_index"]) + 1: int(row["job_id"])
                     for row in csv.DictReader(handle)}
    login_of = {index: LOGIN_OF_ID.get(job_id) for index, job_id in id_of.items()}
    t0 = params["summary"]["t0"]
    rows = {}
    for line in done.stderr.splitlines():
        found = CAMPSIM.match(line)
        if found:
            rows[int(found.group(1)) - t0] = summary(found.group(2), login_of, users)
    return rows


LOGIN_OF_ID = {}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundle")
    parser.add_argument("--from", dest="first", type=int, default=0)
    parser.add_argument("--to", dest="last", type=int, default=120)
    parser.add_argument("--users", default="", help="logins to follow, comma-separated")
    args = parser.parse_args()
    if args.last < args.first:
        die("--to before --from")
    with open(os.path.join(args.bundle, "parameters.json")) as handle:
        params = json.load(handle)
    with open(os.path.join(args.bundle, "sacct.txt")) as handle:
        for row in csv.DictReader(handle, delimiter="|"):
            if row["JobIDRaw"].isdigit():
                LOGIN_OF_ID[int(row["JobIDRaw"])] = row["User"]
    users = [user for user in args.users.split(",") if user]
    t0 = params["summary"]["t0"]
    cluster = cluster_rows(args.bundle, t0, args.first, args.last, LOGIN_OF_ID, users)
    campsim = campsim_rows(args.bundle, params, args.first, args.last, users)
    for second in range(args.first, args.last + 1):
        for side, rows in (("CL", cluster), ("CS", campsim)):
            if rows.get(second):
                print("%4d %s  %s" % (second, side, rows[second]))


if __name__ == "__main__":
    main()
