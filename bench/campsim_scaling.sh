#!/usr/bin/env bash
# Benchmark (not a test): campsim's cost against queue depth (issue 12 point 5). An overloaded
# synthetic log on 64 CPUs (jobs arrive every 0-40 s, uniform; 1-16 CPUs; run 60-3660 s; limit
# twice the run; 20 users; seed 7), so the queue grows with the log, replayed at SIZES jobs under
# fcfs/none (the floor) and POLICIES, one process per run. Prints each run's wall time, its ratio
# to the floor of the same size, and each policy's growth from the smallest to the largest size;
# the goal (issue 12): ostrich/per_campaign within 10x of the floor at 20,000 jobs, growth from
# 2,500 to 20,000 under 12. A run over LIMIT_S is stopped and said so.
# Env: BUILD_DIR ($repo/build), SIZES ("2500 5000 10000 20000"), POLICIES ("ostrich/none
# fifo/per_campaign ostrich/per_campaign fairshare/easy"), LIMIT_S (300).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
campsim=$build/src/sim/campsim
read -r -a sizes <<<"${SIZES:-2500 5000 10000 20000}"
read -r -a policies <<<"${POLICIES:-ostrich/none fifo/per_campaign ostrich/per_campaign fairshare/easy}"
limit_s=${LIMIT_S:-300}
[ -x "$campsim" ] || { echo "campsim_scaling: $campsim not built (BUILD_DIR=$build)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

overloaded_log() { # jobs
	awk -v n="$1" 'BEGIN { srand(7); t = 0
		for (i = 1; i <= n; i++) {
			t += int(rand() * 40); cpus = 1 + int(rand() * 16); run = 60 + int(rand() * 3600)
			user = 1 + int(rand() * 20)
			printf "%d %d -1 %d %d -1 -1 %d %d -1 1 %d 1 -1 1 -1 -1 -1\n", i, t, run, cpus, cpus, 2 * run, user
		} }'
}

seconds() { # log policy: wall seconds of one run, or "stopped"
	local start end
	start=$(date +%s.%N)
	timeout "$limit_s" "$campsim" run --swf "$1" --cpus 64 --policy "$2" >/dev/null 2>"$work/stderr" || {
		echo stopped
		return
	}
	end=$(date +%s.%N)
	awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }'
}

declare -A took
for size in "${sizes[@]}"; do
	overloaded_log "$size" >"$work/log$size.swf"
	took[$size,floor]=$(seconds "$work/log$size.swf" fcfs/none)
	echo "campsim_scaling_${size}_fcfs_none ${took[$size,floor]} s"
	for policy in "${policies[@]}"; do
		took[$size,$policy]=$(seconds "$work/log$size.swf" "$policy")
		ratio=$(awk -v a="${took[$size,$policy]}" -v b="${took[$size,floor]}" 'BEGIN { if (a == "stopped" || b <= 0) print "-"; else printf "%.1f", a / b }')
		echo "campsim_scaling_${size}_${policy//\//_} ${took[$size,$policy]} s (${ratio}x the floor)"
	done
done
first=${sizes[0]} last=${sizes[-1]}
for policy in fcfs/none "${policies[@]}"; do
	key=$policy
	[ "$policy" = fcfs/none ] && key=floor
	awk -v p="$policy" -v a="${took[$first,$key]}" -v b="${took[$last,$key]}" -v f="$first" -v l="$last" 'BEGIN {
		if (a == "stopped" || b == "stopped" || a <= 0) printf "growth %s %s -> %s jobs: -\n", p, f, l
		else printf "growth %s %s -> %s jobs: %.1fx\n", p, f, l, b / a }'
done
goal=ostrich/per_campaign
if [ -n "${took[20000,$goal]:-}" ] && [ "${took[20000,$goal]}" != stopped ] && [ -n "${took[2500,$goal]:-}" ]; then
	awk -v t="${took[20000,$goal]}" -v f="${took[20000,floor]}" -v s="${took[2500,$goal]}" 'BEGIN {
		ok = (t <= 10 * f && t / s < 12)
		printf "goal (%s within 10x of fcfs/none at 20000, growth under 12): %s\n", "ostrich/per_campaign", ok ? "PASS" : "FAIL" }'
else
	echo "goal (ostrich/per_campaign within 10x of fcfs/none at 20000, growth under 12): FAIL (not measured to the end)"
fi
