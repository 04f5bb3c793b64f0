#!/usr/bin/env bash
# A refused array record is tried and counted once a pass. One node of 4 CPUs and one license;
# a three-task array (-n 1, --licenses=lic:1) is released into one pass. The plan sees the
# license free (it counts no licenses between jobs) and plans all three tasks now; the first
# starts and takes the license, and the record's next task is refused for Licenses. Its third
# task is the same record to select_nodes: it is neither tried nor counted, so the pass counts
# one refusal, not two (with every task tried, as before: 2, which fails the count check).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 1 --cpus 4 --conf "Licenses=lic:1" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "SlurmctldDebug=verbose"
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
refused_before=$(refused)

array=$(submit camp1 -H --array=1-3 -n 1 -t 2 -L lic:1 -J array --wrap "sleep 30")
scontrol release "$array"
running() { [ "$(squeue -h -r -j "$array" -t R | wc -l)" -ge 1 ]; }
check "one task of the array starts" wait_until 10 running
sleep 3 # a few more passes: the license stays taken, so they plan none of the rest
check_equal "one task runs (one license)" 1 "$(squeue -h -r -j "$array" -t R | wc -l)"
check_equal "the pass counted one refusal (Licenses) for the record" $((refused_before + 1)) \
	"$(refused)"
check_equal "start_planned logged one refusal" 1 \
	"$(grep -c "start of JobId=$array refused: Licenses" "$(ctld_log)")"
scancel "$array"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
