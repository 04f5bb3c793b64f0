#!/usr/bin/env python3
"""How close run-time predictors come to the runs of an SWF log (issue 12, the planner's estimate).

Offline, on the log's own timeline: a job's history is its user's jobs that ended (the log's
start + run) before it was submitted; runs are cut at the limit, as campsim runs them. For each
of the requested limit, Tsafrir's prediction (the mean of the user's last two runs, the limit
until one), Smith's templates (the same over the user's jobs of the same limit and CPUs,
Tsafrir's until one: campsim's --planner-pending similar) and the templates where they agree
(the longer of the template's last two runs when within 1.5x, else the limit: --planner-pending
consistent), prints the median of predicted over run, and the share of jobs within 2x, under by
more than 2x and over by more than 4x: over all jobs, then over the heavy users' (the top 10 %
by CPU-seconds, run x CPUs as the report's scoring counts them) and the others'.

    bench/predictor_accuracy.py LOG.swf[.gz]...
"""
import collections
import gzip
import heapq
import math
import sys


def read_jobs(path):
    """(submit, wait, run cut at the limit, cpus, limit or -1, user) per usable SWF line."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as log:
        for number, line in enumerate(log, 1):
            if line.startswith(";") or not line.strip():
                continue
            fields = line.split()
            if len(fields) < 12:
                sys.exit(f"{path}:{number}: {len(fields)} fields, an SWF line has 18")
            submit, wait, run, procs = (int(float(x)) for x in fields[1:5])
            requested_cpus, requested_time, user = (int(float(fields[i])) for i in (7, 8, 11))
            cpus = requested_cpus if requested_cpus > 0 else procs
            if run < 0 or cpus <= 0:
                continue
            limit = requested_time if requested_time > 0 else -1
            yield submit, max(wait, 0), min(run, limit) if limit >= 0 else run, cpus, limit, user


def mean_of(history, limit):
    """Mean of the last two runs (the last alone after one), within [1, limit]; None before."""
    if not history:
        return None
    mean = (sum(history) + (1 if len(history) == 2 else 0)) // len(history)
    return max(min(mean, limit), 1)


def accuracy(path):
    ended = []  # (end, user, run, limit, cpus) of jobs not yet in the histories
    by_user = collections.defaultdict(list)
    by_template = collections.defaultdict(list)
    names = ("limit", "tsafrir", "similar", "consistent")
    groups = ("all", "heavy", "others")
    log_ratios = {(group, name): [] for group in groups for name in names}
    jobs = sorted(read_jobs(path))
    cpu_s = collections.Counter()
    for _, _, run, cpus, _, user in jobs:
        cpu_s[user] += run * cpus
    ranked = sorted(cpu_s, key=lambda user: (-cpu_s[user], user))
    heavy = set(ranked[: math.ceil(len(ranked) / 10)])
    for submit, wait, run, cpus, limit, user in jobs:
        while ended and ended[0][0] <= submit:
            _, done_user, done_run, done_limit, done_cpus = heapq.heappop(ended)
            by_user[done_user] = (by_user[done_user] + [done_run])[-2:]
            template = (done_user, done_limit, done_cpus)
            by_template[template] = (by_template[template] + [done_run])[-2:]
        requested = max(limit if limit >= 0 else run, run, 1)
        tsafrir = mean_of(by_user[user], requested) or requested
        runs = by_template[(user, requested, cpus)]
        similar = mean_of(runs, requested) or tsafrir
        agree = len(runs) == 2 and 2 * max(runs) <= 3 * max(min(runs), 1)
        consistent = max(min(max(runs), requested), 1) if agree else requested
        group = "heavy" if user in heavy else "others"
        for name, guess in zip(names, (requested, tsafrir, similar, consistent)):
            ratio = math.log2(guess / max(run, 1))
            log_ratios[("all", name)].append(ratio)
            log_ratios[(group, name)].append(ratio)
        heapq.heappush(ended, (submit + wait + run, user, run, requested, cpus))
    print(f"{path.rsplit('/', 1)[-1]}: {len(jobs)} jobs, {len(heavy)} heavy users of {len(ranked)}")
    for (group, name), ratios in log_ratios.items():
        if not ratios:
            continue
        ratios.sort()
        count = len(ratios) or 1

        def share(test, ratios=ratios, count=count):
            return sum(1 for x in ratios if test(x)) / count

        print(f"  {group:6} {name:10} {len(ratios):6} jobs  median guess/run x{2 ** ratios[len(ratios) // 2]:.2f}  "
              f"within 2x {share(lambda x: abs(x) <= 1):.0%}  "
              f"under by >2x {share(lambda x: x < -1):.0%}  over by >4x {share(lambda x: x > 2):.0%}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for log_path in sys.argv[1:]:
        accuracy(log_path)
