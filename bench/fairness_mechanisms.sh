#!/usr/bin/env bash
# Benchmark (not a test): issue 12's goal lines on synthetic workloads, one per mechanism
# (bench/mechanism_workloads.py: wide jobs with loose limits, job arrays, multi-day jobs, many
# users, loose limits for everyone, one heavy user). The shared logs are five machines; the goal is
# checked on logs we do not have, so each shape a site may have is replayed on its own, over
# several seeds, and judged by bench/fairness_goal.sh against the easy set (fairshare/easy and
# fairtree/easy). Prints, per workload, load, candidate and line, the seeds passing and the
# median ratio [min, max], then each candidate's lines passed per seed, in
# bench/fairness_goal_spread.sh's table (each seed one of its replicas).
#
#   bench/fairness_mechanisms.sh
#
# Env: BUILD_DIR, CANDIDATES, BASELINE (default easy), as bench/fairness_goal.sh; SEEDS (default
# "1 2 3"), DAYS (each workload's span before --load scales it; default 14), WORKLOADS (default
# all six; comma-separated, the generator's --only), LOADS (default "0.85 0.95"), OUT (kept
# output, the table in spread.txt; default a temporary directory).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
read -r -a seeds <<<"${SEEDS:-1 2 3}"
days=${DAYS:-14}
read -r -a loads <<<"${LOADS:-0.85 0.95}"
export BASELINE=${BASELINE:-easy}
out=${OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/workloads"
[ ${#seeds[@]} -gt 0 ] || { echo "fairness_mechanisms: SEEDS is empty" >&2; exit 2; }
for seed in "${seeds[@]}"; do
	[[ $seed =~ ^[0-9]+$ ]] || { echo "fairness_mechanisms: seed '$seed' is not a whole number" >&2; exit 2; }
done
# Each workload, load and seed is one replica of bench/fairness_goal_spread.sh's table (a seed in
# the column of a replica's load): fairness_goal.sh judges it, done.tsv lists it, and the spread's
# TABLE_ONLY mode prints each line as seeds passing / seeds, median [min, max], and the lines a
# seed passes on average ("per replay").
started=$(date +%s)
: >"$out/done.tsv"
for seed in "${seeds[@]}"; do
	python3 "$repo/bench/mechanism_workloads.py" "$out/workloads" --seed "$seed" --days "$days" \
		${WORKLOADS:+--only "$WORKLOADS"} >"$out/workloads/s$seed.txt"
	while IFS= read -r trace; do
		name=$(basename "$trace" .swf.gz)
		name=${name%-s"$seed"}
		for load in "${loads[@]}"; do
			dir=$out/$name/$load/s$seed
			mkdir -p "$dir"
			# fairness_goal.sh exits 1 when a line fails: that is a result here, not an error.
			OUT=$dir/goal LOADS=$load bash "$repo/bench/fairness_goal.sh" "$trace" >"$dir/goal.txt" 2>&1 || true
			if grep -q "campsim failed" "$dir/goal.txt"; then
				grep "campsim failed" "$dir/goal.txt" >&2
				exit 1
			fi
			printf '%s\t%s\t%s\t%s\n' "$name" "$load" "s$seed" "$dir/goal.txt" >>"$out/done.tsv"
		done
	done < <(sed -n 's/: [0-9]* jobs$//p' "$out/workloads/s$seed.txt")
done
OUT=$out TABLE_ONLY=yes LOADS="${loads[*]}" bash "$repo/bench/fairness_goal_spread.sh" # and spread.txt
echo "fairness_mechanisms: ${#seeds[@]} seeds in $(($(date +%s) - started)) s; output in $out"
