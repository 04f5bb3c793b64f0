#!/usr/bin/env python3
"""Where a campsim run's utilization goes (issue 12, "utilization within 1 point").

campsim's utilization is sum(run x cpus) / (m x (last end - first submit)): every policy does
the same work, so it differs only by the makespan. This splits a run's schedule at the last
submission: the busy period [first submit, last submit], where the scheduler chooses what runs
while work still arrives, and the tail (last submit, last end], where it drains what is left.

  bench/utilization_split.py CPUS RUN_DIR_OR_JOBS_CSV... [--window DAYS]

For each *.jobs.csv (campsim run --out DIR writes one per policy) it prints the utilization,
the busy period's utilization (CPU-seconds run inside it over m x its length), the tail's length
and CPU-seconds, the busy period's queued work at its end (CPU-seconds submitted but not run by
the last submission), the CPU-hours left idle while a job waited (free CPUs at times when some
job was submitted and not started: what an order or a plan lost to packing, as the queue saw it)
and the part of them in which the narrowest waiting job fit (the plan held the CPUs: a
reservation drained them, or the room for short jobs kept them from a long job; the rest is
a queue of jobs all wider than the free CPUs)
and, with --window, the busy fraction and those idle CPU-hours per window of DAYS days.
"""
import bisect
import glob
import os
import sys

import campsim_csv


def jobs_files(paths):
    for path in paths:
        if not os.path.exists(path):
            raise FileNotFoundError(path)
        if os.path.isdir(path):
            yield from sorted(glob.glob(os.path.join(path, "*.jobs.csv")))
        else:
            yield path


def load(path):
    """(the jobs that started, as (submit, start, end, cpus); the submissions and widths of those
    that never did). campsim writes -1 as the start and end of a job it never started, and as
    the end of one still running when the run stopped: the first waits, the second runs, until
    the run's last end."""
    started, never = [], []
    for job in campsim_csv.read(path, whole=("submit_s", "start_s", "end_s", "cpus")):
        submit, start, end, width = (job[c] for c in ("submit_s", "start_s", "end_s", "cpus"))
        if start < 0:
            never.append((submit, width))
        else:
            started.append((submit, start, end, width))
    last_end = max((end for _, _, end, _ in started), default=0)
    started = [(submit, start, end if end >= 0 else max(last_end, start), width)
               for submit, start, end, width in started]
    return started, never


def overlap(start, end, lo, hi):
    return max(0.0, min(end, hi) - max(start, lo))


def idle_while_waiting(jobs, cpus, never=()):
    """The spans in which at least one job waited, as (from, to, free CPUs, whether the
    narrowest waiting job fit in them). A job never started waits until the last end."""
    events = [(submit, 0, 1, width) for submit, width in never]
    for submit, start, end, width in jobs:
        events += [(submit, 0, 1, width), (start, width, -1, width), (end, -width, 0, width)]
    events.sort()
    busy = 0
    waiting = []  # the waiting jobs' widths, ascending
    last = events[0][0]
    spans = []
    for at, used, queued, width in events:
        if waiting and at > last:
            spans.append((last, at, cpus - busy, cpus - busy >= waiting[0]))
        busy += used
        if queued > 0:
            bisect.insort(waiting, width)
        elif queued < 0:
            del waiting[bisect.bisect_left(waiting, width)]
        last = at
    return spans


def split(jobs, cpus, window_s, never=()):
    submits = [job[0] for job in jobs] + [submit for submit, _ in never]
    first = min(submits)
    last_submit = max(submits)
    last_end = max(job[2] for job in jobs)
    area = sum((end - start) * width for _, start, end, width in jobs)
    busy_area = sum(overlap(start, end, first, last_submit) * width
                    for _, start, end, width in jobs)
    tail_area = area - busy_area
    result = {
        "utilization": area / (cpus * (last_end - first)),
        # Every job submitted at once: no busy period to divide by.
        "busy_utilization": (busy_area / (cpus * (last_submit - first))
                             if last_submit > first else None),
        "tail_days": (last_end - last_submit) / 86400,
        "tail_cpu_days": tail_area / 86400,
        "tail_share": tail_area / area,
        "span_days": (last_end - first) / 86400,
    }
    idle = idle_while_waiting(jobs, cpus, never)
    result["idle_waiting_cpu_h"] = sum((hi - lo) * free for lo, hi, free, _ in idle) / 3600
    # Of those, the CPU-hours in which some waiting job fit: held by the plan (a reservation's
    # drain, the room for short jobs), not by the waiting jobs' widths.
    result["idle_fitting_cpu_h"] = sum((hi - lo) * free for lo, hi, free, fits in idle
                                       if fits) / 3600
    if window_s:
        windows = []
        idle_windows = []
        lo = first
        while lo < last_end:
            hi = lo + window_s
            windows.append(sum(overlap(start, end, lo, hi) * width
                               for _, start, end, width in jobs) / (cpus * window_s))
            idle_windows.append(sum(overlap(begin, end, lo, hi) * free
                                    for begin, end, free, _ in idle) / 3600)
            lo = hi
        result["windows"] = windows
        result["idle_windows_cpu_h"] = idle_windows
    return result


def main(argv):
    window_s = 0
    if "--window" in argv:
        at = argv.index("--window")
        window_s = float(argv[at + 1]) * 86400
        del argv[at:at + 2]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        cpus = int(argv[0])
    except ValueError:
        print(f"utilization_split: CPUS '{argv[0]}' is not a number", file=sys.stderr)
        return 2
    if cpus <= 0:
        print(f"utilization_split: CPUS {cpus} is not positive", file=sys.stderr)
        return 2
    try:
        files = list(jobs_files(argv[1:]))
    except FileNotFoundError as missing:
        print(f"utilization_split: no such file or directory: {missing}", file=sys.stderr)
        return 2
    if not files:
        print(f"utilization_split: no *.jobs.csv in {' '.join(argv[1:])}", file=sys.stderr)
        return 2
    print(f"{'run':44} {'util':>7} {'busy':>7} {'tail d':>7} {'tail CPU-d':>10} {'tail %':>6}"
          f" {'idle CPU-h while waiting':>24} {'of it, a job fit':>16}")
    for path in files:
        try:
            jobs, never = load(path)
        except ValueError as bad:
            print(f"utilization_split: {bad}", file=sys.stderr)
            return 2
        if not jobs:
            print(f"utilization_split: no job started in {path}", file=sys.stderr)
            return 1
        r = split(jobs, cpus, window_s, never)
        name = os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path)
        busy = r["busy_utilization"]
        busy_text = f"{busy:7.4f}" if busy is not None else f"{'-':>7}"
        print(f"{name[-44:]:44} {r['utilization']:7.4f} {busy_text} "
              f"{r['tail_days']:7.2f} {r['tail_cpu_days']:10.1f} {100 * r['tail_share']:6.2f}"
              f" {r['idle_waiting_cpu_h']:24.1f} {r['idle_fitting_cpu_h']:16.1f}")
        if never:
            print(f"  {len(never)} jobs never started (they wait until the last end)")
        if window_s:
            print("  windows: " + " ".join(f"{w:.3f}" for w in r["windows"]))
            print("  idle CPU-h while waiting: " +
                  " ".join(f"{w:.1f}" for w in r["idle_windows_cpu_h"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
