#!/usr/bin/env bash
# Bad input at run time: a corrupted state file is moved aside and the plugin starts clean; an
# unknown key at `scontrol reconfigure` is logged and the old values stay; a good change applies.
# slurmctld stays up throughout and every job completes.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 8 \
	--conf "DebugFlags=Priority,Backfill" --conf "SlurmctldDebug=verbose"
state_file=$(state_dir)/campaign_priority_state.json
conf=$("$localcluster" path conf)

hold_cpus 16
for user in camp1 camp2 camp3; do submit "$user" -p batch -n 4 -t 1 --wrap "sleep 1" >/dev/null; done
check "the state file is written" wait_until 10 test -s "$state_file"
check "DebugFlags=Priority logs each pass: jobs seen, ranked, time" wait_until 10 grep -qE \
	'PRIO: priority/campaign: pass [0-9]+: [0-9]+ jobs seen, .* [0-9]+ pending ranked, .* [0-9]+ us' "$(ctld_log)"
check "DebugFlags=Backfill logs each sched/campaign pass" wait_until 10 grep -qE \
	'BACKFILL: sched/campaign: pass over [0-9]+ queued jobs: .* [0-9]+ us' "$(ctld_log)"

echo "== a corrupted state file"
"$localcluster" stop-ctld >/dev/null
printf '{"format":"slurm-campaign priority state","version":1,"core":{"version":' >"$state_file"
"$localcluster" restart-ctld >/dev/null
check "slurmctld is up" ctld_ping
check "the plugin logged the unusable file, naming it" \
	wait_until 10 grep -q "state file $state_file unusable" "$(ctld_log)"
check "the bad file was kept aside for the admin" test -s "$state_file.corrupt"
check "a fresh state file is written" wait_until 10 grep -q '"feeder"' "$state_file"
# prio_factors are not in Slurm's job_state: non-zero AGE (our rank score) means a pass ranked.
ranked_again() { [ -n "$(sprio -h -p batch -o %A)" ] && sprio -h -p batch -o %A | awk '$1 == 0 { exit 1 }'; }
check "pending jobs are ranked again" wait_until 10 ranked_again

echo "== scontrol reconfigure with an unknown key, then with a good change"
sed -i 's/^PriorityParameters=.*/PriorityParameters=policy=ostrich,calc_period=1,bogus_key=3/' "$conf"
sed -i 's/^SchedulerParameters=.*/SchedulerParameters=sched_interval=-1,defer,campaign_bogus=1/' "$conf"
reconfigure_ctld
check "priority/campaign logged the refusal naming the key" \
	wait_until 30 grep -q "priority/campaign: reconfigure ignored, old parameters kept: .*'bogus_key'" "$(ctld_log)"
check "sched/campaign logged the refusal naming the key" \
	wait_until 30 grep -q "sched/campaign: reconfigure ignored, old parameters kept: .*'campaign_bogus'" "$(ctld_log)"
check "slurmctld is still up" ctld_ping
sed -i 's/^PriorityParameters=.*/PriorityParameters=policy=fifo,calc_period=1/' "$conf"
sed -i 's/^SchedulerParameters=.*/SchedulerParameters=sched_interval=-1,defer,campaign_period=1/' "$conf"
reconfigure_ctld
check "the good change is applied" wait_until 30 grep -q 'priority/campaign: parameters .*policy=fifo' "$(ctld_log)"

scancel "$blocker"
check "queue drains within 60 s" wait_until 60 queue_empty
check_equal "batch jobs completed" 3 "$(grep 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" | grep -c 'Partition=batch')"
check_equal "no error from our plugins other than the expected ones" "" \
	"$(plugin_errors | grep -v -e 'unusable' -e 'reconfigure ignored')"
finish
