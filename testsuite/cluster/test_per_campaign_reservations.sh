#!/usr/bin/env bash
# sched/campaign with priority/campaign and campaign_mode=per_campaign: the plan reserves the
# first blocked job of each campaign, the campaigns priority/campaign detected (published to
# the scheduler each ranking pass), so squeue --start shows exactly one start per campaign.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=per_campaign"

runner=$(submit camp1 -n 32 -t 1 -J runner --wrap "sleep 15")
check "the whole-cluster runner starts" wait_until 20 job_state_is "$runner" R
# Two campaigns (users camp2 and camp3) of two whole-cluster jobs each: nothing fits before the
# runner ends. Ranked FIFO: A1, A2, B1, B2. Per campaign, A1 and B1 get reservations; A2 and B2
# wait behind their own campaign's head. (Were every job one pseudo-campaign, only A1 would.)
a1=$(submit camp2 -n 32 -t 1 -J A1 --wrap "sleep 1")
a2=$(submit camp2 -n 32 -t 1 -J A2 --wrap "sleep 1")
b1=$(submit camp3 -n 32 -t 1 -J B1 --wrap "sleep 1")
b2=$(submit camp3 -n 32 -t 1 -J B2 --wrap "sleep 1")
sleep 5
reserved=$(squeue -h -t PD --start -o '%i %S' | awk '$2 ~ /^20/ {print $1}' | sort -n | tr '\n' ' ')
squeue -t PD --start -o '  %i %j %u %S'
check_equal "one reservation per campaign: A1 and B1" "$a1 $b1 " "$reserved"
reasons=$(squeue -h -t PD -o '%i %r' | sort -n | awk '{print $2}' | tr '\n' ' ')
check_equal "pending reasons: reserved jobs wait for Resources, the others for Priority" \
	"Resources Priority Resources Priority " "$reasons"
check "campaigns come from priority/campaign (scampaign lists camp2 and camp3)" \
	test "$(campaign_field camp2 pending)" = 2 -a "$(campaign_field camp3 pending)" = 2

check "the queue drains within 120 s" wait_until 120 queue_empty
check_equal "all 5 jobs completed" 5 "$(completed_count)"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
