#!/usr/bin/env bash
# The kept plan starts what an early end freed (issue 17): more reservations than
# compress_search_depth (16) rank above a narrow job reserved on the other node, and a job
# ending early frees its node. A plan made afresh starts the narrow job there at once (it ends
# before any reservation ahead of it needs the node); the kept plan, updated in place, moved
# reservations beyond the depth only on their own nodes, so the narrow job waited for its
# reservation (minutes, or the next fresh plan). Now it starts within 2 s of the end, and the
# first reservation ahead of it starts no later than before.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 2 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=60"

read -r node_a node_b < <(sinfo -h -N -o %N | sort -u | head -2 | tr '\n' ' ')
echo "  nodes: $node_a $node_b"
holder=$(submit camp8 -p hold -n 4 -w "$node_b" -t 5 -J holder --wrap "sleep 300")
early=$(submit camp1 -n 4 -w "$node_a" -t 10 -J early --wrap "sleep 12")
running_count() { squeue -h -t R -o %i | wc -l; }
both_run() { [ "$(running_count)" -ge 2 ]; }
check "holder and early run" wait_until 70 both_run
wide=()
for k in $(seq 17); do # one more than compress_search_depth
	wide+=("$(submit camp2 -n 8 -N 2 -t 1 -J wide$k --wrap "sleep 1")")
done
narrow=$(submit camp3 -n 4 -N 1 -t 1 -J narrow --wrap "sleep 1")
sleep 3
head_planned_s=$(date -d "$(squeue -h -j "${wide[0]}" -o %S)" +%s 2>/dev/null || echo 0)
narrow_planned=$(squeue -h -j "$narrow" -o %S)
echo "  before the end: wide1 planned $(at_time "$head_planned_s"), narrow planned $narrow_planned"
check "narrow is reserved minutes ahead (the holder's limit end)" \
	test "$(date -d "$narrow_planned" +%s 2>/dev/null || echo 0)" -gt $(($(date +%s) + 120))
check "narrow still pending before early ends" job_state_is "$narrow" PD
check "early ends" wait_until 30 job_completed "$early"
ended_s=$(date +%s)
narrow_started() {
	job_state_is "$narrow" R || job_state_is "$narrow" CG || job_completed "$narrow"
}
check "narrow starts within 2 s of early's end" wait_until 2 narrow_started
echo "  narrow's state $(($(date +%s) - ended_s)) s after the end: $(squeue -h -j "$narrow" -o %t)"
check_equal "narrow ran on early's node" "$node_a" \
	"$(wait_until 10 job_completed "$narrow"; jobcomp_nodes "$narrow")"
head_now_s=$(date -d "$(squeue -h -j "${wide[0]}" -o %S)" +%s 2>/dev/null || echo 0)
echo "  wide1 planned $(at_time "$head_now_s") (was $(at_time "$head_planned_s"))"
check "wide1 is still reserved, no later than before" \
	test "$head_now_s" -gt 0 -a "$head_now_s" -le "$head_planned_s"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
scancel "$holder" "${wide[@]}" 2>/dev/null
finish
