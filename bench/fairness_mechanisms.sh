#!/usr/bin/env bash
# Benchmark (not a test): issue 12's goal lines on synthetic workloads, one per mechanism
# (bench/mechanism_workloads.py: wide jobs with loose limits, job arrays, multi-day jobs, many
# users, loose limits for everyone, one heavy user). The shared logs are five machines; the goal is
# checked on logs we do not have, so each shape a site may have is replayed on its own, over
# several seeds, and judged by bench/fairness_goal.sh against the easy set (fairshare/easy and
# fairtree/easy). Prints, per workload, load, candidate and line, the seeds passing and the
# median ratio [min, max], then each candidate's lines passed per seed.
#
#   bench/fairness_mechanisms.sh
#
# Env: BUILD_DIR, CANDIDATES, BASELINE (default easy), as bench/fairness_goal.sh; SEEDS (default
# "1 2 3"), DAYS (each workload's span before --load scales it; default 14), WORKLOADS (default
# all six, comma-separated), LOADS (default "0.85 0.95"), OUT (kept output; default a temporary
# directory).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
read -r -a seeds <<<"${SEEDS:-1 2 3}"
days=${DAYS:-14}
workloads=${WORKLOADS:-wide_loose,arrays,long_jobs,many_users,loose_limits,one_heavy}
out=${OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out/workloads"
[ ${#seeds[@]} -gt 0 ] || { echo "fairness_mechanisms: SEEDS is empty" >&2; exit 2; }
for seed in "${seeds[@]}"; do
	[[ $seed =~ ^[0-9]+$ ]] || { echo "fairness_mechanisms: seed '$seed' is not a whole number" >&2; exit 2; }
	python3 "$repo/bench/mechanism_workloads.py" "$out/workloads" --seed "$seed" --days "$days" \
		--only "$workloads" >/dev/null
done
started=$(date +%s)
for seed in "${seeds[@]}"; do
	traces=()
	IFS=, read -r -a names <<<"$workloads"
	for name in "${names[@]}"; do traces+=("$out/workloads/$name-s$seed.swf.gz"); done
	# fairness_goal.sh exits 1 when a line fails: that is a result here, not an error.
	OUT="$out/seed$seed" BASELINE=${BASELINE:-easy} LOADS=${LOADS:-0.85 0.95} \
		bash "$repo/bench/fairness_goal.sh" "${traces[@]}" >"$out/seed$seed.txt" 2>&1 || true
	if grep -q "campsim failed" "$out/seed$seed.txt"; then
		grep "campsim failed" "$out/seed$seed.txt" >&2
		exit 1
	fi
done

outputs=()
for seed in "${seeds[@]}"; do outputs+=("$out/seed$seed.txt"); done
# The judged lines of every seed, grouped by workload@load (the seed's suffix dropped), candidate
# and line: seeds passing / seeds, median [min, max] of the ratio (utilization: points).
awk -v seeds=${#seeds[@]} '
	function median(list, n,   sorted, i, j, t) {
		for (i = 1; i <= n; i++) sorted[i] = list[i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
				t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
			}
		return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
	}
	/^== / {
		block = $2; sub(/-s[0-9]+@/, "@", block); sub(/:$/, "", block)
		candidate = $0; sub(/^== [^ ]+ /, "", candidate); sub(/ against .*/, "", candidate)
		next
	}
	/^  .*(PASS|FAIL)$/ {
		line = substr($0, 3, 34); sub(/ +$/, "", line)
		value = ($0 ~ /points/) ? $(NF - 5) : $(NF - 4)
		key = block SUBSEP candidate SUBSEP line
		if (!(key in count)) order[++keys] = key
		count[key]++; values[key, count[key]] = value + 0
		if ($NF == "PASS") { passed[key]++; by_candidate[candidate]++ }
		candidates[candidate] = 1
	}
	END {
		for (k = 1; k <= keys; k++) {
			key = order[k]; split(key, part, SUBSEP)
			n = count[key]; lo = hi = values[key, 1]
			for (i = 1; i <= n; i++) {
				list[i] = values[key, i]
				if (list[i] < lo) lo = list[i]
				if (list[i] > hi) hi = list[i]
			}
			if (part[1] != last_block || part[2] != last_candidate)
				printf "== %s: %s\n", part[1], part[2]
			last_block = part[1]; last_candidate = part[2]
			printf "  %-34s %d/%d  %.2f [%.2f, %.2f]\n", part[3], passed[key] + 0, n,
				median(list, n), lo, hi
		}
		for (candidate in candidates)
			printf "fairness_mechanisms: %s: %.1f lines per seed\n", candidate,
				by_candidate[candidate] / seeds
	}' "${outputs[@]}" | tee "$out/mechanisms.txt"
echo "fairness_mechanisms: ${#seeds[@]} seeds in $(($(date +%s) - started)) s; output in $out"
