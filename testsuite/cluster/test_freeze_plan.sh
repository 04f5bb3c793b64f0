#!/usr/bin/env bash
# sched/campaign with the freeze on (campaign_freeze_slip=1, conservative): reservations that slip
# more than a second are booked before the ranked walk on every later pass, under slurmctld's
# locks. On 2 nodes of 4 CPUs held half busy, 16 jobs of four users (1-4 CPUs, 5-15 s, limits
# 1-3 min) queue up behind reservations that the ranks reorder, so jobs slip and freeze; every
# job starts and ends, and slurmctld stays up with no error of ours. A bad value
# (campaign_freeze_slip=-1) stops slurmctld at start-up with an error naming the key.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

trap stop_cluster EXIT
checks=$((checks + 1))
if "$localcluster" start --plugin-dir "$plugin_dir" --conf "SchedulerType=sched/campaign" \
	--conf "SchedulerParameters=campaign_freeze_slip=-1" >/dev/null 2>&1; then
	fail "campaign_freeze_slip=-1: slurmctld started"
else
	message=$(grep -E 'error: sched/campaign: ' "$(ctld_log)" | grep -F campaign_freeze_slip | head -n 1)
	if [ -n "$message" ]; then pass "campaign_freeze_slip=-1 refused: ${message#*error: }"; else
		fail "campaign_freeze_slip=-1 refused, but no error of ours names the key in $(ctld_log)"
	fi
fi
stop_cluster

start_ranked_cluster policy=faircamp,calc_period=1 --nodes 2 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative,campaign_freeze_slip=1,campaign_freeze_wide=0.25"
check "scontrol show config lists the freeze" \
	grep -q 'campaign_freeze_slip=1' <<<"$(scontrol show config | grep -i '^SchedulerParameters')"
for node in n1 n2; do
	submit camp8 -p hold -w "$node" -n 2 -t 1 -J holder --wrap "sleep 20" >/dev/null
done
jobs=()
for i in $(seq 0 15); do
	user=camp$((i % 4 + 1))
	cpus=$((i % 4 + 1))
	jobs+=("$(submit "$user" -n "$cpus" -t $((i % 3 + 1)) -J "j$i" --wrap "sleep $((5 + i % 3 * 5))")")
done
all_done() { [ -z "$(squeue -h -u camp1,camp2,camp3,camp4 -o %i)" ]; }
check "all 16 jobs start and end (within 150 s)" wait_until 150 all_done
ended=0
for job in "${jobs[@]}"; do job_completed "$job" && ended=$((ended + 1)); done
check_equal "the jobcomp log has all 16 completed" 16 "$ended"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
