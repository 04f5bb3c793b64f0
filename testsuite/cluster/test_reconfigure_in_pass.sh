#!/usr/bin/env bash
# A reconfigure that lands while sched/campaign plans finishes. From 26.05 slurmctld's shutdown and
# reconfigure sleep until the backfill cycle flag (bf_active, which our passes set as
# sched/backfill does) is cleared and they are woken; a pass that cleared it without waking them
# left slurmctld half stopped for good: RPCs answered, no reconfigure, no pass, no job started
# (stops 65 and 66, CI rehearsals on 26.05.3). Here passes run nearly back to back (a deep queue,
# a submission every 50 ms, the least gap between passes) while slurmctld is reconfigured twice in
# a row, round after round: each round's new PriorityParameters must be applied, and afterwards
# every job runs.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 8 \
	--conf "DebugFlags=Backfill,BackfillMap" --conf "SlurmctldDebug=verbose"
conf=$("$localcluster" path conf)
sed -i 's/^SchedulerParameters=.*/SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_min_gap_ms=50/' "$conf"
reconfigure_ctld

hold_cpus 16
# A deep queue, its plan logged whole (BackfillMap), makes each pass long: 4 users x an array of
# 1,000 one-CPU tasks.
for user in camp1 camp2 camp3 camp4; do submit "$user" -p batch -n 1 -t 1 --array=1-1000 --wrap "true" >/dev/null; done
tasks_pending() { squeue -h -r -t PD -o %i | wc -l; }
check "4,000 tasks pending behind the blocker" wait_until 30 test "$(tasks_pending)" -ge 4000
passes() { grep -c 'BACKFILL: sched/campaign: pass over' "$(ctld_log)"; }
check "sched/campaign passes over the queue" wait_until 10 test "$(passes)" -gt 0

# A job submitted every 50 ms wakes a pass each time, so a pass is running most of the time.
(while :; do submit camp5 -p batch -n 1 -t 1 --wrap "true" >/dev/null 2>&1; sleep 0.05; done) &
submitter=$!
trap 'kill "$submitter" 2>/dev/null; stop_cluster' EXIT # lib.sh's trap, and the submitter
# A new slurmctld plans about 50 ms after it takes over, for some 15 ms: the second reconfigure
# comes 0 to 150 ms after the first, 5 ms later each round, so that some rounds meet that pass
# whatever this machine's speed.
for round in $(seq 2 32); do
	delay=$(awk -v r="$round" 'BEGIN { printf "%.3f", (r - 2) * 0.005 }')
	echo "== round $round: two reconfigures $delay s apart, the second with calc_period=$round"
	scontrol reconfigure >/dev/null 2>&1 || true
	sleep "$delay"
	sed -i "s/^PriorityParameters=policy=ostrich,calc_period=[0-9]*/PriorityParameters=policy=ostrich,calc_period=$round/" "$conf"
	scontrol reconfigure >/dev/null 2>&1 || true
	applied() { grep -q "priority/campaign: parameters calc_period=$round," "$(ctld_log)"; }
	check "round $round: slurmctld applied calc_period=$round" wait_until 60 applied
	check "round $round: slurmctld answers" wait_until 60 ctld_ping
	applied || break # a hung slurmctld stays hung: the rounds after would only wait
done
kill "$submitter" 2>/dev/null
wait "$submitter" 2>/dev/null
met=$(awk '/Reconfigure signal \(SIGHUP\)/ { hup = 1; next }
	hup && /BACKFILL: sched\/campaign: pass over/ { met++; hup = 0; next }
	/Saving all slurm state/ { hup = 0 } END { print met + 0 }' "$(ctld_log)")
echo "  $(passes) passes logged; $met of them ended between a reconfigure's SIGHUP and its state save (the case under test)"

check "the blocker is cancelled" scancel "$blocker"
check "every job ran: the queue drains within 300 s" wait_until 300 queue_empty
check_equal "no error from our plugins" "" "$(plugin_errors)"
finish
