#!/usr/bin/env python3
"""Issue 12's goal lines, the one place they are judged (bench/fairness_goal.sh, bench/compare.sh).

Against the better of a baseline set's two fair-share policies (fairshare and fairtree):
  light users' p95 bounded campaign stretch <= 0.7x where that baseline is above 1.5, else 1.1x
  (light: bottom half of users by CPU-seconds); all campaigns' p95 and max <= 1.1x; heavy users'
  (top 10 %) p95 <= 1.25x; utilization within 1 point of the better (higher) baseline.

  goal_lines.py table FILE
      FILE: campsim's comparison.txt with three value columns, the two baselines then ours (as
      fairness_goal.sh pastes them). Prints the five judged lines; exits 0.
  goal_lines.py compare COMPARE.json [--policy P]
      bench/compare.sh's JSON: P (default ostrich/conservative, the policy the plugins run with no
      parameters) at every trace and load, against each baseline set the run holds (easy:
      fairshare/easy and fairtree/easy; site: fairshare/site and fairtree/site; easy-1d: the
      one-day half-life). Prints every line with PASS/FAIL, the count per set, and per goal line
      how many trace-loads are better, equal or worse than fair-share (stretch: ratio below 0.9,
      0.9-1.1, above 1.1; utilization: more than 1 point above, within 1, more than 1 below).
"""
import json
import sys

STRETCH = "bounded_campaign_stretch."
# (label, metric, goal ratio, floor, goal ratio where the baseline is not above the floor)
STRETCH_LINES = [
    ("light users' p95 (by CPU-seconds)", STRETCH + "light_cpu.p95", 0.7, 1.5, 1.1),
    ("all campaigns' p95", STRETCH + "all.p95", 1.1, None, None),
    ("all campaigns' max", STRETCH + "all.max", 1.1, None, None),
    ("heavy users' p95 (top 10 %)", STRETCH + "heavy_cpu.p95", 1.25, None, None),
]
UTILIZATION = "utilization"
SHORT = ["light p95", "all p95", "all max", "heavy p95", "utilization"]
SETS = [("easy", "/easy"), ("site", "/site"), ("easy-1d", "/easy-1d")]


def number(text):
    """A metric as a number; missing or unreadable counts as 0 (a baseline of 0 fails the line)."""
    try:
        return float(text)
    except (TypeError, ValueError):
        return 0.0


def judge(ours, baselines):
    """The five lines: ours and baselines map metric -> value. Returns dicts with label, ours,
    base, ratio (utilization: points), goal, passed and the printed text."""
    lines = []
    for label, metric, goal, floor, floor_goal in STRETCH_LINES:
        mine = number(ours.get(metric))
        base = min(number(b.get(metric)) for b in baselines)
        if floor is not None and base <= floor:
            goal = floor_goal
        passed = base > 0 and mine <= goal * base + 1e-9
        ratio = mine / base if base > 0 else 0.0
        text = (f"  {label:<34} ours {mine:9.2f}  fair-share {base:9.2f}  ratio {ratio:5.2f}  "
                f"goal <= {goal:.2f}x  {'PASS' if passed else 'FAIL'}")
        lines.append(dict(label=label, ours=mine, base=base, ratio=ratio, goal=goal,
                          passed=passed, text=text))
    mine = number(ours.get(UTILIZATION))
    base = max(number(b.get(UTILIZATION)) for b in baselines)
    points = 100 * (mine - base)
    passed = -1 <= points <= 1
    text = (f"  {'utilization':<34} ours {mine:9.4f}  fair-share {base:9.4f}  {points:+5.1f} points  "
            f"goal within 1  {'PASS' if passed else 'FAIL'}")
    lines.append(dict(label="utilization", ours=mine, base=base, ratio=points, goal=1.0,
                      passed=passed, text=text))
    return lines


def standing(line):
    """better, equal or worse than fair-share, whatever the goal says."""
    if line["label"] == "utilization":
        points = line["ratio"]
        return "better" if points > 1 + 1e-9 else "worse" if points < -1 - 1e-9 else "equal"
    if line["base"] <= 0:
        return "worse"
    ratio = line["ratio"]
    return "better" if ratio < 0.9 - 1e-9 else "worse" if ratio > 1.1 + 1e-9 else "equal"


def judge_table(path):
    columns = [{}, {}, {}]
    with open(path) as f:
        for row in f:
            fields = row.split()
            for i in range(3):
                if len(fields) > i + 1:
                    columns[i][fields[0]] = fields[i + 1]
    for line in judge(columns[2], columns[:2]):
        print(line["text"])
    return 0


def judge_compare(path, policy):
    runs = json.load(open(path))["runs"]
    metrics = {(r["trace"], r["load"], r["policy"]): r["metrics"] for r in runs}
    places = list(dict.fromkeys((r["trace"], r["load"]) for r in runs if r["policy"] == policy))
    if not places:
        print(f"goal_lines: no run of {policy} in {path}", file=sys.stderr)
        return 1
    judged_sets = 0
    for name, suffix in SETS:
        pairs = [(place, [metrics.get((*place, p + suffix)) for p in ("fairshare", "fairtree")])
                 for place in places]
        pairs = [(place, bases) for place, bases in pairs if all(bases)]
        if not pairs:
            continue
        judged_sets += 1
        print(f"== against {name}: the better of fairshare{suffix} and fairtree{suffix}")
        passes = total = 0
        tally = {short: {"better": 0, "equal": 0, "worse": 0, "pass": 0} for short in SHORT}
        for (trace, load), bases in pairs:
            print(f"{trace}@{load}: {policy}")
            for short, line in zip(SHORT, judge(metrics[(trace, load, policy)], bases)):
                print(line["text"])
                passes += line["passed"]
                total += 1
                tally[short][standing(line)] += 1
                tally[short]["pass"] += line["passed"]
        print(f"goal_lines: {policy} against {name}: {passes} of {total} lines PASS")
        print(f"{'line':<12} {'goal met':>9} {'better':>7} {'equal':>6} {'worse':>6}  (of {len(pairs)} trace-loads)")
        for short in SHORT:
            t = tally[short]
            print(f"{short:<12} {t['pass']:>9} {t['better']:>7} {t['equal']:>6} {t['worse']:>6}")
    if not judged_sets:
        print(f"goal_lines: no baseline pair beside {policy} in {path}", file=sys.stderr)
        return 1
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "table":
        return judge_table(argv[2])
    if len(argv) in (3, 5) and argv[1] == "compare":
        policy = "ostrich/conservative"
        if len(argv) == 5:
            if argv[3] != "--policy":
                print(f"goal_lines: unknown option '{argv[3]}'", file=sys.stderr)
                return 2
            policy = argv[4]
        return judge_compare(argv[2], policy)
    print("usage: goal_lines.py table FILE | compare COMPARE.json [--policy P]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
