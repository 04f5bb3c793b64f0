#!/usr/bin/env bash
# Jobs that become eligible together at a begin time (sbatch --begin) start in the policy's rank
# order, not in job-id order. A heavy user submits six jobs first, a light user two after, all with
# the same --begin; OStrich ranks the light campaign first. calc_period=60, so no periodic pass
# ranks them in time: (1) priority/campaign ranks them in their begin second by itself (seen on a
# full machine, where sched/campaign starts nothing and asks for no ranking); (2) on a machine with
# room for four, the four that start are the light user's two and the heavy user's first two:
# sched/campaign starts no job eligible after the last ranking (it waits for the next), so the
# race between its pass in the begin second and that ranking never starts them at submit order.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=60 --nodes 2 --cpus 4

# submit_at_begin HEAVY LIGHT BEGIN SLEEP: six 1-CPU jobs of HEAVY, then two of LIGHT, all eligible
# at BEGIN; sets heavy_jobs and light_jobs.
submit_at_begin() {
	local begin
	begin=$(at_time "$3")
	heavy_jobs=()
	light_jobs=()
	for i in 1 2 3 4 5 6; do
		heavy_jobs+=("$(submit "$1" -p batch -n 1 -t 1 --begin="$begin" -J H$i --wrap "sleep $4")")
	done
	for i in 1 2; do
		light_jobs+=("$(submit "$2" -p batch -n 1 -t 1 --begin="$begin" -J L$i --wrap "sleep $4")")
	done
}
words() { tr ' ' '\n' <<<"$*" | grep . | sort -n | tr '\n' ' '; }

echo "== (1) full machine: ranked in the begin second, not a calc_period later"
hold_cpus 8
begin=$(($(date +%s) + 6))
submit_at_begin camp1 camp2 "$begin" 5
check "all eight jobs pending before the begin time" test "$(pending_count)" -eq 8
wait_for_second $((begin + 2))
ranked="${light_jobs[*]} ${heavy_jobs[*]} "
order=$(pending_order batch)
check_equal "two seconds after the begin time, Slurm's priority order is OStrich's (light first)" \
	"$ranked" "$order"
check "that order is not job-id order" test "$order" != "${heavy_jobs[*]} ${light_jobs[*]} "
check_equal "nothing started on the full machine" 8 "$(squeue -h -p batch -t PD -o %i | wc -l)"
scancel "${heavy_jobs[@]}" "${light_jobs[@]}" "$blocker"
check "the first round is gone" wait_until 20 queue_empty

echo "== (2) room for four: the four that start at the begin time are the first four ranked"
hold_cpus 4
begin=$(($(date +%s) + 6))
submit_at_begin camp3 camp4 "$begin" 20
check "all eight jobs pending before the begin time" test "$(squeue -h -p batch -t PD -o %i | wc -l)" -eq 8
wait_for_second $((begin + 3))
running=$(squeue -h -p batch -t R -o %i)
first_four=$(words "${light_jobs[*]} ${heavy_jobs[0]} ${heavy_jobs[1]}")
check_equal "the jobs started at the begin time are the light user's two and the heavy user's first two" \
	"$first_four" "$(words $running)"
id_order=$(words "${heavy_jobs[*]:0:4}")
check "not the four lowest job ids (the heavy user's)" test "$(words $running)" != "$id_order"
light_started=$(squeue -h -j "$(IFS=,; echo "${light_jobs[*]}")" -t R -o %i | wc -l)
check_equal "both light jobs run" 2 "$light_started"

echo "== release the cluster: every job completes"
scancel "$blocker"
check "queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"

finish
