#!/usr/bin/env bash
# Benchmark (not a test): how settled each of issue 12's goal lines is. A replay of a log is one
# history; a change that starts one job a second earlier gives another, and the goal's ratios
# (the worst campaign's above all) move with it. So each trace-load is replayed again at offered
# loads a little apart (SPREAD: factors of the nominal load, default 0.99 0.995 1 1.005 1.01, so
# 0.95 becomes 0.9405 ... 0.9595; the log's own load "log" is read from campsim's note and scaled
# alike, its factor 1 being the log itself), each replica judged by bench/fairness_goal.sh, and
# every line is printed with how many replicas pass it and its median ratio and range. A line
# that passes in every replica is settled PASS, in none settled FAIL, otherwise unsettled: a
# difference between two policies on an unsettled line is the history, not the policy. Each
# candidate's summary also gives the lines a replay passes on average (the sum over lines of
# the part of replicas passing), the figure to compare candidates by.
#
#   bench/fairness_goal_spread.sh [TRACE.swf.gz ...]   (default: the shared traces in TRACE_DIR)
#
# Env: as bench/fairness_goal.sh (BUILD_DIR, TRACE_DIR, CANDIDATES, BASELINE, default easy here,
# BASELINE_OPTIONS, SITE_BACKFILL, SITE_SCHED_PERIOD, CAMPSIM_ARGS), LOADS (nominal loads, default
# "log 0.85 0.95"), SPREAD, JOBS (replicas at once, default 2), OUT (the replicas' output and
# spread.txt; default a temporary directory), TABLE_ONLY=yes (no replay: the table again from the
# replicas already in OUT).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
trace_dir=${TRACE_DIR:-$repo/data/traces}
campsim=$build/src/sim/campsim
read -r -a loads <<<"${LOADS:-log 0.85 0.95}"
read -r -a spread <<<"${SPREAD:-0.99 0.995 1 1.005 1.01}"
jobs_at_once=${JOBS:-2}
export BASELINE=${BASELINE:-easy}
read -r -a every_run <<<"${CAMPSIM_ARGS:-}"
[ -x "$campsim" ] || { echo "fairness_goal_spread: $campsim not built (BUILD_DIR=$build)" >&2; exit 1; }
# number_between X LOW HIGH: X is a plain decimal number with LOW < X < HIGH.
number_between() {
	awk -v x="$1" -v low="$2" -v high="$3" 'BEGIN { exit !(x ~ /^[0-9]*\.?[0-9]+$/ && x > low && x < high) }'
}
for factor in "${spread[@]}"; do
	number_between "$factor" 0.5 2 ||
		{ echo "fairness_goal_spread: SPREAD factor '$factor' is not a number between 0.5 and 2" >&2; exit 2; }
done
for nominal in "${loads[@]}"; do
	[ "$nominal" = log ] || number_between "$nominal" 0 1e9 ||
		{ echo "fairness_goal_spread: LOADS value '$nominal' is not log or an offered load above 0" >&2; exit 2; }
done
traces=("$@")
[ ${#traces[@]} -gt 0 ] || traces=("$trace_dir"/*.swf.gz)
out=${OUT:-$(mktemp -d)}
[ -n "${OUT:-}" ] || trap 'rm -rf "$out"' EXIT # a directory of our own goes at the end
mkdir -p "$out"

# log_load TRACE: the offered load of the machine in the log (in CAMPSIM_ARGS' window), as
# campsim's --load note gives it.
log_load() {
	local note
	note=$("$campsim" run --swf "$1" --policy fcfs/no_backfill "${every_run[@]}" --load 0.5 2>&1 |
		sed -n 's/.*offered load \([0-9.]*\) of the machine in the log.*/\1/p' | head -1)
	[ -n "$note" ] || { echo "fairness_goal_spread: no offered load in campsim's note for $1" >&2; return 1; }
	echo "$note"
}

# One line per replica: TRACE<TAB>NOMINAL<TAB>LOAD (LOAD "log" = the log itself).
replicas=$out/replicas.tsv
if [ "${TABLE_ONLY:-no}" = yes ]; then
	[ -s "$out/done.tsv" ] || { echo "fairness_goal_spread: TABLE_ONLY=yes but no replica in $out" >&2; exit 1; }
else
	: >"$replicas"
	for trace in "${traces[@]}"; do
		own=""
		for nominal in "${loads[@]}"; do
			if [ "$nominal" = log ]; then
				[ -n "$own" ] || own=$(log_load "$trace")
				base=$own
			else
				base=$nominal
			fi
			for factor in "${spread[@]}"; do
				if [ "$nominal" = log ] && awk -v f="$factor" 'BEGIN { exit !(f == 1) }'; then
					load=log
				else
					load=$(awk -v b="$base" -v f="$factor" 'BEGIN { printf "%.5f", b * f }')
				fi
				printf '%s\t%s\t%s\n' "$trace" "$nominal" "$load" >>"$replicas"
			done
		done
	done

	# run_replica LINE: bench/fairness_goal.sh on one trace at one load, its output kept.
	run_replica() {
		local trace nominal load dir
		IFS=$'\t' read -r trace nominal load <<<"$1"
		dir=$out/$(basename "$trace" .swf.gz)/$nominal/$load
		mkdir -p "$dir"
		OUT=$dir/goal LOADS=$load bash "$repo/bench/fairness_goal.sh" "$trace" >"$dir/goal.txt" 2>&1 || true
		printf '%s\t%s\t%s\t%s\n' "$(basename "$trace" .swf.gz)" "$nominal" "$load" "$dir/goal.txt"
	}
	export -f run_replica
	export out repo
	started=$(date +%s)
	tr '\n' '\0' <"$replicas" | xargs -0 -P "$jobs_at_once" -I{} bash -c 'run_replica "$1"' _ {} >"$out/done.tsv"
	echo "fairness_goal_spread: $(wc -l <"$replicas") replicas in $(($(date +%s) - started)) s of wall"
fi

# Every judged line of every replica: TRACE NOMINAL CANDIDATE SET LINE VALUE VERDICT, then one row
# per trace, nominal load, candidate and set: each line as passes/replicas, median [min, max]
# (ratios; utilization in points).
while IFS=$'\t' read -r trace nominal load file; do
	awk -v trace="$trace" -v nominal="$nominal" '
		/^== / {
			candidate = $0; sub(/^== [^:]*: /, "", candidate); sub(/ against .*/, "", candidate)
			gsub(/ /, "_", candidate)
			set = $0
			if (set ~ /one-day/) set = "easy1d"; else if (set ~ /site/) set = "site"; else set = "easy"
			next
		}
		/^  light users/ { line = "light_p95" }
		/^  all campaigns. p95/ { line = "all_p95" }
		/^  all campaigns. max/ { line = "all_max" }
		/^  heavy users/ { line = "heavy_p95" }
		/^  utilization/ { line = "utilization" }
		/^  (light|all|heavy|utilization)/ {
			value = ""
			for (i = 1; i <= NF; i++) {
				if ($i == "ratio") value = $(i + 1)
				if ($i == "points") value = $(i - 1)
			}
			print trace, nominal, candidate, set, line, value, $NF
		}' "$file"
done <"$out/done.tsv" >"$out/lines.txt"
if [ ! -s "$out/lines.txt" ]; then
	echo "fairness_goal_spread: no judged line (see $out/*/*/*/goal.txt)" >&2
	exit 1
fi

# The replicas of each trace and nominal load, to tell a line some of them did not judge.
awk -F'\t' '{ print $1, $2 }' "$out/done.tsv" | sort | uniq -c | awk '{ print $2, $3, $1 }' >"$out/replica_counts.txt"
sort -k1,1 -k2,2 -k3,3 -k4,4 -k5,5 -k6,6g "$out/lines.txt" | awk '
	function flush_line() {
		if (key == "") return
		median = n % 2 ? values[(n + 1) / 2] : (values[n / 2] + values[n / 2 + 1]) / 2
		cell[key_line] = sprintf("%d/%d %.2f [%.2f,%.2f]", passes, n, median, values[1], values[n])
		if (passes == n) settled_pass[group]++
		else if (passes == 0) settled_fail[group]++
		else unsettled[group]++
		expected[group] += passes / n
		judged[group]++
		if (n != replicas[key_trace]) short[group] = 1
		n = 0; passes = 0
	}
	function flush_row() {
		if (row == "") return
		printf "%-28s %-38s %-6s", row_trace "@" row_nominal, row_candidate, row_set
		for (i = 1; i <= 5; i++) printf " | %-22s", (order[i] in cell) ? cell[order[i]] : "-"
		printf "\n"
		delete cell
	}
	BEGIN {
		split("light_p95 all_p95 all_max heavy_p95 utilization", order, " ")
		printf "%-28s %-38s %-6s | %-22s | %-22s | %-22s | %-22s | %-22s\n", "trace@load", "candidate",
			"set", "light p95", "all p95", "all max", "heavy p95", "utilization (points)"
	}
	FILENAME != "-" { replicas[$1 SUBSEP $2] = $3; next }
	{
		this_row = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
		this_key = this_row SUBSEP $5
		if (this_key != key) flush_line()
		if (this_row != row) { flush_row(); row = this_row; row_trace = $1; row_nominal = $2; row_candidate = $3; row_set = $4 }
		key = this_key; key_line = $5; key_trace = $1 SUBSEP $2; group = $3 SUBSEP $4
		if (!(group in groups)) group_order[++groups_seen] = group
		groups[group] = 1
		values[++n] = $6
		if ($7 == "PASS") passes++
	}
	END {
		flush_line(); flush_row()
		printf "\ncells: replicas passing/replicas, median [min, max] of the ratio to the better baseline (utilization: points)\n"
		for (i = 1; i <= groups_seen; i++) {
			g = group_order[i]
			split(g, part, SUBSEP)
			printf "%s against %s: settled PASS %d, settled FAIL %d, unsettled %d; lines passed per replay %.1f of %d%s\n",
				part[1], part[2], settled_pass[g] + 0, settled_fail[g] + 0, unsettled[g] + 0, expected[g], judged[g],
				(g in short) ? " (some replicas missing: see the goal.txt files)" : ""
		}
	}' "$out/replica_counts.txt" - | tee "$out/spread.txt"
