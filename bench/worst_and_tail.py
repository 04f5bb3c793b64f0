#!/usr/bin/env python3
"""Which job ends last and which campaign is worst in a campsim run, per policy (issue 12).

campsim's utilization is sum(run x cpus) / (m x (last end - first submit)), so a policy loses
it only by ending later. Per policy of RUN_DIR (campsim run --out RUN_DIR): the last jobs to end,
the machine's use in the last hours, the work run after the last submission by user, the wide
jobs' (at least a third of the machine) waits, and the worst campaigns by bounded stretch
(tau = 10 s) with how many later-submitted jobs started before their first job.

    bench/worst_and_tail.py CPUS RUN_DIR
"""
import collections
import glob
import os
import sys

import campsim_csv

TAU_S = 10


def report(prefix, m):
    jobs = campsim_csv.read_or_exit(
        "worst_and_tail.py", prefix + ".jobs.csv",
        whole=("cpus", "submit_s", "start_s", "end_s", "wait_s", "run_s", "campaign", "user",
               "job_id"))
    campaigns = campsim_csv.read_or_exit(
        "worst_and_tail.py", prefix + ".campaigns.csv",
        whole=("campaign", "user", "jobs", "submit_s", "end_s", "flow_s", "lower_bound_s"))
    if not jobs:
        print(f"== {os.path.basename(prefix)}: no jobs")
        return
    # Utilization counts the work that ran. A job never started then waits until the run's last
    # end; one never ended runs until it.
    work = sum(max(j["run_s"], 0) * j["cpus"] for j in jobs if j["start_s"] >= 0)
    last_end = max(j["end_s"] for j in jobs)
    never = 0
    for j in jobs:
        if j["start_s"] < 0:
            never += 1
            j["start_s"], j["wait_s"] = last_end, last_end - j["submit_s"]
        if j["end_s"] < 0:
            j["end_s"] = last_end
    campaigns = [c for c in campaigns if c["flow_s"] >= 0]
    first_submit = min(j["submit_s"] for j in jobs)
    last_submit = max(j["submit_s"] for j in jobs)
    span = max(last_end - first_submit, 1)
    print(f"== {os.path.basename(prefix)}: utilization {work / (m * span):.4f},"
          f" last end {last_end}, {(last_end - last_submit) / 86400:.1f} d after the last submission")
    if never:
        print(f"   {never} jobs never started (counted as waiting until the last end)")
    for j in sorted(jobs, key=lambda j: -j["end_s"])[:5]:
        print(f"   ends {j['end_s']}: job {j['job_id']} user {j['user']} {j['cpus']} CPUs, "
              f"run {j['run_s']} s, waited {j['wait_s'] / 86400:.1f} d")
    for hours in (1, 24, 168):
        at = last_end - hours * 3600
        busy = sum(j["cpus"] for j in jobs if j["start_s"] <= at < j["end_s"])
        queued = [j for j in jobs if j["submit_s"] <= at < j["start_s"]]
        print(f"   {hours} h before the end: {busy} of {m} CPUs busy, {len(queued)} jobs queued")
    tail = collections.Counter()
    for j in jobs:
        run_from = max(j["start_s"], last_submit)
        if j["end_s"] > run_from:
            tail[j["user"]] += (j["end_s"] - run_from) * j["cpus"]
    top = ", ".join(f"user {u} {w / m / 86400:.1f}" for u, w in tail.most_common(2))
    print(f"   after the last submission: {sum(tail.values()) / m / 86400:.1f} machine-days "
          f"({top})")
    waits = sorted(j["wait_s"] for j in jobs if 3 * j["cpus"] >= m)
    if waits:
        print(f"   wide jobs (>= m/3): {len(waits)}, wait mean {sum(waits) / len(waits) / 86400:.1f}"
              f" d, p95 {waits[int(0.95 * len(waits))] / 86400:.1f} d, max {waits[-1] / 86400:.1f} d")
    for c in sorted(campaigns, key=lambda c: -c["flow_s"] / max(c["lower_bound_s"], TAU_S))[:3]:
        own = [j for j in jobs if j["campaign"] == c["campaign"]]
        head = min(own, key=lambda j: j["submit_s"])
        passed = [j for j in jobs if j["submit_s"] > head["submit_s"]
                  and j["start_s"] < head["start_s"]]
        print(f"   worst campaign {c['campaign']} (user {c['user']}, {c['jobs']} jobs, "
              f"{sorted({j['cpus'] for j in own})} CPUs): bounded stretch "
              f"{c['flow_s'] / max(c['lower_bound_s'], TAU_S):.0f}, flow {c['flow_s'] / 86400:.1f} d;"
              f" {len(passed)} later jobs started before it "
              f"({sum(j['cpus'] * j['run_s'] for j in passed) / m / 86400:.1f} machine-days)")


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        sys.exit("usage: worst_and_tail.py CPUS RUN_DIR")
    prefixes = sorted(p[:-len(".jobs.csv")] for p in glob.glob(sys.argv[2] + "/*.jobs.csv"))
    if not prefixes:
        sys.exit(f"worst_and_tail.py: no *.jobs.csv in {sys.argv[2]}")
    for prefix in prefixes:
        report(prefix, int(sys.argv[1]))


if __name__ == "__main__":
    main()
