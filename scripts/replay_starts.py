#!/usr/bin/env python3
"""How promptly a replay's cluster started jobs (doc/replay-results.md, "Starts on the cluster").

  scripts/replay_starts.py BUNDLE... [--min-free-s S]

Per bundle of scripts/replay.py, from its sacct export (the cluster as one pool of nodes x CPUs,
whole seconds) and, where the bundle kept it, slurmctld's log (slurmctld.log.gz, or
slurmctld.log):
- refused starts: sched/campaign's "start of JobId=N refused" lines (each job is then held out
  of the plan for a minute);
- idle with a job that fits: seconds when some eligible pending job asked for no more CPUs than
  were free, and the mean free CPUs over those seconds; jobs that waited at least --min-free-s
  seconds (default 3) with their own CPUs free. Reservations (a wide job's CPUs kept for it) and
  node fragmentation are not modelled: read these as an upper bound of lost capacity;
- from the log: the time from each job end with a job pending to the next start (the start
  latency a job end leaves), mean, p50, p90 and max.
"""

import argparse
import gzip
import json
import os
import re
import sys
from datetime import datetime, timezone

START = re.compile(
    r"sched/campaign: started JobId=|sched: Allocate JobId=|_start_job: Started JobId=")
END = re.compile(r"_job_complete: JobId=\d+ done")
REFUSED = re.compile(r"sched/campaign: start of JobId=\d+ refused")


def die(message):
    print("replay_starts: " + message, file=sys.stderr)
    sys.exit(1)


def epoch(text):
    return int(datetime.strptime(text, "%Y-%m-%dT%H:%M:%S").replace(
        tzinfo=timezone.utc).timestamp())


def read_jobs(bundle):
    """The export's jobs: cpus, eligible, start, end (epoch seconds as sacct printed them)."""
    path = os.path.join(bundle, "sacct.txt")
    with open(path) as handle:
        lines = handle.read().splitlines()
    if not lines:
        die("%s: empty" % path)
    header = lines[0].split("|")
    missing = {"JobID", "Submit", "Eligible", "Start", "End", "AllocCPUS"} - set(header)
    if missing:
        die("%s: no field %s in its header" % (path, ", ".join(sorted(missing))))
    jobs = []
    for number, line in enumerate(lines[1:], 2):
        row = dict(zip(header, line.split("|")))
        if "." in row["JobID"] or row["Start"] in ("Unknown", "None", ""):
            continue  # a step, or never started
        try:
            eligible = row["Eligible"] if row["Eligible"] not in ("Unknown", "None", "") \
                else row["Submit"]
            jobs.append({"cpus": int(row["AllocCPUS"]), "eligible": epoch(eligible),
                         "start": epoch(row["Start"]), "end": epoch(row["End"])})
        except ValueError as error:
            die("%s line %d: %s" % (path, number, error))
    if not jobs:
        die("%s: no job that started" % path)
    return jobs


def pool_idle(jobs, total_cpus, min_free_s):
    """Seconds with free CPUs an eligible pending job fits in, their mean free CPUs, and the
    jobs that waited min_free_s seconds or more with their own CPUs free."""
    t0 = min(j["eligible"] for j in jobs)
    span = max(j["end"] for j in jobs) - t0 + 1
    busy = [0] * span
    smallest_pending = [None] * span
    for job in jobs:
        for second in range(job["start"] - t0, job["end"] - t0):
            busy[second] += job["cpus"]
        for second in range(job["eligible"] - t0, job["start"] - t0):
            if smallest_pending[second] is None or job["cpus"] < smallest_pending[second]:
                smallest_pending[second] = job["cpus"]
    fits = [s for s in range(span)
            if smallest_pending[s] is not None and total_cpus - busy[s] >= smallest_pending[s]]
    waited_free = sum(
        1 for job in jobs
        if sum(1 for s in range(job["eligible"] - t0, job["start"] - t0)
               if total_cpus - busy[s] >= job["cpus"]) >= min_free_s)
    mean_free = sum(total_cpus - busy[s] for s in fits) / len(fits) if fits else 0.0
    return len(fits), mean_free, waited_free, sum(1 for j in jobs if j["start"] > j["eligible"])


def read_log(bundle):
    for name in ("slurmctld.log.gz", "slurmctld.log"):
        path = os.path.join(bundle, name)
        if os.path.isfile(path):
            opener = gzip.open if name.endswith(".gz") else open
            with opener(path, "rt", errors="replace") as handle:
                return path, handle.read().splitlines()
    return None, None


def log_starts(lines, jobs):
    """Refused starts, and the gaps from each job end (with a job pending then) to the next
    start, from slurmctld's log lines."""
    refused, events = 0, []
    for line in lines:
        match = re.match(r"\[(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?\] (.*)", line)
        if not match:
            continue
        when = epoch(match.group(1)) + float(match.group(2) or 0)
        text = match.group(3)
        if REFUSED.search(text):
            refused += 1
        elif START.search(text):
            events.append((when, "start"))
        elif END.search(text):
            events.append((when, "end"))
    pending_at = {}
    for job in jobs:
        for second in range(job["eligible"], job["start"]):
            pending_at[second] = pending_at.get(second, 0) + 1
    gaps, open_ends = [], []
    for when, kind in sorted(events):
        if kind == "end":
            if pending_at.get(int(when), 0):
                open_ends.append(when)
        else:
            gaps += [when - end for end in open_ends]
            open_ends = []
    return refused, sorted(gaps)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("bundles", nargs="+", metavar="BUNDLE")
    parser.add_argument("--min-free-s", type=int, default=3)
    args = parser.parse_args()
    if args.min_free_s < 1:
        parser.error("--min-free-s %d: seconds >= 1" % args.min_free_s)
    for bundle in args.bundles:
        try:
            with open(os.path.join(bundle, "parameters.json")) as handle:
                params = json.load(handle)["parameters"]
            total = int(params["nodes"]) * int(params["node_cpus"])
        except (OSError, ValueError, KeyError) as error:
            die("%s: no usable parameters.json (%s)" % (bundle, error))
        jobs = read_jobs(bundle)
        seconds, mean_free, waited_free, waited = pool_idle(jobs, total, args.min_free_s)
        print("%s: %d jobs, %d waited; %d waited >= %d s with their CPUs free; %d s with an "
              "eligible job fitting the free CPUs, %.1f of %d CPUs free then (mean)"
              % (os.path.basename(os.path.normpath(bundle)), len(jobs), waited, waited_free,
                 args.min_free_s, seconds, mean_free, total))
        path, lines = read_log(bundle)
        if lines is None:
            print("  no slurmctld log in the bundle: refused starts and latency unknown")
            continue
        refused, gaps = log_starts(lines, jobs)
        latency = ("mean %.2f s, p50 %.2f, p90 %.2f, max %.2f (%d job ends)"
                   % (sum(gaps) / len(gaps), gaps[len(gaps) // 2], gaps[int(len(gaps) * 0.9)],
                      gaps[-1], len(gaps)) if gaps else "no job end with a job pending")
        print("  %s: %d refused starts; job end to next start: %s"
              % (os.path.basename(path), refused, latency))
    return 0


if __name__ == "__main__":
    sys.exit(main())
