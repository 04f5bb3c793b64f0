#!/usr/bin/env python3
# Diagnosis (not a test): were light users' worst campaigns stopped by the order or by capacity?
# Reads campsim's run files and prints, per policy, light users' p95 bounded campaign stretch and,
# of their campaigns at or above it, how many found fewer free CPUs than their first job needs at
# its submission (capacity-blocked: no order of the queue could have started it then).
#
#   bench/light_tail_capacity.py RUN_DIR CPUS     (RUN_DIR: campsim run --out; CPUS: the machine's)
#
# Light users: the bottom half by the log's CPU-seconds (run time x CPUs), campsim's light_cpu;
# bounded stretch: flow / max(lower bound, 10 s), as in campsim's comparison table.
import csv
import glob
import os
import sys

TAU_S = 10


def light_users(jobs):
    load = {}
    for job in jobs:
        runtime = max(0, int(job["trace_runtime_s"]))
        load[job["user"]] = load.get(job["user"], 0) + runtime * int(job["cpus"])
    ordered = sorted(load, key=lambda user: (load[user], int(user)))
    return set(ordered[: len(ordered) // 2])


def busy_cpus_at(times, jobs):
    """Busy CPUs at each of `times` (ascending), from the jobs' start and end (a sweep)."""
    events = sorted(
        [(int(j["start_s"]), int(j["cpus"])) for j in jobs if j["state"] == "finished"]
        + [(int(j["end_s"]), -int(j["cpus"])) for j in jobs if j["state"] == "finished"]
    )
    busy, index, answer = 0, 0, []
    for t in times:
        while index < len(events) and events[index][0] <= t:
            busy += events[index][1]
            index += 1
        answer.append(busy)
    return answer


def diagnose(prefix, cpus):
    jobs = list(csv.DictReader(open(prefix + ".jobs.csv")))
    campaigns = list(csv.DictReader(open(prefix + ".campaigns.csv")))
    light = light_users(jobs)
    first = {}
    for job in jobs:
        known = first.get(job["campaign"])
        if known is None or int(job["submit_s"]) < int(known["submit_s"]):
            first[job["campaign"]] = job

    def stretch(campaign):
        return float(campaign["flow_s"]) / max(float(campaign["lower_bound_s"]), TAU_S)

    scored = [c for c in campaigns if c["user"] in light]
    if not scored:
        return None
    values = sorted(stretch(c) for c in scored)
    p95 = values[int(0.95 * (len(values) - 1))]
    tail = sorted((c for c in scored if stretch(c) >= p95), key=lambda c: int(first[c["campaign"]]["submit_s"]))
    submits = [int(first[c["campaign"]]["submit_s"]) for c in tail]
    # A job submitted in the second another ends sees that end (the simulator's order).
    busy = busy_cpus_at(submits, jobs)
    blocked = sum(
        1 for campaign, used in zip(tail, busy) if cpus - used < int(first[campaign["campaign"]]["cpus"])
    )
    return p95, len(tail), blocked


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: light_tail_capacity.py RUN_DIR CPUS")
    run_dir, cpus = sys.argv[1], int(sys.argv[2])
    prefixes = sorted(p[: -len(".campaigns.csv")] for p in glob.glob(os.path.join(run_dir, "*.campaigns.csv")))
    if not prefixes:
        sys.exit(f"light_tail_capacity: no *.campaigns.csv in {run_dir}")
    for prefix in prefixes:
        result = diagnose(prefix, cpus)
        name = os.path.basename(prefix)
        if result is None:
            print(f"{name} no_light_campaigns")
            continue
        p95, tail, blocked = result
        print(f"{name} light_p95 {p95:.1f} tail_campaigns {tail} capacity_blocked {blocked} "
              f"share {blocked / tail:.2f}")


main()
