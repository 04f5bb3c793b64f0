#!/usr/bin/env bash
# Node choice in sched/campaign's plan, on 4 nodes of 8 CPUs with one CPU of n1-n3 held (n4 is
# the only idle node, and the plan's best fit for a small job is n1). Each phase is a row of the
# coverage table, and each failed with that part of the plan switched off in plan_snapshot (the
# plan put the job on n1 and Slurm refused the start, or the throttle was overrun):
#   --exclusive        a 2-CPU exclusive job starts on n4, the one node nobody uses;
#   --nodelist         a job of n3 starts on n3; --exclude: one excluding n1-n3 starts on n4;
#   --nodes=min-max    a 2-CPU job of 2-3 nodes starts on 2 or 3 nodes, not one; a 15-CPU job of
#                      1-2 nodes, which fits now only on 3 (n4 held a minute at most), is
#                      published on 2 nodes with n4 (never more over 4 passes) and starts there
#                      when n4 is free, no later than published;
#   partitions         a job of partition "small" (n1-n2, inside "batch") waits while a batch job
#                      holds the rest of n1-n2, though n3-n4 are free, and then runs on n1-n2;
#   array %N throttle  --array=1-6%2: never more than 2 tasks run, and all 6 complete.
# Slurm refuses no start in any phase.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "PartitionName=small Nodes=n[1-2] MaxTime=INFINITE State=UP" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"
holders=()
for node in n1 n2 n3; do
	holders+=("$(submit camp8 -p hold -w "$node" -n 1 -t 5 -J holder --wrap "sleep 300")")
done
holders_run() { [ "$(squeue -h -t R -u camp8 | wc -l)" = 3 ]; }
check "one CPU of n1, n2 and n3 is held" wait_until 20 holders_run
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
nodes_of() { squeue -h -j "$1" -o %N; }
gone() { [ -z "$(squeue -h -j "$1" -o %t 2>/dev/null)" ]; }

echo "-- --exclusive"
refused_before=$(refused)
x=$(submit camp1 --exclusive -n 2 -t 1 -J exclusive --wrap "sleep 3")
check "the exclusive job starts" wait_until 10 job_state_is "$x" R
check_equal "on n4, the only node nobody uses" "n4" "$(nodes_of "$x")"
check_equal "no start refused (exclusive)" "$refused_before" "$(refused)"
wait_until 20 gone "$x" || scancel "$x"

echo "-- --nodelist, --exclude"
refused_before=$(refused)
w=$(submit camp2 -w n3 -n 2 -t 1 -J nodelist --wrap "sleep 3")
e=$(submit camp3 -x n[1-3] -n 2 -t 1 -J exclude --wrap "sleep 3")
check "the --nodelist=n3 job starts" wait_until 10 job_state_is "$w" R
check_equal "on n3" "n3" "$(nodes_of "$w")"
check "the --exclude=n[1-3] job starts" wait_until 10 job_state_is "$e" R
check_equal "on n4" "n4" "$(nodes_of "$e")"
check_equal "no start refused (node lists)" "$refused_before" "$(refused)"
wait_until 20 gone "$w" || scancel "$w"
wait_until 20 gone "$e" || scancel "$e"

echo "-- --nodes=min-max"
refused_before=$(refused)
n=$(submit camp4 -N 2-3 -n 2 -t 1 -J node_count --wrap "sleep 3")
check "the 2-3 node job starts" wait_until 10 job_state_is "$n" R
running_nodes=$(squeue -h -t R -j "$n" -o %D)
check "it runs on 2 or 3 nodes (got ${running_nodes:-none})" test "${running_nodes:-0}" -ge 2
check_equal "no start refused (node counts)" "$refused_before" "$(refused)"
wait_until 20 gone "$n" || scancel "$n"

echo "-- --nodes=1-2: never more nodes than the most"
# n4 taken for a minute at most: 15 CPUs fit now only on 3 nodes (7 + 7 + 7 of n1-n3), on 2 only
# at n4's end (8 + 7). Planned on 3, the start was refused.
refused_before=$(refused)
f4=$(submit camp5 -w n4 -n 8 -t 1 -J fill_n4 --wrap "sleep 15")
check "a job holds n4" wait_until 10 job_state_is "$f4" R
m=$(submit camp6 -N 1-2 -n 15 -t 1 -J most_two --wrap "sleep 3")
published_count() {
	local nodes
	nodes=$(squeue -h -t PD --start -j "$m" -o %Y)
	[ -n "$nodes" ] && [ "$nodes" != "(null)" ] && scontrol show hostnames "$nodes" | wc -l
}
published_two() { [ "$(published_count)" = 2 ]; }
check "the 1-2 node job is published on 2 nodes" wait_until 10 published_two
m_start=$(squeue -h -t PD --start -j "$m" -o %S)
m_nodes=$(squeue -h -t PD --start -j "$m" -o %Y)
echo "  most_two ($m): $(squeue -h -j "$m" -o '%t %r') start $m_start on $m_nodes"
check "with n4 among them" names_include "$m_nodes" n4
passes_before=$(sched_stat passes)
more_passes() { [ "$(sched_stat passes)" -gt "$((passes_before + 3))" ]; }
most=0
while ! more_passes; do
	count=$(published_count)
	[ "${count:-0}" -gt "$most" ] && most=$count
	sleep 0.5
done
check "over 4 passes it was never published on more than 2 nodes (most $most)" test "$most" -le 2
check "it waits while n4 is held" job_state_is "$m" PD
check "it starts once n4 is free" wait_until 30 job_state_is "$m" R
running_nodes=$(nodes_of "$m")
echo "  most_two ($m) runs on $running_nodes at $(squeue -h -j "$m" -o %S)"
check_equal "on 2 nodes" 2 "$(squeue -h -t R -j "$m" -o %D)"
check_equal "on the nodes published" "$m_nodes" "$running_nodes"
check "no later than its published start ($m_start)" \
	test "$(date -d "$(squeue -h -j "$m" -o %S)" +%s)" -le "$(date -d "$m_start" +%s)"
check_equal "no start refused (the most nodes)" "$refused_before" "$(refused)"
wait_until 20 gone "$m" || scancel "$m"

echo "-- overlapping partitions"
refused_before=$(refused)
f=$(submit camp5 -w n[1-2] -N 2 -n 14 -t 1 -J fill_small --wrap "sleep 20")
check "a batch job holds the rest of n1-n2" wait_until 10 job_state_is "$f" R
p=$(submit camp6 -p small -n 4 -t 1 -J in_small --wrap "sleep 3")
passes_before=$(sched_stat passes)
more_passes() { [ "$(sched_stat passes)" -gt "$((passes_before + 3))" ]; }
check "sched/campaign planned 4 more passes" wait_until 15 more_passes
check "the job of partition small waits though n3-n4 are free" job_state_is "$p" PD
check "it runs once the batch job ends" wait_until 40 job_state_is "$p" R
check "on n1 or n2 (got $(nodes_of "$p"))" eval 'names_include n[1-2] "$(nodes_of "$p")"'
check_equal "no start refused (partitions)" "$refused_before" "$(refused)"
wait_until 20 gone "$p" || scancel "$p"
scancel "$f" 2>/dev/null

echo "-- job array with a %2 throttle"
refused_before=$(refused)
array=$(submit camp7 --array=1-6%2 -n 1 -t 1 -J throttled --wrap "sleep 4")
most=0
for _ in $(seq 1 80); do
	running=$(squeue -h -t R -r -u camp7 | wc -l)
	[ "$running" -gt "$most" ] && most=$running
	[ -z "$(squeue -h -u camp7 -o %i)" ] && break
	sleep 0.5
done
echo "  at most $most tasks ran at once"
check "at most 2 tasks ran at once" test "$most" -le 2
check "2 tasks ran at once at some point" test "$most" -eq 2
array_done() { [ "$(grep ' Name=throttled ' "$("$localcluster" path jobcomp)" | grep -c 'JobState=COMPLETED')" -ge 6 ]; }
check "all 6 tasks completed" wait_until 30 array_done
check_equal "no start refused (array throttle)" "$refused_before" "$(refused)"

scancel "${holders[@]}"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
