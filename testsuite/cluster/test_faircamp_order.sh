#!/usr/bin/env bash
# FairCamp in slurmctld: hand-computed campaign deadlines whose order (EDF) differs from FIFO, from
# fewest-jobs-first and from smallest-work-first; Slurm's priorities must follow it.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Batch: m = 32 CPUs; a whole-cluster job in partition "hold" (its own domain) keeps the batch
# jobs pending while we read their ranks.
start_ranked_cluster policy=faircamp,calc_period=1 --nodes 4 --cpus 8
hold_cpus 32

# d = max(t, d_prev) + k * Delta (doc/design.md §3, anchored), k = active users when the campaign opens,
# Delta = makespan of a longest-first list schedule of the campaign's jobs on 32 CPUs:
#   camp1 (A) at T0:    3 jobs x 16 CPUs x 2 min: two run together, then one: Delta = 240;
#                       k = 1 (alone): d = T0 + 240.            Work 5760 CPU-s.
#   camp2 (B) at T0+20: 1 job x 32 CPUs x 1 min: Delta = 60; k = 2 (A, B): d = T0+20 + 120 = T0+140.
#                       Work 1920.
#   camp3 (C) at T0+40: 2 jobs x 8 CPUs x 3 min, side by side: Delta = 180; k = 3:
#                       d = T0+40 + 540 = T0+580.               Work 2880.
# EDF order B, A, C. Submit order (FIFO) C, A, B; fewest jobs B, C, A; least work B, C, A.
t0=$(($(date +%s) + 8))
c_jobs=()
for i in 1 2; do
	c_jobs+=("$(submit camp3 -p batch -n 8 -t 3 --begin="$(at_time $((t0 + 40)))" -J C$i --wrap "sleep 1")")
done
a_jobs=()
for i in 1 2 3; do
	a_jobs+=("$(submit camp1 -p batch -n 16 -t 2 --begin="$(at_time "$t0")" -J A$i --wrap "sleep 1")")
done
b_job=$(submit camp2 -p batch -n 32 -t 1 --begin="$(at_time $((t0 + 20)))" -J B1 --wrap "sleep 1")
check "all six batch jobs pending" test "$(squeue -h -p batch -t PD -o %i | wc -l)" -eq 6

echo "== waiting until T0+40 s (all three campaigns open) and a ranking pass"
while [ "$(date +%s)" -lt $((t0 + 43)) ]; do sleep 1; done

order=$(pending_order batch)
check_equal "Slurm's priority order is EDF's (B, A, C)" "$b_job ${a_jobs[*]} ${c_jobs[*]} " "$order"
check_equal "campsim's FairCamp order from scontrol's records (captured, replayed)" \
	"$b_job ${a_jobs[*]} ${c_jobs[*]} " "$(campsim_order batch 32 faircamp)"
check "that order is not FIFO (C, A, B)" test "$order" != "${c_jobs[*]} ${a_jobs[*]} $b_job "
check "nor fewest-jobs-first / least-work-first (B, C, A)" test "$order" != "$b_job ${c_jobs[*]} ${a_jobs[*]} "

echo "== deadlines as scampaign shows them, against the hand computation"
check_campaign_times deadline "$t0" camp1:240 camp2:140 camp3:580

echo "== sprio agrees and its factor columns are non-zero"
check_sprio_agrees batch

scancel "$blocker"
check "queue drains within 120 s" wait_until 120 queue_empty
check_equal "batch jobs completed" 6 "$(grep 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" | grep -c 'Partition=batch')"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
