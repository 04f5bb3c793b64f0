#!/usr/bin/env python3
# Diagnosis (not a test): does a policy keep a queue where another clears it? Reads campsim's run
# files and prints, per time bin and policy, the jobs waiting at the bin's middle, their work in
# hours of the whole machine (run time x CPUs over the machine's CPUs), and the bin's
# utilization. Two policies with the same utilization bin by bin, one with a standing queue and
# one without, differ in what they do with a queue, not in capacity: a queue left by a burst that
# one policy drains and the other carries for months (doc/fairness-results.md, "Stop 69").
#
#   bench/backlog_series.py RUN_DIR CPUS [--step SECONDS] [--from SECONDS] [--to SECONDS]
#
# RUN_DIR: campsim run --out (every *.jobs.csv in it, one policy each); CPUS: the machine's;
# --step: the bin, default four days; --from/--to: the bins printed (simulated seconds on the log's
# own clock, default from the first submission to the last end). Each row: the bin's number, the
# day of its middle, and per policy the jobs waiting then, their machine-hours and the bin's
# utilization; the last lines give, per policy, the samples with a queue, the last bin with one,
# and the mean machine-hours waiting. A job the run never started (start_s -1) waits at every
# sample after its submission, with its log run time as its work.
import argparse
import csv
import glob
import os
import sys

DAY_S = 86400


def fail(message):
    print(f"backlog_series: {message}", file=sys.stderr)
    sys.exit(2)


def read_jobs(path):
    """(submit, start, end, cpus, work in CPU-seconds) per job; start and end None where the run
    never started it."""
    jobs = []
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            try:
                submit, start, end, width = (int(row[key]) for key in ("submit_s", "start_s", "end_s", "cpus"))
                if start < 0:  # never started: campsim writes -1
                    jobs.append((submit, None, None, width, width * int(row["trace_runtime_s"])))
                else:
                    jobs.append((submit, start, end, width, width * (end - start)))
            except (KeyError, TypeError, ValueError):
                fail(f"{path}: line {len(jobs) + 2} lacks a whole submit_s, start_s, end_s or cpus"
                     " (or trace_runtime_s for a job never started)")
    return jobs


def series(jobs, cpus, step, first_bin, last_bin):
    """Per bin k in [first_bin, last_bin]: (jobs waiting at its middle, their work in machine-hours,
    the bin's utilization)."""
    count = last_bin - first_bin + 1
    busy = [0.0] * count
    waiting = [0] * count
    backlog = [0.0] * count
    for submit, start, end, width, work in jobs:
        if start is not None:  # a job never started keeps no CPU busy
            begin = max(start, first_bin * step)
            stop = min(end, (last_bin + 1) * step)
            while begin < stop:
                index = begin // step
                bin_end = min(stop, (index + 1) * step)
                busy[index - first_bin] += width * (bin_end - begin)
                begin = bin_end
        # A job waits at the middles of the bins in [submit, start).
        lo = max(first_bin, -(-(2 * submit - step) // (2 * step)))  # first k with k*step + step/2 >= submit
        for index in range(lo, last_bin + 1):
            middle = index * step + step / 2
            if start is not None and middle >= start:
                break
            waiting[index - first_bin] += 1
            backlog[index - first_bin] += work / cpus / 3600
    return [(waiting[i], backlog[i], busy[i] / (cpus * step)) for i in range(count)]


def main():
    parser = argparse.ArgumentParser(description="jobs waiting and utilization per time bin, per policy")
    parser.add_argument("run_dir")
    parser.add_argument("cpus")
    parser.add_argument("--step", default=str(4 * DAY_S))
    parser.add_argument("--from", dest="from_s", default=None)
    parser.add_argument("--to", dest="to_s", default=None)
    args = parser.parse_args()
    numbers = {}
    for name, text in (("CPUS", args.cpus), ("--step", args.step), ("--from", args.from_s), ("--to", args.to_s)):
        if text is None:
            continue
        if not text.isdigit() or (name in ("CPUS", "--step") and int(text) == 0):
            fail(f"{name} '{text}' is not a whole number of {'CPUs' if name == 'CPUS' else 'seconds'}"
                 + (" above 0" if name in ("CPUS", "--step") else ""))
        numbers[name] = int(text)
    cpus, step = numbers["CPUS"], numbers["--step"]
    if not os.path.isdir(args.run_dir):
        fail(f"no folder {args.run_dir}")
    paths = sorted(glob.glob(os.path.join(args.run_dir, "*.jobs.csv")))
    if not paths:
        fail(f"no *.jobs.csv in {args.run_dir}")
    runs = [(os.path.basename(path)[: -len(".jobs.csv")], read_jobs(path)) for path in paths]
    last_time = max((job[2] for _, jobs in runs for job in jobs if job[2] is not None), default=0)
    first_submit = min((job[0] for _, jobs in runs for job in jobs), default=0)
    # Logs keep their own clock (campsim does not rebase submit times): start at the first submission.
    start_s = numbers.get("--from", first_submit)
    first_bin = start_s // step
    last_bin = max(0, min(numbers.get("--to", last_time), last_time) - 1) // step
    if last_bin < first_bin:
        fail(f"--from {start_s} is after the run's last end or --to")
    tables = [(name, series(jobs, cpus, step, first_bin, last_bin)) for name, jobs in runs]
    print("bin   day   " + "".join(f" | {name[:26]:>26}" for name, _ in tables))
    print("            " + "".join(f" | {'waiting':>7} {'mach-h':>8} {'util':>5}" for _ in tables))
    for offset in range(last_bin - first_bin + 1):
        day = ((first_bin + offset) * step + step / 2) / DAY_S
        cells = "".join(f" | {t[offset][0]:7d} {t[offset][1]:8.1f} {t[offset][2]:5.2f}" for _, t in tables)
        print(f"{first_bin + offset:5d} {day:6.1f}{cells}")
    for name, table in tables:
        queued = [offset for offset, (count, _, _) in enumerate(table) if count > 0]
        last = str(first_bin + queued[-1]) if queued else "none"
        mean = sum(backlog for _, backlog, _ in table) / len(table)
        print(f"{name} samples_with_queue {len(queued)} of {len(table)} last_queue_bin {last} "
              f"mean_backlog_h {mean:.1f}")


if __name__ == "__main__":
    main()
