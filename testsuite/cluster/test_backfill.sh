#!/usr/bin/env bash
# sched/campaign plans the queue: a whole-cluster job at the head gets a reservation (squeue
# --start shows it), small jobs backfill around it without delaying it, and it starts no later
# than the start published when it reached the head. sdiag counts our cycles.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"

# 24 of 32 CPUs busy for 100 s (limit 2 min: the plan expects them back at start + 120 s).
runner=$(submit camp1 -n 24 -t 2 -J runner --wrap "sleep 100")
check "the 24-CPU job starts" wait_until 20 job_state_is "$runner" R
head_job=$(submit camp2 -n 32 -t 1 -J head --wrap "sleep 2")
sleep 3
published=$(squeue -h -j "$head_job" -o %S)
echo "  head job $head_job: expected start $published (runner started $(squeue -h -j "$runner" -o %S))"
check "squeue --start shows a start for the head job" grep -q '^20' <<<"$published"

# Twelve 4-CPU jobs of 1-minute limit that run 3 s: they fit the 8 free CPUs now and end before
# the head job's reservation, so they backfill.
small=()
for i in $(seq 1 12); do small+=("$(submit camp3 -n 4 -t 1 -J small$i --wrap "sleep 3")"); done
sleep 3
starts=$(squeue -h -t PD --start -o '%S') # one listing: small jobs start between two
check_equal "every pending job has a published start (conservative)" "$(wc -l <<<"$starts")" \
	"$(grep -c '^20' <<<"$starts")"

check "the queue drains within 240 s" wait_until 240 queue_empty
check_head_not_starved "$head_job" "$published" "${small[@]}"
check_equal "all 14 jobs completed" 14 "$(completed_count)"

echo "== sdiag shows our cycles"
# Both count since slurmctld started; a pass may land between the reads, hence the bracket.
passes_before=$(sched_stat passes)
counter=$(sdiag | awk '/Backfilling stats/ { s = 1 } s && /Total cycles:/ { print $3; exit }')
backfilled_jobs=$(sdiag | sed -n 's/^[[:space:]]*Total backfilled jobs (since last slurm start): *\([0-9]*\).*/\1/p')
passes_after=$(sched_stat passes)
echo "  sdiag: $counter backfill cycles, $backfilled_jobs jobs; our passes: $passes_before..$passes_after"
check "sdiag counts backfill cycles" test "${counter:-0}" -gt 0
check "sdiag's cycle count is our pass count" \
	test "${counter:-0}" -ge "$passes_before" -a "${counter:-0}" -le $((passes_after + 1))
check_equal "sdiag's backfilled jobs are all our starts" "$(sched_stat jobs_started)" "$backfilled_jobs"
echo "  plans kept across passes: $(sched_stat plans_kept), planned afresh: $(sched_stat plans_rebuilt)"
check "the plan was kept across passes (updated in place, not only rebuilt)" \
	test "$(sched_stat plans_kept)" -gt 0
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
