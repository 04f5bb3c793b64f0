#!/usr/bin/env python3
# Diagnosis (not a test): were light users' worst campaigns stopped by the order or by capacity?
# Reads campsim's run files and prints, per policy, light users' p95 bounded campaign stretch and,
# of their campaigns at or above it, how many found fewer free CPUs than their first job needs at
# its submission (capacity-blocked: no order of the queue could have started it then); and, over
# every wait of those campaigns' jobs (submission to start), the hours waited and the part of
# them during which at least the job's CPUs were free (held: the CPUs were there, the plan gave
# them to nobody yet: a higher-ranked job's reservation drained them, or the room for short jobs
# kept them from a long job).
#
#   bench/light_tail_capacity.py RUN_DIR CPUS     (RUN_DIR: campsim run --out; CPUS: the machine's)
#
# Light users: the bottom half by the log's CPU-seconds (run time x CPUs), campsim's light_cpu;
# bounded stretch: flow / max(lower bound, 10 s), as in campsim's comparison table.
import bisect
import glob
import os
import sys

import campsim_csv

TAU_S = 10


def light_users(jobs):
    load = {}
    for job in jobs:
        runtime = max(0, job["trace_runtime_s"])
        load[job["user"]] = load.get(job["user"], 0) + runtime * job["cpus"]
    ordered = sorted(load, key=lambda user: (load[user], int(user)))
    return set(ordered[: len(ordered) // 2])


def busy_profile(jobs):
    """The times at which the busy CPUs change (ascending) and the busy CPUs from each on."""
    change = {}
    for job in jobs:
        if job["state"] != "finished":
            continue
        width = job["cpus"]
        change[job["start_s"]] = change.get(job["start_s"], 0) + width
        change[job["end_s"]] = change.get(job["end_s"], 0) - width
    times, busy, level = [], [], 0
    for at in sorted(change):
        level += change[at]
        times.append(at)
        busy.append(level)
    return times, busy


def busy_at(profile, at):
    """Busy CPUs at `at`: a job submitted in the second another ends sees that end (the
    simulator's order)."""
    times, busy = profile
    index = bisect.bisect_right(times, at) - 1
    return busy[index] if index >= 0 else 0


def free_seconds(profile, cpus, since, until, width):
    """Seconds of [since, until) during which at least `width` of the `cpus` were free."""
    times, busy = profile
    index = bisect.bisect_right(times, since) - 1
    free, at = 0, since
    while at < until:
        step_end = min(times[index + 1] if index + 1 < len(times) else until, until)
        if cpus - (busy[index] if index >= 0 else 0) >= width:
            free += step_end - at
        at = step_end
        index += 1
    return free


def diagnose(prefix, cpus):
    jobs = campsim_csv.read_or_exit(
        "light_tail_capacity", prefix + ".jobs.csv",
        whole=("cpus", "submit_s", "start_s", "end_s", "trace_runtime_s"))
    campaigns = campsim_csv.read_or_exit("light_tail_capacity", prefix + ".campaigns.csv",
                                         real=("flow_s", "lower_bound_s"))
    campaigns = [c for c in campaigns if c["flow_s"] >= 0]  # a campaign never finished: no stretch
    light = light_users(jobs)
    first = {}
    for job in jobs:
        known = first.get(job["campaign"])
        if known is None or job["submit_s"] < known["submit_s"]:
            first[job["campaign"]] = job

    def stretch(campaign):
        return campaign["flow_s"] / max(campaign["lower_bound_s"], TAU_S)

    scored = [c for c in campaigns if c["user"] in light]
    if not scored:
        return None
    values = sorted(stretch(c) for c in scored)
    p95 = values[int(0.95 * (len(values) - 1))]
    tail = [c for c in scored if stretch(c) >= p95]
    profile = busy_profile(jobs)
    blocked = 0
    for campaign in tail:
        job = first[campaign["campaign"]]
        blocked += cpus - busy_at(profile, job["submit_s"]) < job["cpus"]
    in_tail = {campaign["campaign"] for campaign in tail}
    waited = held = 0
    for job in jobs:
        if job["campaign"] in in_tail and job["state"] == "finished":
            since, until = job["submit_s"], job["start_s"]
            waited += until - since
            held += free_seconds(profile, cpus, since, until, job["cpus"])
    return p95, len(tail), blocked, waited, held


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: light_tail_capacity.py RUN_DIR CPUS")
    if not sys.argv[2].isdigit() or int(sys.argv[2]) == 0:
        sys.exit(f"light_tail_capacity: CPUS '{sys.argv[2]}' is not a number of CPUs")
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
        p95, tail, blocked, waited, held = result
        held_share = f"{held / waited:.2f}" if waited else "-"
        print(f"{name} light_p95 {p95:.1f} tail_campaigns {tail} capacity_blocked {blocked} "
              f"share {blocked / tail:.2f} tail_wait_h {waited / 3600:.1f} held_share {held_share}")


main()
