#!/usr/bin/env bash
# campaign_short_room_by=expected (issue 12): the room for short jobs tells a job short by the run
# time its user's recent runs predict (priority/campaign's predictor, published with the job's
# campaign), not by its limit. camp3's last job ran 1 s of a 2 h limit, so its next 2 h job is
# short: it starts in the room at once, while camp4's job of the same shape (no history: judged
# near its limit) waits for the long job, as every long job does under the room.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_short_room_by=expected"

echo "== camp3's history: a 2 h job that ran 1 s"
history=$(submit camp3 -n 1 -t 120 -J history --wrap "sleep 1")
check "camp3's history job completes" wait_until 30 job_completed "$history"
sleep 3 # a ranking pass (calc_period=1) records the run in the predictor

echo "== long A holds 31 of 32 CPUs, short C (2 CPUs) is blocked: the room keeps one CPU"
begin=$(($(date +%s) + 6)) # one --begin second: one pass plans both (lib.sh, wait_for_second)
a=$(submit camp1 --begin="$(at_time "$begin")" -n 31 -t 120 -J A --wrap "sleep 300")
c=$(submit camp2 --begin="$(at_time "$begin")" -n 2 -t 1 -J C --wrap "sleep 1")
wait_for_second "$begin"
check "long A (31 CPUs) starts" wait_until 20 job_state_is "$a" R
sleep 3
unknown=$(submit camp4 -n 1 -t 120 -J unknown --wrap "sleep 1")
sleep 3
known=$(submit camp3 -n 1 -t 120 -J known --wrap "sleep 1")
check "camp3's 2 h job (expected a minute) starts in the room within 15 s" \
	wait_until 15 job_completed "$known"
check "camp4's 2 h job (no history) waits ($(squeue -h -j "$unknown" -o '%t %r'))" \
	job_state_is "$unknown" PD
check "short C waits for A ($(squeue -h -j "$c" -o '%t %r'))" job_state_is "$c" PD
scancel "$a"
check "once A ends, the queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
