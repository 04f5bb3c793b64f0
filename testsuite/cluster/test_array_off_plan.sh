#!/usr/bin/env bash
# OffPlanNodes reads back what Slurm gave an array task, on 2 nodes of 4 CPUs with 2 CPUs of each
# held for 2 minutes. R (-N 2, 3 CPUs a node) is reserved on both nodes at the holders' end, so
# from then 1 CPU a node is left. Then, released together into one pass:
#   A, a one-task array (--array=5, -n 2, 5 min): no node keeps 2 CPUs past R's start, so the
#     plan splits it 1 + 1 over n1 and n2; Slurm, told only the nodes, packs both CPUs on one
#     node. A one-task array record is also the last task of its array: select_nodes leaves it
#     its array_recs (job_array_post_sched), which is what the read-back used to skip;
#   B (-n 1, 1 min, ends before R's start): planned now on the CPU the plan left on n1.
# Both wait for one --begin second: released by `scontrol release`, which sends one RPC per job,
# a pass between the two (once in five CI runs) started A alone and never planned B beside it.
# With A's allocation read back, B waits for the next pass (left out as OffPlanNode) and starts
# there; Slurm refuses no start. With the read-back skipped for a record that has array_recs (as
# before), B's start was tried on the CPUs A took and refused: the refusal check failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 2 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "DebugFlags=Backfill" --conf "SlurmctldDebug=verbose"
for node in n1 n2; do
	submit camp8 -p hold -w "$node" -n 2 -t 2 -J holder --wrap "sleep 300" >/dev/null
done
holders_run() { [ "$(squeue -h -t R -u camp8 | wc -l)" = 2 ]; }
check "2 CPUs of each node are held" wait_until 20 holders_run
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
refused_before=$(refused)

reserved=$(submit camp1 -N 2 -n 6 --ntasks-per-node=3 -t 5 -J reserved --wrap "sleep 1")
published() { [ -n "$(squeue -h -j "$reserved" -t PD -o %Y 2>/dev/null | grep -v '^(null)$')" ]; }
check "R is reserved on both nodes at the holders' end" wait_until 10 published

begin=$(($(date +%s) + 6))
array=$(submit camp2 --begin="$(at_time "$begin")" --array=5 -n 2 -t 5 -J array --wrap "sleep 60")
backfill=$(submit camp3 --begin="$(at_time "$begin")" -n 1 -t 1 -J backfill --wrap "sleep 20")
check "A and B were submitted before their begin time" test "$(date +%s)" -lt "$begin"
wait_for_second "$begin"

task_running() { [ "$(squeue -h -j "${array}_5" -t R -o %t 2>/dev/null)" = R ]; }
check "the array task starts" wait_until 10 task_running
check_equal "Slurm packed it on one node (2 CPUs)" "1 2" \
	"$(scontrol show hostnames "$(squeue -h -j "${array}_5" -o %N)" | wc -l) $(squeue -h -j "${array}_5" -o %C)"
check "its allocation was read back (the Backfill line names the task)" \
	grep -q "JobId=${array}_5.* started with node:cpus [0-9]" "$(ctld_log)"
check "B starts (in a later pass, on the CPUs left)" wait_until 10 job_state_is "$backfill" R
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(refused)"
off_plan() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["by_reason"]["left_out_recent"].get("OffPlanNode", 0))' \
		"$(state_dir)/campaign_sched_stats.json"
}
check "B was left out as OffPlanNode in the pass that started A" test "$(off_plan)" -ge 1
scancel "$array" "$backfill" "$reserved"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
