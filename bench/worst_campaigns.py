#!/usr/bin/env python3
"""What the worst campaign is, trace-load by trace-load, in a bench/compare.sh output (issue 12).

The goal line "all campaigns' max" compares one campaign per run: the worst by bounded stretch
(flow over max(lower bound, tau), tau = 10 s). For POLICY (default ostrich/conservative) at every
trace and load of OUT/runs, this prints that campaign: its user, jobs, CPUs, run times and time
limits (read from the trace: SWF field 9), its flow, and the flow of the same campaign under each
baseline of the run (fairshare/easy, fairtree/easy); then the baselines' own worst, which the goal
divides by. Last, how many of the worst campaigns are short jobs under long limits (every job's
run under a tenth of its limit): the jobs a plan by limits books for hours.

    bench/worst_campaigns.py OUT TRACE.swf[.gz] ...      (POLICY in the environment)
"""
import glob
import gzip
import os
import sys

import campsim_csv

TAU_S = 10
BASELINES = ("fairshare/easy", "fairtree/easy")


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def trace_limits(path):
    """SWF job number -> requested time (field 9), -1 where the log has none."""
    limits = {}
    with open_text(path) as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith(";") or len(fields) < 9:
                continue
            limits[int(fields[0])] = int(float(fields[8]))
    return limits


def limits_text(job_limits):
    """'limits 300-3600 s', with how many are unknown (SWF -1, or 0: none given)."""
    known = [lim for lim in job_limits if lim > 0]
    unknown = len(job_limits) - len(known)
    if not known:
        return "limits unknown"
    text = f"limits {min(known)}-{max(known)} s"
    return text + (f" ({unknown} unknown)" if unknown else "")


def bounded(row):
    return row["flow_s"] / max(row["lower_bound_s"], TAU_S)


def read(path, whole=(), real=()):
    """A campsim run file's rows; bad input stops the script, named."""
    return campsim_csv.read_or_exit("worst_campaigns.py", path, whole, real)


def read_campaigns(folder, policy):
    """(the files' prefix, campaigns by id) of one policy's run in a run folder, or None."""
    name = policy.replace("/", "_")
    found = glob.glob(os.path.join(folder, "p*", name + ".campaigns.csv"))
    if not found:
        return None
    prefix = found[0][: -len(".campaigns.csv")]
    rows = read(prefix + ".campaigns.csv", whole=("campaign",), real=("flow_s", "lower_bound_s"))
    return prefix, {row["campaign"]: row for row in rows if row["flow_s"] >= 0}  # finished ones


def campaign_jobs(prefix, campaign):
    """The jobs of one campaign in a run's jobs.csv."""
    jobs = read(prefix + ".jobs.csv", whole=("campaign", "run_s", "job_id", "cpus"))
    return [row for row in jobs if row["campaign"] == campaign]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: worst_campaigns.py OUT TRACE.swf[.gz] ...")
    out, traces = sys.argv[1], sys.argv[2:]
    policy = os.environ.get("POLICY", "ostrich/conservative")
    by_name = {}
    for trace in traces:
        name = os.path.basename(trace)
        for suffix in (".gz", ".swf"):
            name = name[: -len(suffix)] if name.endswith(suffix) else name
        by_name[name] = trace
    limits_of = {}
    short_long, counted = 0, 0
    print(f"== the worst campaign of {policy} (bounded stretch, tau = {TAU_S} s) per trace-load,"
          f" and the same campaign's flow under the baselines")
    for folder in sorted(glob.glob(os.path.join(out, "runs", "*@*"))):
        trace, _, load = os.path.basename(folder).rpartition("@")
        ours = read_campaigns(folder, policy)
        if ours is None or trace not in by_name:
            continue
        if trace not in limits_of:
            limits_of[trace] = trace_limits(by_name[trace])
        limits = limits_of[trace]
        prefix, campaigns = ours
        if not campaigns:
            print(f"{trace}@{load}: no campaign finished")
            continue
        worst = max(campaigns.values(), key=bounded)
        members = campaign_jobs(prefix, worst["campaign"])
        runs = [j["run_s"] for j in members]
        job_limits = [limits.get(j["job_id"], -1) for j in members]
        known = [(r, lim) for r, lim in zip(runs, job_limits) if lim > 0]
        is_short_long = bool(known) and len(known) == len(runs) and all(r * 10 < lim for r, lim in known)
        counted += 1
        short_long += is_short_long
        cpus = sorted({j["cpus"] for j in members})
        print(f"{trace}@{load}: campaign {worst['campaign']} of user {worst['user']}:"
              f" {len(members)} job(s) of {','.join(map(str, cpus))} CPUs, run {min(runs)}-{max(runs)} s"
              f" under {limits_text(job_limits)}"
              f"{' (short under long limits)' if is_short_long else ''};"
              f" flow {worst['flow_s'] / 86400:.1f} d, bounded stretch {bounded(worst):.0f}")
        for baseline in BASELINES:
            theirs = read_campaigns(folder, baseline)
            if theirs is None:
                continue
            if not theirs[1]:
                continue
            same = theirs[1].get(worst["campaign"])
            own = max(theirs[1].values(), key=bounded)
            same_text = f"{same['flow_s'] / 86400:.1f} d" if same else "not run"
            print(f"  {baseline}: that campaign's flow {same_text}; its own worst"
                  f" {bounded(own):.0f} (user {own['user']}, {own['jobs']} job(s),"
                  f" flow {own['flow_s'] / 86400:.1f} d)")
    print(f"worst_campaigns: {short_long} of {counted} worst campaigns of {policy} are short jobs"
          f" under long limits (every run under a tenth of its limit)")


if __name__ == "__main__":
    main()
