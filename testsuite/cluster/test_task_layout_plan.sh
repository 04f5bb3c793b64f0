#!/usr/bin/env bash
# Task layouts in sched/campaign's plan, on 4 nodes of 8 CPUs with 3 CPUs of each held (5 free
# a node). The plan places whole tasks as select/cons_tres does (PendingJob's task layout):
#   --spread-job -n 4   one task on each of the four nodes (counted as 4 CPUs alone, the plan put
#                       them on one node, and Slurm spread them over only that node);
#   --ntasks-per-node   -n 4 --ntasks-per-node=2 -c 2: two nodes of 4 CPUs;
#   -n 4 -c 3           12 CPUs as four tasks of 3: all four nodes, 3 CPUs each (counted as 12
#                       CPUs alone: 5 + 5 + 2 on three nodes, whose third holds no whole task);
#   the same, reserved  while the first runs (2 free a node) it is published on n[1-4] at the
#                       first one's end and started there.
# Slurm refuses no start. With the layout left out of plan_snapshot (add_task_layout returning
# at once), the spread job ran on one node, the -n 4 -c 3 job on three and the reserved one was
# published on three: 4 checks failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"
for node in n1 n2 n3 n4; do
	submit camp8 -p hold -w "$node" -n 3 -t 5 -J holder --wrap "sleep 300" >/dev/null
done
holders_run() { [ "$(squeue -h -t R -u camp8 | wc -l)" = 4 ]; }
check "3 CPUs of each node are held" wait_until 20 holders_run
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
refused_before=$(refused)
nodes_of() { squeue -h -j "$1" -o %N; }
cpus_of() { squeue -h -j "$1" -o %C; }
gone() { [ -z "$(squeue -h -j "$1" -o %t 2>/dev/null)" ]; }

echo "-- --spread-job -n 4"
spread=$(submit camp1 -n 4 --spread-job -t 1 -J spread --wrap "sleep 3")
check "the spread job starts" wait_until 10 job_state_is "$spread" R
check_equal "one task on each node" "n[1-4] 4" "$(nodes_of "$spread") $(cpus_of "$spread")"
wait_until 20 gone "$spread" || scancel "$spread"

echo "-- -n 4 --ntasks-per-node=2 -c 2"
per_node=$(submit camp2 -n 4 --ntasks-per-node=2 -c 2 -t 1 -J per_node --wrap "sleep 3")
check "the --ntasks-per-node job starts" wait_until 10 job_state_is "$per_node" R
node_count=$(scontrol show hostnames "$(nodes_of "$per_node")" | wc -l)
check_equal "two nodes, 8 CPUs" "2 8" "$node_count $(cpus_of "$per_node")"
wait_until 20 gone "$per_node" || scancel "$per_node"

echo "-- -n 4 -c 3"
tasks=$(submit camp3 -n 4 -c 3 -t 1 -J tasks --wrap "sleep 15")
check "the -n 4 -c 3 job starts" wait_until 10 job_state_is "$tasks" R
check_equal "one task of 3 CPUs on each node" "n[1-4] 12" "$(nodes_of "$tasks") $(cpus_of "$tasks")"

echo "-- the same layout, reserved behind it"
reserved=$(submit camp4 -n 4 -c 3 -t 1 -J reserved --wrap "sleep 3")
published() { [ -n "$(squeue -h -j "$reserved" -t PD -o %Y 2>/dev/null | grep -v '^(null)$')" ]; }
check "the second -n 4 -c 3 job is reserved with its nodes" wait_until 10 published
check_equal "published on all four nodes" "n[1-4]" "$(squeue -h -j "$reserved" -o %Y)"
check "it starts once the first ends" wait_until 40 job_state_is "$reserved" R
check_equal "started on the nodes it was published on" "n[1-4] 12" \
	"$(nodes_of "$reserved") $(cpus_of "$reserved")"
wait_until 20 gone "$reserved" || scancel "$reserved"

check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(refused)"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
