#!/usr/bin/env bash
# sched/campaign's default room for short jobs (issue 12): with no campaign_short_room key, a
# short job that cannot start keeps whole CPUs of the plan (5 %, rounded down: one of 32) from
# long jobs, so a later long job does not take the CPU the short one asks for. With
# campaign_short_room=0 (the previous default) the same long job starts at once. The values
# are campsim's too (testsuite/sim/test_defaults_match_plugin).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# run_case ROOM_KEYS: long A (31 of 32 CPUs, 2 h limit) and short C (2 CPUs, 1 min limit)
# become eligible together (one --begin second), so one plan made afresh starts A and finds C blocked (the room is sized
# at plans made afresh; a job added to a kept plan does not size it: doc/fairness-results.md);
# then long B (1 CPU, 2 h limit), which fits in the free CPU without delaying C's reservation
# at A's end. Sets a, b, c.
run_case() {
	start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
		--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1$1"
	local begin=$(($(date +%s) + 6))
	a=$(submit camp1 --begin="$(at_time "$begin")" -n 31 -t 120 -J A --wrap "sleep 300")
	c=$(submit camp2 --begin="$(at_time "$begin")" -n 2 -t 1 -J C --wrap "sleep 1")
	wait_for_second "$begin"
	check "long A (31 CPUs) starts" wait_until 20 job_state_is "$a" R
	sleep 3
	b=$(submit camp3 -n 1 -t 120 -J B --wrap "sleep 1")
}

echo "== the default: the blocked short job keeps one CPU from long jobs"
run_case ""
sleep 8
check "long B waits while short C is blocked ($(squeue -h -j "$b" -o '%t %r'))" job_state_is "$b" PD
check "short C waits for A ($(squeue -h -j "$c" -o '%t %r'))" job_state_is "$c" PD
scancel "$a"
check "once A ends, C and B run and the queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
stop_cluster

echo "== campaign_short_room=0: no room, B takes the free CPU"
run_case ",campaign_short_room=0"
check "long B starts at once" wait_until 10 job_state_is "$b" R
scancel "$a"
check "the queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
