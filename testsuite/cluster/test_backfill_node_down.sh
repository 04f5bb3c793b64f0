#!/usr/bin/env bash
# A slurmd killed mid-run (SlurmdTimeout lowered to 10 s): slurmctld marks the node DOWN and stays
# up, sched/campaign's plan drops the node (no start and no published reservation on it, a job
# that needed it is left unplanned without blocking the rest), and every job that fits the
# remaining nodes completes. Jobs that ran on the dead node are Slurm's to requeue: not asserted.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 --conf "SlurmdTimeout=10" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"
check_equal "slurmctld took SlurmdTimeout=10" "10 sec" \
	"$(scontrol show config | sed -n 's/^SlurmdTimeout *= *//p')"

victim=n4
# pending_planned_on NODE: pending jobs (of job_ids) whose published reservation names NODE.
pending_planned_on() {
	local id nodes
	while read -r id nodes; do
		names_include "$nodes" "$1" && echo "$id"
	done < <(squeue -h -t PD --start -j "$(IFS=,; echo "${job_ids[*]}")" -o '%i %Y')
}

# Every CPU busy for 60 s (limit 2 min), two 4-CPU jobs a node. Then, in priority order: a
# 32-CPU job that needs all four nodes, ten 4-CPU jobs and a 24-CPU job that fits three nodes.
for i in $(seq 1 8); do submit camp1 -n 4 -t 2 -J runner$i --wrap "sleep 60" >/dev/null; done
all_running() { [ "$(squeue -h -t R -u camp1 | wc -l)" = 8 ]; }
check "8 runners fill the 32 CPUs" wait_until 20 all_running
whole=$(submit camp2 -n 32 -t 1 -J whole --wrap "sleep 5")
fitting=()
for i in $(seq 1 10); do fitting+=("$(submit camp3 -n 4 -t 1 -J small$i --wrap "sleep 5")"); done
fitting+=("$(submit camp4 -n 24 -t 1 -J three_nodes --wrap "sleep 5")")
job_ids=("$whole" "${fitting[@]}")
check "sched/campaign plans the queue twice" two_passes
planned_before=$(pending_planned_on "$victim" | wc -l)
echo "  $planned_before pending jobs planned on $victim before the kill"
check "some pending job is planned on $victim before the kill" test "$planned_before" -gt 0
on_victim=$(squeue -h -t R -o '%i %N' | while read -r id nodes; do
	names_include "$nodes" "$victim" && echo "$id"
done | tr '\n' ' ')
echo "  jobs running on $victim: $on_victim"
check "jobs run on $victim before the kill" test -n "$on_victim"

echo "== kill -9 slurmd $victim"
slurmd_pid=$(cat "$("$localcluster" path dir)/run/slurmd.$victim.pid")
refused_before=$(sched_stat refused)
kill_time=$(date +%s)
kill -KILL "$slurmd_pid"
slurmd_gone() { ! kill -0 "$slurmd_pid" 2>/dev/null; }
check "slurmd $victim (pid $slurmd_pid) is gone" wait_until 5 slurmd_gone
node_down() { scontrol show node "$victim" -o | grep -q 'State=DOWN'; }
check "slurmctld marks $victim DOWN within 60 s" wait_until 60 node_down
down_time=$(date +%s)
echo "  $victim: $(scontrol show node "$victim" -o | grep -o 'State=[^ ]*')" \
	"$((down_time - kill_time)) s after the kill"
check "$victim went DOWN before the runners end (the test's timing holds)" \
	test $((down_time - kill_time)) -lt 50
check "slurmctld still answers after $victim went down" ctld_ping

check "sched/campaign plans twice more after $victim went down" two_passes
check_equal "no pending job's reservation names $victim" "" \
	"$(pending_planned_on "$victim" | tr '\n' ' ')"
check_equal "the 32-CPU job, which needs $victim, has no published start" "N/A" \
	"$(squeue -h -j "$whole" --start -o %S)"
starts=$(squeue -h -t PD -j "$(IFS=,; echo "${fitting[*]}")" --start -o %S)
check_equal "every pending job that fits three nodes has a start (conservative)" \
	"$(wc -l <<<"$starts")" "$(grep -c '^20' <<<"$starts")"

# Until they are done, every half second: the nodes of every running job.
finished() {
	local id
	for id in "${fitting[@]}"; do
		grep -q "^JobId=$id .*JobState=COMPLETED" "$("$localcluster" path jobcomp)" || return 1
	done
}
seen=$("$localcluster" path dir)/running-after-down.txt
: >"$seen"
record_and_check() {
	squeue -h -t R -o '%i %S %N' >>"$seen"
	finished
}
check "the 11 jobs that fit three nodes complete within 120 s" wait_until 120 record_and_check
on_dead=$(sort -u "$seen" | while read -r id start nodes; do
	names_include "$nodes" "$victim" && [ "$(date -d "$start" +%s)" -ge "$down_time" ] && echo "$id"
done | sort -u | tr '\n' ' ')
check_equal "no job started on $victim after it went down (squeue)" "" "$on_dead"
jobcomp=$("$localcluster" path jobcomp)
on_dead=$(grep -o 'JobId=[0-9]* .*StartTime=[^ ]* .*NodeList=[^ ]*' "$jobcomp" |
	sed 's/JobId=\([0-9]*\) .*StartTime=\([^ ]*\) .*NodeList=\([^ ]*\)/\1 \2 \3/' |
	while read -r id start nodes; do
		names_include "$nodes" "$victim" && [ "$(date -d "$start" +%s)" -ge "$down_time" ] && echo "$id"
	done | tr '\n' ' ')
check_equal "no job started on $victim after it went down (jobcomp)" "" "$on_dead"
check_equal "the 32-CPU job never started" "PD" "$(squeue -h -j "$whole" -o %t)"
check_equal "the plan never tried a start Slurm refused" "$refused_before" "$(sched_stat refused)"
echo "  the jobs that ran on $victim (not asserted):" \
	"$(squeue -h -j "${on_victim// /,}" -o '%i %t %r' 2>/dev/null | tr '\n' ';')"
check "slurmctld is still up" ctld_ping
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
