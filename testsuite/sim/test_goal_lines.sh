#!/usr/bin/env bash
# bench/goal_lines.py, issue 12's goal lines (fairness_goal.sh and compare.sh judge with it), on
# made-up figures whose verdicts are known: the light line's floor (0.7x above a baseline of
# 1.5, 1.1x at or below it), the better (lower) of the two baselines, utilization within one
# point either way, the better/equal/worse counts, and a policy or baseline pair that is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
judge="$here/../../bench/goal_lines.py"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

# One trace-load: fairshare, fairtree and ours, metric -> value.
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
s = "bounded_campaign_stretch."
def run(trace, policy, light, all95, amax, heavy, util):
    return {"trace": trace, "load": "log", "policy": policy,
            "metrics": {s + "light_cpu.p95": light, s + "all.p95": all95, s + "all.max": amax,
                        s + "heavy_cpu.p95": heavy, "utilization": util}}
runs = [
    # a: the light baseline 10 (fairtree's, the lower): 7.0 is 0.70x, PASS; all p95 1.1x PASS;
    # max 1.2x FAIL; heavy 1.25x PASS; utilization 0.5 points above the better 0.80: PASS.
    run("a", "fairshare/easy", 12, 10, 100, 8, 0.80),
    run("a", "fairtree/easy", 10, 11, 120, 9, 0.79),
    run("a", "ostrich/conservative", 7.0, 11, 120, 10, 0.805),
    # b: light baseline 1.5 (not above the floor): 1.65 is 1.1x, PASS; utilization 1.5 points
    # above: FAIL (within one point either way); all p95 0.5x, max 0.95x, heavy 1.3x FAIL.
    run("b", "fairshare/easy", 1.5, 4, 100, 2, 0.70),
    run("b", "fairtree/easy", 1.6, 5, 100, 3, 0.69),
    run("b", "ostrich/conservative", 1.65, 2, 95, 2.6, 0.715),
    # c: light 0.71x above the floor: FAIL; utilization 1.2 points below: FAIL.
    run("c", "fairshare/easy", 2.0, 4, 10, 2, 0.90),
    run("c", "fairtree/easy", 3.0, 4, 10, 2, 0.80),
    run("c", "ostrich/conservative", 1.42, 4, 10, 2, 0.888),
    # d: ours only, no baseline pair: not judged.
    run("d", "ostrich/conservative", 1, 1, 1, 1, 1),
]
json.dump({"runs": runs}, open(os.path.join(work, "compare.json"), "w"))
# The same trace-load a as campsim's comparison.txt with the baselines, then ours.
with open(os.path.join(work, "table.txt"), "w") as f:
    for metric in runs[0]["metrics"]:
        f.write(f"{metric} {runs[0]['metrics'][metric]} {runs[1]['metrics'][metric]} "
                f"{runs[2]['metrics'][metric]}\n")
PY

check "judges compare.json" eval 'python3 "$judge" compare "$work/compare.json" >"$work/goal.txt"'
verdicts() { # TRACE: the five verdicts of one trace-load
	awk -v place="$1@log: ostrich/conservative" '$0 == place { n = 5; next }
		n > 0 { printf "%s%s", $NF, (--n ? " " : "\n") }' "$work/goal.txt"
}
check_equal "a: light 0.70x PASS, all p95 1.1x PASS, max 1.2x FAIL, heavy 1.25x PASS, +0.5 points PASS" \
	"PASS PASS FAIL PASS PASS" "$(verdicts a)"
check_equal "b: light 1.1x of a baseline at the floor PASS, heavy 1.3x FAIL, +1.5 points FAIL" \
	"PASS PASS PASS FAIL FAIL" "$(verdicts b)"
check_equal "c: light 0.71x FAIL, -1.2 points FAIL" "FAIL PASS PASS PASS FAIL" "$(verdicts c)"
check "d, without a fair-share pair, is not judged" not grep -q "^d@" "$work/goal.txt"
check "the count: 10 of 15 lines PASS" \
	grep -q "^goal_lines: ostrich/conservative against easy: 10 of 15 lines PASS$" "$work/goal.txt"
tally() { awk -v line="$1" '$0 ~ "^" line " " { print $(NF - 3), $(NF - 2), $(NF - 1), $NF }' "$work/goal.txt"; }
check_equal "light p95: 2 met; 2 better (0.70x, 0.71x), 1 equal (1.1x), none worse" "2 2 1 0" "$(tally "light p95")"
check_equal "all max: 2 met; 0.95x and 1.0x equal, 1.2x worse" "2 0 2 1" "$(tally "all max")"
check_equal "utilization: 1 met; +1.5 better, +0.5 equal, -1.2 worse" "1 1 1 1" "$(tally "utilization")"
check "no site or one-day set in this file" not grep -q "against site\|against easy-1d" "$work/goal.txt"
check "a policy the file does not hold is an error" not \
	python3 "$judge" compare "$work/compare.json" --policy faircamp/per_campaign
check "an unknown option is an error" not python3 "$judge" compare "$work/compare.json" --polcy x
# table mode (fairness_goal.sh): the same five lines as trace-load a of the JSON.
check "table mode prints a's lines" cmp <(python3 "$judge" table "$work/table.txt") \
	<(awk '$0 == "a@log: ostrich/conservative" { n = 5; next } n-- > 0' "$work/goal.txt")
finish
