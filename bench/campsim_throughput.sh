#!/usr/bin/env bash
# Benchmark (not a test): campsim's jobs per second and peak memory per policy on SDSC-SP2 and
# LPC-EGEE, against the plain FCFS replay (fcfs/no_backfill, the floor) of the same trace in the same run.
# Prints `name value unit` lines, then the policies side by side and whether the goal (issue 5:
# ostrich/per_campaign within 5x of the floor) is met. Builds nothing: uses BUILD_DIR's campsim.
# Env: BUILD_DIR ($repo/build), TRACE_DIR ($repo/data/traces), REPEAT (3 runs per policy,
# best time kept), LIMIT_S (180: a policy slower than this on a trace is dropped and said so).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
trace_dir=${TRACE_DIR:-$repo/data/traces}
repeat=${REPEAT:-3}
limit_s=${LIMIT_S:-180}
goal_ratio=5
campsim=$build/src/sim/campsim
floor=fcfs/no_backfill
goal_policy=ostrich/per_campaign
policies=(fcfs/no_backfill fifo/easy fifo/conservative fairshare/easy fairtree/easy ostrich/per_campaign
	ostrich/conservative faircamp/per_campaign)
traces=(sdsc_sp2:SDSC-SP2-1998-4.2-cln.swf.gz lpc_egee:LPC-EGEE-2004-1.2-cln.swf.gz)

[ -x "$campsim" ] || { echo "campsim_throughput: $campsim not built (BUILD_DIR=$build)" >&2; exit 1; }
for entry in "${traces[@]}"; do
	[ -r "$trace_dir/${entry#*:}" ] || { echo "campsim_throughput: $trace_dir/${entry#*:} missing (TRACE_DIR)" >&2; exit 1; }
done
timer=/usr/bin/time
[ -x "$timer" ] || timer="" # without GNU time: campsim's own run.peak_rss_kb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# table_value FILE METRIC: the value of METRIC in campsim's one-policy table.
table_value() {
	awk -v metric="$2" '$1 == metric { print $2 }' "$1"
}

# measure TRACE POLICY: runs campsim REPEAT times, one process per run; prints
# "jobs sim_wall_s process_wall_s peak_kb" (best times, largest memory), or "dropped" after a
# run over LIMIT_S, or "failed" (campsim's stderr is left in $work/stderr).
measure() {
	local trace=$1 policy=$2 run jobs sim_s process_s peak_kb
	local best_sim="" best_process="" most_kb=0
	for run in $(seq 1 "$repeat"); do
		if [ -n "$timer" ]; then
			timeout "$limit_s" "$timer" -f '%e %M' -o "$work/time" \
				"$campsim" run --swf "$trace" --policy "$policy" >"$work/out" 2>"$work/stderr"
		else
			timeout "$limit_s" "$campsim" run --swf "$trace" --policy "$policy" \
				>"$work/out" 2>"$work/stderr"
		fi
		case $? in
		0) ;;
		124) echo dropped; return ;;
		*) echo failed; return ;;
		esac
		jobs=$(table_value "$work/out" jobs.finished)
		sim_s=$(table_value "$work/out" run.wall_s)
		if [ -n "$timer" ]; then
			read -r process_s peak_kb <"$work/time"
		else
			process_s=$sim_s
			peak_kb=$(table_value "$work/out" run.peak_rss_kb)
		fi
		best_sim=$(awk -v a="$best_sim" -v b="$sim_s" 'BEGIN { print ((a == "" || b < a) ? b : a) }')
		best_process=$(awk -v a="$best_process" -v b="$process_s" 'BEGIN { print ((a == "" || b < a) ? b : a) }')
		[ "$peak_kb" -gt "$most_kb" ] && most_kb=$peak_kb
	done
	echo "$jobs $best_sim $best_process $most_kb"
}

# ratio A B: A / B to two decimals.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

declare -A result # [label policy] = "jobs sim_s process_s peak_kb" | dropped | failed
echo "# campsim throughput: $campsim, traces from $trace_dir, best of $repeat runs per policy," \
	"one process per run, limit ${limit_s} s a run"
echo "# sim time: campsim's run.wall_s (event loop and policy, no trace parsing, no metrics);" \
	"process time and peak memory: /usr/bin/time of the whole campsim run"
for entry in "${traces[@]}"; do
	label=${entry%%:*}
	trace=$trace_dir/${entry#*:}
	echo "# $label: $trace"
	for policy in "${policies[@]}"; do
		result[$label $policy]=$(measure "$trace" "$policy")
		name=${label}_${policy//\//_}
		case ${result[$label $policy]} in
		dropped) echo "# dropped: $policy on $label took over ${limit_s} s"; continue ;;
		failed) echo "# failed: $policy on $label: $(head -c 300 "$work/stderr")"; continue ;;
		esac
		read -r jobs sim_s process_s peak_kb <<<"${result[$label $policy]}"
		echo "${name}_jobs $jobs jobs"
		echo "${name}_sim_time $sim_s s"
		echo "${name}_jobs_per_s $(awk -v j="$jobs" -v s="$sim_s" 'BEGIN { printf "%.0f", (s > 0 ? j / s : 0) }') jobs/s"
		echo "${name}_process_time $process_s s"
		echo "${name}_peak_memory $(awk -v k="$peak_kb" 'BEGIN { printf "%.1f", k / 1024 }') MiB"
		if [[ ${result[$label $floor]} == [0-9]* ]]; then
			read -r _ floor_sim floor_process _ <<<"${result[$label $floor]}"
			echo "${name}_sim_time_over_floor $(ratio "$sim_s" "$floor_sim") ratio"
			echo "${name}_process_time_over_floor $(ratio "$process_s" "$floor_process") ratio"
		fi
	done
done

# Side by side: one row per policy; per trace jobs/s, sim time over the floor's, peak MiB.
echo "#"
header=$(printf '# %-22s' "")
columns=$(printf '# %-22s' policy)
for entry in "${traces[@]}"; do
	header+=$(printf ' | %-25s' "${entry%%:*}")
	columns+=$(printf ' | %9s %7s %7s' jobs/s x_floor MiB)
done
echo "$header"
echo "$columns"
for policy in "${policies[@]}"; do
	row=$(printf '# %-22s' "$policy")
	for entry in "${traces[@]}"; do
		label=${entry%%:*}
		cell=${result[$label $policy]}
		if [[ $cell != [0-9]* ]]; then
			row+=$(printf ' | %9s %7s %7s' "$cell" - -)
			continue
		fi
		read -r jobs sim_s _ peak_kb <<<"$cell"
		read -r _ floor_sim _ _ <<<"${result[$label $floor]:-0 0 0 0}"
		row+=$(printf ' | %9.0f %7s %7.1f' "$(awk -v j="$jobs" -v s="$sim_s" 'BEGIN { print (s > 0 ? j / s : 0) }')" \
			"$(ratio "$sim_s" "$floor_sim")" "$(awk -v k="$peak_kb" 'BEGIN { print k / 1024 }')")
	done
	echo "$row"
done

# Goal: ostrich/per_campaign's sim time within 5x of the floor's, on every trace.
echo "# goal: $goal_policy within ${goal_ratio}x of $floor (sim time), on every trace"
met=0 total=0
for entry in "${traces[@]}"; do
	label=${entry%%:*}
	total=$((total + 1))
	goal=${result[$label $goal_policy]} base=${result[$label $floor]}
	if [[ $goal != [0-9]* || $base != [0-9]* ]]; then
		echo "# goal on $label: not measured ($goal_policy: $goal, $floor: $base)"
		continue
	fi
	read -r _ goal_sim _ _ <<<"$goal"
	read -r _ floor_sim _ _ <<<"$base"
	over=$(ratio "$goal_sim" "$floor_sim")
	if awk -v r="$over" -v g="$goal_ratio" 'BEGIN { exit !(r <= g) }'; then
		met=$((met + 1))
		echo "# goal on $label: met (${over}x)"
	else
		echo "# goal on $label: NOT met (${over}x)"
	fi
done
echo "goal_traces_met $met traces"
echo "goal_traces_measured $total traces"
