#!/usr/bin/env bash
# Both plugins loaded in a real cluster with Slurm's main scheduler off: only sched/campaign can
# start jobs, and priority/campaign ranks them FIFO through the core.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8

echo "== a whole-cluster job holds every CPU while three users queue 12 jobs"
blocker=$(submit camp1 -n 32 -t 2 -J blocker --wrap "sleep 12")
check "the whole-cluster job starts" wait_until 20 job_state_is "$blocker" R
jobs=()
for round in 1 2 3 4; do
	for user in camp1 camp2 camp3; do
		jobs+=("$(submit "$user" -n 4 -t 1 -J "r${round}_$user" --wrap "sleep 2")")
	done
done
check_equal "jobs queued behind it" 12 "$(pending_count)"
sleep 3 # more than one calc_period: the ranking thread has passed over the queue

echo "== priorities fall strictly in submit order (FIFO through the core)"
priorities=$(squeue -h -t PD -o '%i %Q' | sort -n)
submit_order=$(printf '%s\n' "${jobs[@]}" | sort -n | tr '\n' ' ')
check_equal "pending jobs are exactly ours" "$submit_order" "$(awk '{print $1}' <<<"$priorities" | tr '\n' ' ')"
check "priorities strictly decrease with job id" awk 'NR > 1 && $2 >= last { exit 1 } { last = $2 }' <<<"$priorities"
check "no priority is 0 (held)" awk '$2 == 0 { exit 1 }' <<<"$priorities"

echo "== sprio and sshare answer"
sprio_out=$(sprio -h -o '%i %Y' 2>&1)
check "sprio exits 0" sprio -h >/dev/null
check_equal "sprio PRIORITY equals squeue %Q for every pending job" "$priorities" "$(sort -n <<<"$sprio_out")"
sshare_err=$(sshare 2>&1 >/dev/null)
check "sshare exits 0 (it loads priority/campaign in the client)" sshare >/dev/null
check_equal "sshare prints no error" "" "$sshare_err"

echo "== every job completes, all started by sched/campaign"
check "queue drains within 120 s" wait_until 120 queue_empty
check_equal "jobs completed" 13 "$(completed_count)"
check "sched/campaign published its statistics" wait_until 5 test -n "$(sched_stat jobs_started)"
check_equal "sched/campaign start count" 13 "$(sched_stat jobs_started)"
check_equal "slurmctld log: jobs started by sched/campaign" 13 "$(grep -c 'sched/campaign: started JobId=' "$(ctld_log)")"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"

finish
