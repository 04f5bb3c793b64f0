#!/usr/bin/env bash
# DebugFlags=BackfillMap: sched/campaign logs each pass's plan on one line (doc/replay.md), the
# line campsim's --dump-plan prints, read by scripts/replay_plan_map.py. One node of 4 CPUs, all
# held by a 2-minute blocker; W (2 CPUs, 1 minute) must wait for the blocker's end, so the line
# holds the blocker's expected end (its start plus 120 s) and W planned at that second on n1 with
# 2 CPUs and its 60-s limit. With the flag taken off, passes go on and no line is logged.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 1 --cpus 4 \
	--conf "DebugFlags=Backfill,BackfillMap" --conf "SlurmctldDebug=verbose"
blocker=$(submit camp8 -p hold -n 4 -t 2 -J blocker --wrap "sleep 300")
check "the blocker holds the node" wait_until 20 job_state_is "$blocker" R
waiting=$(submit camp1 -n 2 -t 1 -J waiting --wrap "sleep 1")
plan_line() {
	grep -E "BACKFILL_MAP: sched/campaign: plan room=[0-9]+ running=${blocker}>\+[0-9]+ planned=${waiting}@\+[0-9]+/60:n1x2$" \
		"$(ctld_log)" | tail -1
}
has_plan_line() { [ -n "$(plan_line)" ]; }
check "a pass logs the plan: the blocker's end, W planned on n1 x 2 for 60 s" wait_until 10 \
	has_plan_line
line=$(plan_line)
end=$(sed -E 's/.*running=[0-9]+>\+([0-9]+) .*/\1/' <<<"$line")
start=$(sed -E 's/.*planned=[0-9]+@\+([0-9]+)\/.*/\1/' <<<"$line")
check_equal "W is planned at the blocker's expected end" "$end" "$start"
check "the blocker's expected end is its start plus its 2-minute limit (within 120 s)" \
	test "$end" -ge 100 -a "$end" -le 120
scontrol setdebugflags -BackfillMap
lines_before=$(grep -c "sched/campaign: plan " "$(ctld_log)")
passes_before=$(sched_stat passes)
more_passes() { [ "$(sched_stat passes)" -gt $((passes_before + 2)) ]; }
check "passes go on with BackfillMap off" wait_until 10 more_passes
check_equal "and log no plan line" "$lines_before" "$(grep -c "sched/campaign: plan " "$(ctld_log)")"
scancel "$blocker" "$waiting"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
