#!/usr/bin/env bash
# Bad PriorityParameters or campaign_ SchedulerParameters stop slurmctld at start-up with a message
# naming the key; Slurm's own SchedulerParameters keys are left to Slurm.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# refused DESCRIPTION NAMED_TEXT CONF_LINES...: slurmctld must exit during start-up and its log must
# carry our error naming NAMED_TEXT.
refused() {
	local what=$1 named=$2 args=() line
	shift 2
	for line in "$@"; do args+=(--conf "$line"); done
	checks=$((checks + 1))
	if "$localcluster" start --plugin-dir "$plugin_dir" "${args[@]}" >/dev/null 2>&1; then
		fail "$what: slurmctld started"
		return
	fi
	local message
	message=$(grep -E 'error: (priority|sched)/campaign: ' "$(ctld_log)" | grep -F -- "$named" | head -n 1)
	if [ -n "$message" ]; then pass "$what: refused, ${message#*error: }"; else
		fail "$what: refused, but no error of ours names '$named' in $(ctld_log)"
	fi
}

trap stop_cluster EXIT
plugins=("PriorityType=priority/campaign" "SchedulerType=sched/campaign")

refused "unknown PriorityParameters key" "'calc_perio'" "${plugins[@]}" "PriorityParameters=calc_perio=5"
refused "bad PriorityParameters value" "calc_period" "${plugins[@]}" "PriorityParameters=calc_period=soon"
refused "out-of-range PriorityParameters value" "calc_period" "${plugins[@]}" "PriorityParameters=calc_period=0"
refused "unknown policy" "policy" "${plugins[@]}" "PriorityParameters=policy=lottery"
refused "unknown campaign_ SchedulerParameters key" "'campaign_bogus'" "${plugins[@]}" \
	"SchedulerParameters=campaign_bogus=1"
refused "bad campaign_ SchedulerParameters value" "campaign_period" "${plugins[@]}" \
	"SchedulerParameters=campaign_period=-3"
refused "out-of-range pass gap" "campaign_min_gap_ms" "${plugins[@]}" \
	"SchedulerParameters=campaign_min_gap_ms=10"

echo "== Slurm's own SchedulerParameters keys are Slurm's: accepted beside ours"
start_cluster --conf "${plugins[0]}" --conf "${plugins[1]}" \
	--conf "SchedulerParameters=bf_interval=30,default_queue_depth=50,campaign_period=2"
check_equal "slurmctld up with Slurm's keys present" "" "$(plugin_errors)"
check "scontrol show config lists the parameters" \
	grep -q 'campaign_period=2' <<<"$(scontrol show config | grep -i '^SchedulerParameters')"

finish
