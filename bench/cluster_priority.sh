#!/usr/bin/env bash
# Benchmark (not a test): priority/campaign against priority/multifactor on the same queue in a
# local cluster: N pending jobs from U users behind whole-node jobs. Prints `name value unit`
# lines: the ranking thread's CPU time per pass (our "campprio" thread, multifactor's "decay"
# thread, read from /proc), our own logged pass time, and squeue/sprio latency during passes.
# Root; builds nothing: run scripts/build.sh first. Env: JOBS (10000), USERS (100).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/testsuite/cluster/lib.sh" # the cluster start and the shared helpers
jobs=${JOBS:-10000}
users=${USERS:-100}
nodes=16
cpus=32

for i in $(seq -w 1 "$users"); do id "bench$i" >/dev/null 2>&1 || useradd -M -s /usr/sbin/nologin "bench$i"; done
trap stop_cluster EXIT

# ranking_thread NAME: the tid of slurmctld's thread called NAME. multifactor's decay thread has
# no name of its own ("slurmctld"): take the busiest unnamed thread other than the main one.
ranking_thread() {
	local pid task best="" best_ticks=-1 ticks
	pid=$(ctld_pid)
	for task in /proc/"$pid"/task/*; do
		if [ "$(cat "$task/comm" 2>/dev/null)" = "$1" ]; then
			basename "$task"
			return
		fi
	done
	for task in /proc/"$pid"/task/*; do
		[ "$(basename "$task")" != "$pid" ] && [ "$(cat "$task/comm" 2>/dev/null)" = slurmctld ] || continue
		ticks=$(awk '{print $14 + $15}' "$task/stat" 2>/dev/null || echo 0)
		if [ "$ticks" -gt "$best_ticks" ]; then
			best=$(basename "$task")
			best_ticks=$ticks
		fi
	done
	echo "$best"
}

# thread_ticks TID: user+system clock ticks of that slurmctld thread.
thread_ticks() {
	awk '{print $14 + $15}' "/proc/$(ctld_pid)/task/$1/stat" 2>/dev/null || echo 0
}

fill_and_queue() {
	local i
	for i in $(seq 1 "$nodes"); do
		sbatch --uid=camp8 -o /dev/null -D /tmp -N 1 --exclusive -t 600 --wrap "sleep 3600" >/dev/null
	done
	sleep 5
	seq 1 "$jobs" | xargs -P 8 -I{} sh -c \
		'u=$(( {} % '"$users"' + 1 )); sbatch --uid=bench$(printf %0'"${#users}"'d $u) -o /dev/null -D /tmp -n $(( {} % 64 + 1 )) -t $(( {} % 240 + 1 )) --wrap true >/dev/null'
	echo "# $(squeue -h -t PD -o %i | wc -l) pending jobs queued" >&2
}

# sample_passes NAME SECONDS: samples the thread's CPU ticks every second; a pass shows as a
# burst of increments. Prints "ticks bursts".
sample_passes() {
	local last now ticks=0 bursts=0 busy=0 i tid
	tid=$(ranking_thread "$1")
	last=$(thread_ticks "$tid")
	for i in $(seq 1 "$2"); do
		sleep 1
		now=$(thread_ticks "$tid")
		if [ "$now" -gt "$last" ]; then
			ticks=$((ticks + now - last))
			[ "$busy" -eq 1 ] || bursts=$((bursts + 1))
			busy=1
		else
			busy=0
		fi
		last=$now
	done
	echo "$ticks $bursts"
}

# run LABEL THREAD PERIOD_S CONF_LINE...: one configuration, measured over three periods.
run() {
	local label=$1 thread=$2 period_s=$3 conf=() line
	shift 3
	for line in "$@"; do conf+=(--conf "$line"); done
	launch_cluster --nodes $nodes --cpus $cpus \
		--conf "SchedulerType=sched/builtin" --conf "MaxJobCount=$((jobs * 2))" \
		--conf "DebugFlags=Priority" --conf "SlurmctldDebug=verbose" "${conf[@]}" >/dev/null || exit 1
	fill_and_queue
	sleep "$period_s" # one pass over the full queue before measuring
	local squeue_median squeue_max sprio_median sprio_max ticks bursts
	sample_passes "$thread" $((3 * period_s)) >"/tmp/bench_passes.$$" &
	local sampler=$!
	local squeue_runs sprio_runs
	read -r squeue_median squeue_max squeue_runs < <(latency_while "$sampler" 0 squeue -h -o %i)
	wait "$sampler"
	sample_passes "$thread" "$period_s" >/dev/null &
	sampler=$!
	read -r sprio_median sprio_max sprio_runs < <(latency_while "$sampler" 0 sprio -h)
	wait "$sampler"
	read -r ticks bursts <"/tmp/bench_passes.$$"
	rm -f "/tmp/bench_passes.$$"
	local hz
	hz=$(getconf CLK_TCK)
	echo "${label}_pending_jobs $(squeue -h -t PD -o %i | wc -l) jobs"
	echo "${label}_passes_seen $bursts passes"
	echo "${label}_thread_cpu_per_pass $(awk -v t="$ticks" -v b="$bursts" -v hz="$hz" \
		'BEGIN { printf "%.1f", b ? t / hz * 1000 / b : 0 }') ms"
	echo "${label}_squeue_runs $squeue_runs runs"
	echo "${label}_squeue_latency_median $squeue_median ms"
	echo "${label}_squeue_latency_max $squeue_max ms"
	echo "${label}_sprio_runs $sprio_runs runs"
	echo "${label}_sprio_latency_median $sprio_median ms"
	echo "${label}_sprio_latency_max $sprio_max ms"
	if [ "$thread" = campprio ]; then
		grep -o 'priority/campaign: pass [0-9]*: [0-9]* jobs seen.*; [0-9]* us' \
			"$(ctld_log)" | tail -n 3 | sed 's/.*; \([0-9]*\) us/\1/' |
			sort -n | awk '{ v[NR] = $1 } END { printf "'"$label"'_logged_pass_median %.1f ms\n", v[int((NR + 1) / 2)] / 1000 }'
	fi
	stop_cluster
}

echo "# priority pass benchmark: $jobs pending jobs, $users users, $nodes nodes x $cpus CPUs"
run campaign campprio 10 "PriorityType=priority/campaign" "PriorityParameters=policy=ostrich,calc_period=10"
run multifactor decay 60 "PriorityType=priority/multifactor" "PriorityCalcPeriod=1" \
	"PriorityWeightAge=1000" "PriorityWeightJobSize=1000" "PriorityWeightPartition=1000"
