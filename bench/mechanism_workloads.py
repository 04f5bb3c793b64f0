#!/usr/bin/env python3
"""Synthetic workloads, one per mechanism, as SWF logs for bench/fairness_goal.sh.

The fairness goal is checked on logs we do not have, so the default is judged here on workload
shapes the five shared logs do not stress: each file below isolates one shape a site may have
(doc/fairness-results.md, "Mechanism workloads"). A 128-CPU machine (the SP2 logs' size) for
DAYS days; jobs run as their SWF run time, ask for their limit, and never exceed it.

  wide_loose    a heavy user's 64-CPU jobs of hours that run half their limits, a second heavy
                user's streams of 1-CPU jobs, a third's 16-CPU jobs; eight light users
  arrays        a heavy user's bursts of 300-800 one-CPU jobs twice a day, another's 32-CPU jobs;
                eight light users
  long_jobs     two users with 32-CPU jobs of one to three days, a busy stream of 4-16 CPUs
  many_users    150 users with one or two campaigns each (1-32 CPUs), two heavy users with
                16-64 CPU jobs: most users are light and their jobs are not short
  loose_limits  every user's limits ten times their runs
  one_heavy     one user owns most of the work, in campaigns of up to 40 jobs of one width
                (4-64 CPUs); twelve light users

Light users submit campaigns of 3-10 jobs of 1-8 CPUs, one to thirty minutes each, limits 1.2-4
times the run. The same seed gives the same files.

  bench/mechanism_workloads.py OUTDIR [--seed S] [--days D] [--only NAME[,NAME...]]
"""
import argparse
import gzip
import io
import os
import random
import sys

CPUS = 128
SCENARIOS = ("wide_loose", "arrays", "long_jobs", "many_users", "loose_limits", "one_heavy")


class Workload:
    def __init__(self, rng, days):
        self.rng = rng
        self.span = days * 86400
        self.jobs = []  # (submit, user, cpus, limit, run)

    def job(self, user, submit, cpus, limit, run):
        limit = max(60, int(limit))
        self.jobs.append((int(submit), user, cpus, limit, max(1, min(int(run), limit))))

    def arrivals(self, mean_gap_s, start=0.0):
        """Poisson arrival times over the span."""
        t = start
        while t < self.span:
            yield t
            t += self.rng.expovariate(1 / mean_gap_s)

    def stream(self, user, mean_gap_s, cpus, run_s, limit_factor, start=0.0):
        """Jobs arriving one at a time: a run drawn from run_s (low, high), then the CPUs
        (a number, or a list to choose from); the limit limit_factor times the run."""
        for t in self.arrivals(mean_gap_s, start):
            run = self.rng.uniform(*run_s)
            width = self.rng.choice(cpus) if isinstance(cpus, list) else cpus
            self.job(user, t, width, run * limit_factor, run)

    def bursts(self, user, mean_gap_s, count, limit_s, run_s):
        """Bursts of `count` (low, high) one-CPU jobs, one limit for all, runs from run_s."""
        for t in self.arrivals(mean_gap_s):
            for _ in range(self.rng.randint(*count)):
                self.job(user, t, 1, limit_s, self.rng.uniform(*run_s))

    def light_users(self, first=11, count=8, every_s=6 * 3600, limit_factor=(1.2, 4)):
        r = self.rng
        for user in range(first, first + count):
            for t in self.arrivals(every_s, r.uniform(0, every_s)):
                cpus = r.choice([1, 2, 4, 8])
                for _ in range(r.randint(3, 10)):
                    run = r.uniform(60, 1800)
                    self.job(user, t + r.uniform(0, 60), cpus, run * r.uniform(*limit_factor),
                             run)


def wide_loose(w):
    w.stream(1, 7200, 64, (2 * 3600, 6 * 3600), 2)
    w.bursts(2, 3600, (20, 60), 4 * 3600, (600, 3600))
    w.stream(3, 3000, 16, (3600, 3 * 3600), 1.5)
    w.light_users()


def arrays(w):
    w.bursts(1, 12 * 3600, (300, 800), 3 * 3600, (300, 2400))
    w.stream(2, 5400, 32, (3600, 4 * 3600), 2)
    w.light_users()


def long_jobs(w):
    r = w.rng
    for user in (1, 2):
        w.stream(user, 1.5 * 86400, 32, (86400, 3 * 86400), 1.5, start=r.uniform(0, 86400))
    w.stream(3, 900, [4, 8, 16], (600, 7200), 3)
    w.light_users()


def many_users(w):
    r = w.rng
    for user in range(100, 250):
        for _ in range(r.randint(1, 2)):
            t, cpus = r.uniform(0, w.span), r.choice([1, 4, 16, 32])
            for _ in range(r.randint(1, 20)):
                run = r.uniform(300, 4 * 3600)
                w.job(user, t, cpus, run * r.uniform(1.2, 5), run)
    for user in (1, 2):
        w.stream(user, 4000, [16, 32, 64], (3600, 8 * 3600), 2)


def loose_limits(w):
    for user in (1, 2, 3):
        w.stream(user, 3600, [8, 16, 32, 64], (600, 6 * 3600), 10)
    w.light_users(limit_factor=(8, 12))


def one_heavy(w):
    r = w.rng
    for t in w.arrivals(3 * 3600):
        cpus, typical = r.choice([4, 8, 16, 32, 64]), r.uniform(0.5, 6) * 3600
        for _ in range(r.randint(1, 40)):
            w.job(1, t, cpus, typical * 2, typical * r.uniform(0.5, 1.2))
    w.light_users(count=12)


def write_swf(path, name, seed, days, jobs):
    jobs.sort(key=lambda job: job[0])
    # mtime 0: the same seed gives the same bytes.
    with gzip.GzipFile(path, "wb", mtime=0) as raw, io.TextIOWrapper(raw) as out:
        out.write(f"; Computer: synthetic ({name}, bench/mechanism_workloads.py)\n")
        out.write(f"; Note: seed {seed}, {days} days\n")
        out.write(f"; MaxProcs: {CPUS}\n; MaxNodes: {CPUS}\n")
        for index, (submit, user, cpus, limit, run) in enumerate(jobs, 1):
            # SWF's 18 fields: id submit wait run procs cpu mem req_procs req_time req_mem
            # status user group app queue partition preceding think
            out.write(f"{index} {submit} -1 {run} {cpus} -1 -1 {cpus} {limit} -1 1 {user} 1 "
                      "-1 -1 -1 -1 -1\n")


def refuse(problem):
    print(f"mechanism_workloads: {problem}", file=sys.stderr)
    sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("outdir")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--days", type=int, default=14)
    parser.add_argument("--only", default=",".join(SCENARIOS))
    args = parser.parse_args()
    names = [name for name in args.only.split(",") if name]
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        refuse(f"unknown workload '{unknown[0]}' (known: {', '.join(SCENARIOS)})")
    if not names:
        refuse("--only names no workload")
    if args.days < 1:
        refuse(f"--days {args.days} is not at least 1")
    os.makedirs(args.outdir, exist_ok=True)
    for name in names:
        workload = Workload(random.Random(f"{name}/{args.seed}"), args.days)
        globals()[name](workload)
        path = os.path.join(args.outdir, f"{name}-s{args.seed}.swf.gz")
        write_swf(path, name, args.seed, args.days, workload.jobs)
        print(f"{path}: {len(workload.jobs)} jobs")


if __name__ == "__main__":
    main()
