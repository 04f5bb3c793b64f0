#!/usr/bin/env bash
# Job kinds and admin actions under priority/campaign: a 500-task array is one campaign of 500
# jobs; held/released, dependent, cancelled, requeued jobs and `scontrol update priority=` each
# behave as documented; slurmctld stays up and every job completes.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 4 --cpus 8
hold_cpus 32
array=$(submit camp1 -p batch --array=1-500 -n 1 -t 1 -J array --wrap true)
held=$(submit camp2 -p batch -H -n 1 -t 1 -J held --wrap true)
parent=$(submit camp3 -p batch -n 1 -t 1 -J parent --wrap "sleep 1")
child=$(submit camp3 -p batch -n 1 -t 1 -J child --dependency="afterok:$parent" --wrap true)
victim=$(submit camp4 -p batch -n 1 -t 1 -J victim --wrap true)
admin=$(submit camp5 -p batch -n 1 -t 1 -J admin --wrap true)
sleep 3

echo "== a 500-task array is one campaign of 500 pending jobs"
check_equal "camp1's campaign counts 500 pending jobs" 500 "$(campaign_field camp1 pending)"
check "with 30,000 CPU-s of work it ranks after camp4's single job" \
	test "$(squeue -h -j "$array" -o %Q | head -n 1)" -lt "$(squeue -h -j "$victim" -o %Q)"

echo "== held, dependent, admin-set"
check_equal "the held job keeps priority 0" 0 "$(squeue -h -j "$held" -o %Q)"
check_equal "the held job has no campaign" none "$(campaign_field camp2 pending)"
scontrol release "$held"
held_ranked() { [ "$(squeue -h -j "$held" -o %Q)" -gt 1 ] && [ "$(campaign_field camp2 pending)" = 1 ]; }
check "released, it is ranked and joins a campaign" wait_until 10 held_ranked
check_equal "the dependent job waits on its dependency" Dependency "$(squeue -h -j "$child" -o %r)"
check_equal "camp3's campaign counts the parent only" 1 "$(campaign_field camp3 pending)"
scontrol update jobid="$admin" priority=5000
sleep 3
check_equal "an admin-set priority is left alone by our passes" 5000 "$(squeue -h -j "$admin" -o %Q)"

echo "== cancelled and requeued"
scancel "$victim"
victim_gone() { [ "$(campaign_field camp4 pending)" = none ]; }
check "the cancelled job leaves camp4's campaign" wait_until 10 victim_gone
before_requeue=$(live_campaign camp8)
scontrol requeue "$blocker"
requeued_pending() { job_state_is "$blocker" PD; }
check "the requeued job is pending again" wait_until 15 requeued_pending
echo "  requeued job: $(squeue -h -j "$blocker" -o 'state %t, reason %r, eligible %V')"
# Its run ended; pending until its begin time, then ranked (or running again) in a new campaign.
blocker_back() {
	local now
	now=$(live_campaign camp8)
	[ "${now#* }" = 1 ] && [ "${now%% *}" != "${before_requeue%% *}" ]
}
check "once eligible it is back, in a new campaign (was: $before_requeue)" wait_until 150 blocker_back
echo "  camp8's live campaign now: $(live_campaign camp8)"
scancel "$blocker"
check "slurmctld is up" ctld_ping

echo "== everything else completes"
check "the queue drains within 300 s" wait_until 300 queue_empty
check_equal "array tasks completed" 500 "$(grep 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" | grep -c 'Name=array ')"
check_equal "the other four completed (held, parent, child, admin)" 4 \
	"$(grep 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" | grep -cE 'Name=(held|parent|child|admin) ')"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
