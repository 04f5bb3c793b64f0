#!/usr/bin/env python3
"""Checks that two campsim runs scheduled every job alike: for each POLICY.jobs.csv found in
both output directories (campsim run --out), every job's start and end times must be equal.
A speed change to the planner or the simulator must keep them (issue 12 point 1).

    bench/same_schedules.py BEFORE_DIR AFTER_DIR [BEFORE_DIR AFTER_DIR ...]

Prints one line per policy file compared and exits 1 on the first difference it reports
(the job, both starts), or when a pair of directories has no jobs file in common."""
import csv
import os
import sys


def schedule(path):
    with open(path) as f:
        return {row["job_index"]: (row["start_s"], row["end_s"]) for row in csv.DictReader(f)}


def compare(before_dir, after_dir):
    names = sorted(n for n in os.listdir(before_dir) if n.endswith(".jobs.csv"))
    common = [n for n in names if os.path.exists(os.path.join(after_dir, n))]
    if not common:
        print(f"same_schedules: no POLICY.jobs.csv in both {before_dir} and {after_dir}")
        return False
    same = True
    for name in common:
        before = schedule(os.path.join(before_dir, name))
        after = schedule(os.path.join(after_dir, name))
        differ = [job for job in before if before[job] != after.get(job)]
        differ += [job for job in after if job not in before]
        if differ:
            job = differ[0]
            print(f"DIFFERENT {after_dir}/{name}: {len(differ)} of {len(before)} jobs, first "
                  f"job_index {job}: start,end {before.get(job)} before, {after.get(job)} after")
            same = False
        else:
            print(f"same {after_dir}/{name}: {len(before)} jobs")
    return same


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    results = [compare(argv[i], argv[i + 1]) for i in range(0, len(argv), 2)]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
