#!/usr/bin/env bash
# Benchmark (not a test): sched/campaign against sched/backfill on the same local cluster, every
# node busy with a whole-node job and N jobs pending from 100 users. Prints `name value unit`
# lines: sdiag's backfill cycle (mean, max), the scheduling thread's CPU per cycle from /proc
# (backfill's "bckfl", our "campsched"), jobs given an expected start, squeue latency during the
# cycles, and the ratios campaign / whole-queue backfill. sched/campaign is measured twice: in the
# steady state (its passes update a kept plan) and "afresh" (before each pass a running job's
# limit grows a minute, so it plans the whole queue again). REPLAY=1 adds a trace replay (jobs
# started, utilization). Root; builds nothing (run scripts/build.sh first); starts one cluster
# at a time through testsuite/cluster/lib.sh, so CLUSTER_DIR and CLUSTER_PORT_BASE choose it.
#
# Env: JOB_COUNTS ("1000 5000 20000"), NODES (16), INTERVAL (30: bf_interval and campaign_period,
# seconds), WINDOW_MIN (43200: bf_window and campaign_horizon alike; bf_window's maximum, 30 days,
# so both plan as far ahead as sched/backfill can; Slurm's default is 1440),
# BF_MAX_TIME (600: whole-queue backfill's bf_max_time, so one cycle can cover the queue),
# CYCLES (3), SETTLE_TIMEOUT (3600: seconds from the release to a cycle over the whole queue),
# SUBMIT_PARALLEL (4: concurrent sbatch), PLUGIN_DIR, GPUS (0: GPUs per node, gres/gpu; with
# GPUs, GPU_SHARE percent of the pending jobs (default 25) ask for 1 to GPUS of them per node:
# issue 15's "with GPUs configured on every node"), BACKFILL_DEFAULT (1; 0 skips sched/backfill's
# default configuration: the ratios need only the whole-queue one).
# Replay: REPLAY=1 (CYCLE_BENCH=0 skips the cycle benchmark), TRACE (data/traces/
# SDSC-SP2-1998-4.2-cln.swf.gz), TRACE_START_H (hours after the trace's first job; default
# "busiest": the hour of the first 30 days with the most submissions, as a log's first hour is
# nearly empty: SDSC-SP2's has 3 jobs, its busiest (hour 247) 44 jobs and 187 CPU-hours),
# TRACE_HOURS (1), SPEEDUP (6), REPLAY_NODES (4: 128 CPUs, the SP2's size).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/testsuite/cluster/lib.sh" # the cluster start and the shared helpers
job_counts=${JOB_COUNTS:-1000 5000 20000}
nodes=${NODES:-16}
cpus=32
users=100
interval=${INTERVAL:-30}
window_min=${WINDOW_MIN:-43200}
bf_max_time=${BF_MAX_TIME:-600}
cycles=${CYCLES:-3}
settle_timeout=${SETTLE_TIMEOUT:-3600}
gpus=${GPUS:-0}
gpu_share=${GPU_SHARE:-25}
backfill_default=${BACKFILL_DEFAULT:-1}
submit_parallel=${SUBMIT_PARALLEL:-4}
results=$(mktemp /tmp/cluster_backfill.XXXXXX)

for i in $(seq -w 1 "$users"); do id "bench$i" >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin "bench$i"; done
trap 'stop_cluster; rm -f "$results"' EXIT

# say NAME VALUE UNIT: one result line, kept for the summary.
say() {
	echo "$1 $2 $3" | tee -a "$results"
}

note() { echo "# $*" >&2; }

# thread_of NAME: the tid of slurmctld's thread called NAME (empty if none).
thread_of() {
	local task
	for task in /proc/"$(ctld_pid)"/task/*; do
		if [ "$(cat "$task/comm" 2>/dev/null)" = "$1" ]; then
			basename "$task"
			return
		fi
	done
}

# thread_cpu_ns TID: CPU nanoseconds of that slurmctld thread: schedstat's first field (exact),
# else user+system clock ticks from stat (10 ms steps, too coarse for short cycles).
thread_cpu_ns() {
	local task=/proc/$(ctld_pid)/task/$1
	if [ -r "$task/schedstat" ]; then
		awk '{print $1}' "$task/schedstat"
	else
		awk -v hz="$(getconf CLK_TCK)" '{printf "%.0f\n", ($14 + $15) * 1e9 / hz}' "$task/stat" 2>/dev/null || echo 0
	fi
}

# backfill_stat FIELD: a number from sdiag's "Backfilling stats" section ("Total cycles",
# "Last cycle", "Max cycle", "Mean cycle", "Last depth cycle (try sched)", "Last queue length").
backfill_stat() {
	sdiag | awk -v field="$1" '
		/^Backfilling stats/ { section = 1; next }
		/^[^ \t]/ { section = 0 }
		section { line = $0; sub(/^[ \t]+/, "", line)
			if (index(line, field ":") == 1) { sub(/.*:[ \t]*/, "", line); print line + 0; exit } }'
}

# wait_backfill_cycles COUNT SECONDS: waits until sdiag counts COUNT backfill cycles; false on timeout.
wait_backfill_cycles() {
	local deadline=$((SECONDS + $2))
	while [ "$(backfill_stat "Total cycles")" -lt "$1" ]; do
		[ "$SECONDS" -lt "$deadline" ] || return 1
		sleep 1
	done
}

# fill_nodes: one long whole-node job per node, all running before anything is queued.
fill_nodes() {
	local i
	for i in $(seq 1 "$nodes"); do
		sbatch --uid=camp8 -o /dev/null -D /tmp -J fill -N 1 --exclusive -t 240 --wrap "sleep 3600" >/dev/null
	done
	for i in $(seq 1 120); do
		[ "$(squeue -h -t R -o %i | wc -l)" -ge "$nodes" ] && return 0
		sleep 1
	done
	note "only $(squeue -h -t R -o %i | wc -l) of $nodes fill jobs run"
	return 1
}

# queue_held COUNT: COUNT held jobs, 1-64 CPUs, 1-240 min, from bench001..bench100 (awk's rand
# with a fixed seed: the same queue in every configuration); with GPUS, GPU_SHARE percent of them
# ask for 1-GPUS GPUs per node (a second stream, so the CPU shapes stay those without GPUs).
# Prints the seconds it took.
queue_held() {
	local start=$SECONDS
	awk -v count="$1" -v users="$users" -v gpus="$gpus" -v share="$gpu_share" 'BEGIN {
		srand(20220508)
		for (i = 1; i <= count; i++) {
			user = int(rand() * users) + 1; cpus = int(rand() * 64) + 1
			limit = int(rand() * 240) + 1; shape[i] = user " " cpus " " limit
		}
		if (gpus > 0) srand(20251125)
		for (i = 1; i <= count; i++) {
			split(shape[i], f, " "); gres = ""
			if (gpus > 0 && rand() * 100 < share) gres = " --gres=gpu:" (int(rand() * gpus) + 1)
			printf "--uid=bench%03d --hold -o /dev/null -D /tmp -J bench -n %d -t %d%s --wrap=true\n",
				f[1], f[2], f[3], gres
		}
	}' |
		xargs -P "$submit_parallel" -L 1 sbatch >/dev/null
	echo $((SECONDS - start))
}

# release_all: releases every held job, a few thousand ids per scontrol. Prints the seconds.
release_all() {
	local start=$SECONDS
	squeue -h -t PD -o %i | xargs -n 4000 scontrol release
	echo $((SECONDS - start))
}

# start_bench_cluster NODES CONF_LINE...: a fresh cluster (lib.sh's launch_cluster) with
# multifactor priority and CONF_LINEs.
start_bench_cluster() {
	local count=$1 conf=() line
	shift
	for line in "$@"; do conf+=(--conf "$line"); done
	# LD_LIBRARY_PATH: sched_campaign.so finds libslurm_campaign.so in PLUGIN_DIR, not its RUNPATH.
	LD_LIBRARY_PATH=$plugin_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
		launch_cluster --nodes "$count" --cpus $cpus --gpus "$gpus" \
		--conf "PriorityType=priority/multifactor" --conf "PriorityWeightAge=1000" \
		--conf "PriorityWeightJobSize=1000" --conf "PriorityWeightFairshare=0" "${conf[@]}" >/dev/null
}

# us_to_ms MICROSECONDS
us_to_ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }

# extend_running_jobs COUNT: COUNT times, lengthens a running job's limit by a minute and waits
# for the next cycle. A running job's expected end changed: sched/campaign plans afresh.
extend_running_jobs() {
	local i running
	running=($(squeue -h -t R -o %i))
	for i in $(seq 1 "$1"); do
		scontrol update JobId="${running[$((i % ${#running[@]}))]}" TimeLimit=+1 || return 1
		wait_backfill_cycles "$i" "$2" || return 1
	done
}

# window LABEL TID PERTURB: called just after a cycle ended; resets sdiag and measures the next
# CYCLES cycles: sdiag, the thread's CPU, squeue latency, starts. PERTURB=1: each cycle follows a
# running job's limit change (extend_running_jobs).
window() {
	local label=$1 tid=$2 perturb=$3 cpu_before cpu_after kept_before rebuilt_before
	local timeout=$((cycles * (interval + bf_max_time) + 300))
	sdiag -r >/dev/null # the window holds whole cycles only
	kept_before=$(sched_stat plans_kept)
	rebuilt_before=$(sched_stat plans_rebuilt)
	cpu_before=$(thread_cpu_ns "$tid")
	if [ "$perturb" = 1 ]; then
		extend_running_jobs "$cycles" "$timeout" &
	else
		wait_backfill_cycles "$cycles" "$timeout" &
	fi
	local waiter=$! squeue_median squeue_max squeue_runs
	read -r squeue_median squeue_max squeue_runs < <(latency_while "$waiter" 0.5 squeue -h -o %i)
	wait "$waiter" || { note "$label: fewer than $cycles cycles in $timeout s"; return 1; }
	cpu_after=$(thread_cpu_ns "$tid")
	local counted start_times latest
	counted=$(backfill_stat "Total cycles")
	start_times=$(squeue -h -t PD --start -o %S | grep '^20' | sort)
	latest=$(tail -n 1 <<<"$start_times")
	say "${label}_pending_jobs" "$(squeue -h -t PD -o %i | wc -l)" jobs
	say "${label}_cycles_measured" "$counted" cycles
	say "${label}_queue_length" "$(backfill_stat "Last queue length")" jobs
	say "${label}_depth_tried" "$(backfill_stat "Last depth cycle (try sched)")" jobs
	say "${label}_cycle_mean" "$(us_to_ms "$(backfill_stat "Mean cycle")")" ms
	say "${label}_cycle_max" "$(us_to_ms "$(backfill_stat "Max cycle")")" ms
	say "${label}_thread_cpu_per_cycle" "$(awk -v ns=$((cpu_after - cpu_before)) -v c="$counted" \
		'BEGIN { printf "%.1f", c ? ns / 1e6 / c : 0 }')" ms
	if [ -n "$kept_before" ]; then # sched/campaign: did the passes plan afresh or update?
		say "${label}_plans_rebuilt" $(($(sched_stat plans_rebuilt) - rebuilt_before)) passes
		say "${label}_plans_kept" $(($(sched_stat plans_kept) - kept_before)) passes
	fi
	say "${label}_jobs_with_start" "$(grep -c '^20' <<<"$start_times")" jobs
	say "${label}_latest_start" "$(awk -v at="$([ -n "$latest" ] && date -d "$latest" +%s || date +%s)" \
		-v now="$(date +%s)" 'BEGIN { printf "%.1f", (at - now) / 3600 }')" h
	say "${label}_squeue_runs" "$squeue_runs" runs
	say "${label}_squeue_latency_median" "$squeue_median" ms
	say "${label}_squeue_latency_max" "$squeue_max" ms
}

# settle LABEL JOBS: from the release until a cycle that saw all JOBS queued has ended (and no
# other runs); prints that stretch's longest cycle (sched/campaign's passes there insert the
# released jobs into its kept plan).
settle() {
	local deadline=$((SECONDS + settle_timeout))
	sdiag -r >/dev/null
	until [ "$(backfill_stat "Total cycles")" -ge 1 ] && [ "$(backfill_stat "Last queue length")" -ge "$2" ] &&
		! sdiag | grep -q '^Backfilling stats (WARNING'; do
		[ "$SECONDS" -lt "$deadline" ] || { note "$1: no cycle saw the whole queue"; return 1; }
		sleep 1
	done
	say "${1}_release_cycles" "$(backfill_stat "Total cycles")" cycles
	say "${1}_release_cycle_max" "$(us_to_ms "$(backfill_stat "Max cycle")")" ms
}

# measure LABEL JOBS THREAD: once a cycle has seen the whole queue, the steady window; for
# sched/campaign, whose passes then update a kept plan, a second window of passes planned afresh.
measure() {
	local label=$1 jobs=$2 thread_name=$3 tid
	tid=$(thread_of "$thread_name")
	[ -n "$tid" ] || { note "$label: no slurmctld thread named $thread_name"; return 1; }
	settle "$label" "$jobs" || return 1
	window "$label" "$tid" 0 || return 1
	[ "$thread_name" = campsched ] && window "${label/campaign/campaign_afresh}" "$tid" 1
}

# run LABEL JOBS THREAD CONF_LINE...: one configuration on a fresh cluster.
run() {
	local label=$1 jobs=$2 thread_name=$3
	shift 3
	start_bench_cluster "$nodes" "MaxJobCount=$((jobs * 2 + nodes + 1000))" "$@" || return 1
	if fill_nodes; then
		local submit_s release_s
		submit_s=$(queue_held "$jobs")
		release_s=$(release_all)
		note "$label: $jobs jobs submitted held in $submit_s s, released in $release_s s"
		say "${label}_submit_time" "$submit_s" s
		measure "$label" "$jobs" "$thread_name"
	fi
	stop_cluster
}

# ratio NAME NUMERATOR_KEY DENOMINATOR_KEY: a ratio line from two recorded results.
ratio() {
	awk -v name="$1" -v top="$2" -v bottom="$3" '
		$1 == top { t = $2 } $1 == bottom { b = $2 }
		END { if (t != "" && b > 0) printf "%s %.3f ratio\n", name, t / b
		      else printf "%s n/a ratio\n", name }' "$results"
}

# side_by_side JOBS: campaign over whole-queue backfill at JOBS, then each configuration's
# jobs with a start and mean cycle.
side_by_side() {
	local jobs=$1 metric top bottom
	for top in campaign campaign_afresh; do
		for metric in cycle_mean cycle_max thread_cpu_per_cycle jobs_with_start; do
			bottom=backfill_whole_n${jobs}_$metric
			ratio "${top}_over_backfill_whole_n${jobs}_$metric" "${top}_n${jobs}_$metric" "$bottom"
		done
	done
	for metric in jobs_with_start cycle_mean; do
		grep -E "^[a-z_]+_n${jobs}_${metric} " "$results"
	done
}

cycle_benchmark() {
	local jobs whole horizon_s=$((window_min * 60))
	echo "# backfill cycle benchmark: $nodes nodes x $cpus CPUs and $gpus GPUs busy, $users users, bf_interval and" \
		"campaign_period $interval s, window $window_min min, pending: $job_counts"
	for jobs in $job_counts; do
		[ "$backfill_default" = 0 ] ||
			run "backfill_default_n$jobs" "$jobs" bckfl "SchedulerType=sched/backfill" \
				"SchedulerParameters=bf_interval=$interval,bf_window=$window_min"
		whole="bf_max_job_test=$((jobs + nodes)),bf_continue,bf_max_time=$bf_max_time"
		run "backfill_whole_n$jobs" "$jobs" bckfl "SchedulerType=sched/backfill" \
			"SchedulerParameters=bf_interval=$interval,bf_window=$window_min,$whole"
		whole="campaign_depth=$((jobs + nodes)),campaign_horizon=$horizon_s"
		run "campaign_n$jobs" "$jobs" campsched "SchedulerType=sched/campaign" \
			"SchedulerParameters=campaign_period=$interval,campaign_mode=conservative,$whole"
	done
	echo "# side by side: campaign / backfill with the whole queue (goal: cycle <= 0.2 at 5k and 20k)"
	for jobs in $job_counts; do side_by_side "$jobs"; done
}

# ----- replay -----

# busiest_hour TRACE: the hour (from the first job) of the first 30 days with the most
# submissions; the earliest of equals.
busiest_hour() {
	zcat "$1" | awk '/^;/ || NF < 12 { next } first == "" { first = $2 }
		{ hour = int(($2 - first) / 3600) } hour >= 720 { exit } { count[hour]++ }
		END { best = -1; for (h in count) if (best < 0 || count[h] > count[best] ||
			(count[h] == count[best] && h + 0 < best + 0)) best = h; print best + 0 }'
}

# trace_jobs: "submit_s runtime_s cpus limit_min user" per job, times scaled by SPEEDUP and
# counted from the window's start.
trace_jobs() {
	local trace=$1 start_h=$2 hours=$3 speedup=$4 max_cpus=$5
	zcat "$trace" | awk -v start_h="$start_h" -v hours="$hours" -v speedup="$speedup" \
		-v max_cpus="$max_cpus" -v users="$users" '
		/^;/ || NF < 12 { next }
		first == "" { first = $2 }
		{ at = $2 - first - start_h * 3600 }
		at < 0 { next }
		at >= hours * 3600 { exit }
		{ cpus = $5 > 0 ? $5 : $8; if (cpus < 1) next; if (cpus > max_cpus) cpus = max_cpus
		  runtime = $4 > 0 ? $4 : 0; requested = $9 > 0 ? $9 : runtime
		  limit = int((requested / speedup + 59) / 60); if (limit < 1) limit = 1
		  printf "%.1f %.1f %d %d bench%03d\n", at / speedup, runtime / speedup, cpus, limit, ($12 < 0 ? 0 : $12) % users + 1 }'
}

# submit_on_time JOBS_FILE: submits each job at its scaled time (runs in the background).
submit_on_time() {
	local begin at runtime cpus limit user wait_s
	begin=$(date +%s.%N)
	while read -r at runtime cpus limit user; do
		wait_s=$(awk -v at="$at" -v begin="$begin" -v now="$(date +%s.%N)" \
			'BEGIN { w = begin + at - now; print (w > 0 ? w : 0) }')
		sleep "$wait_s"
		sbatch --uid="$user" -o /dev/null -D /tmp -J replay -n "$cpus" -t "$limit" --wrap "sleep $runtime" >/dev/null &
	done <"$1"
	wait
}

# started_ids NAME: ids of the jobs called NAME that started: ended ones from the job completion
# log (StartTime not "Unknown") and those still running.
started_ids() {
	{
		awk -v name="Name=$1" '$0 ~ name " " && !/StartTime=Unknown/ { sub(/^JobId=/, "", $1); print $1 }' \
			"$("$localcluster" path jobcomp)" 2>/dev/null
		squeue -h -t R,CG,S -n "$1" -o %i
	} | sort -u
}

# replay_one LABEL JOBS_FILE SECONDS NODES CONF_LINE...: the scaled trace window on a fresh empty
# cluster: jobs started (completion log and squeue; sdiag's counter beside it) and the mean share
# of allocated CPUs sampled every 5 s.
replay_one() {
	local label=$1 jobs_file=$2 duration_s=$3 replay_nodes=$4
	shift 4
	start_bench_cluster "$replay_nodes" "$@" || return 1
	sdiag -r >/dev/null
	submit_on_time "$jobs_file" &
	local submitter=$! end=$((SECONDS + duration_s)) samples=()
	while [ "$SECONDS" -lt "$end" ]; do
		samples+=("$(sinfo -h -o %C)") # allocated/idle/other/total
		sleep 5
	done
	wait "$submitter"
	say "${label}_jobs_submitted" "$(wc -l <"$jobs_file")" jobs
	say "${label}_jobs_started" "$(started_ids replay | wc -l)" jobs
	say "${label}_sdiag_jobs_started" "$(sdiag | awk '/^Jobs started:/ { print $3; exit }')" jobs
	say "${label}_utilization" "$(printf '%s\n' "${samples[@]}" | awk -F/ '
		{ allocated += $1; total += $4 } END { printf "%.3f", total ? allocated / total : 0 }')" share
	stop_cluster
}

replay_benchmark() {
	local trace=${TRACE:-$repo/data/traces/SDSC-SP2-1998-4.2-cln.swf.gz}
	local start_h=${TRACE_START_H:-busiest} hours=${TRACE_HOURS:-1} speedup=${SPEEDUP:-6}
	local replay_nodes=${REPLAY_NODES:-4}
	[ -r "$trace" ] || { note "replay skipped: no trace $trace"; return 0; }
	[ "$start_h" = busiest ] && start_h=$(busiest_hour "$trace")
	local jobs_file duration_s=$((hours * 3600 / speedup))
	jobs_file=$(mktemp /tmp/cluster_backfill_trace.XXXXXX)
	trace_jobs "$trace" "$start_h" "$hours" "$speedup" $((replay_nodes * cpus)) >"$jobs_file"
	echo "# replay: $(basename "$trace") hours $start_h-$((start_h + hours)) after its first job," \
		"${speedup}x faster ($duration_s s), $(wc -l <"$jobs_file") jobs, $replay_nodes nodes x $cpus CPUs"
	replay_one replay_backfill "$jobs_file" "$duration_s" "$replay_nodes" "SchedulerType=sched/backfill" \
		"SchedulerParameters=bf_interval=$interval"
	replay_one replay_campaign "$jobs_file" "$duration_s" "$replay_nodes" "SchedulerType=sched/campaign" \
		"SchedulerParameters=campaign_period=$interval,campaign_mode=conservative"
	rm -f "$jobs_file"
	local metric
	for metric in jobs_started utilization; do
		ratio "replay_campaign_over_backfill_$metric" "replay_campaign_$metric" "replay_backfill_$metric"
	done
}

# plugin_build: the installed sched/campaign and core library, to tell whether a build landed
# during the run (slurmctld loads them at each start).
plugin_build() {
	md5sum "$plugin_dir/sched_campaign.so" "$plugin_dir/libslurm_campaign.so" 2>/dev/null | awk '{ print $1 }' |
		paste -sd' '
}

build=$(plugin_build)
echo "# plugins: $plugin_dir (sched_campaign.so modified $(date -r "$plugin_dir/sched_campaign.so" +%FT%T))"
[ "${CYCLE_BENCH:-1}" = 1 ] && cycle_benchmark
[ "${REPLAY:-0}" = 1 ] && replay_benchmark
[ "$(plugin_build)" = "$build" ] || echo "# WARNING: the plugins in $plugin_dir changed during the run"
exit 0
