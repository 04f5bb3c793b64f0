#!/usr/bin/env bash
# OStrich in slurmctld: a hand-computed workload whose virtual-completion order differs from FIFO,
# from fewest-jobs-first and from smallest-work-first; Slurm's priorities must follow it.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Batch: 4 nodes x 8 CPUs, m = 32. A whole-cluster job in partition "hold" (same nodes, its own
# fairness domain) keeps every CPU busy, so the batch jobs stay pending while we read their ranks.
start_ranked_cluster policy=ostrich,calc_period=1 --nodes 4 --cpus 8
hold_cpus 32

# Work = CPUs x limit (1 minute = 60 s), eligibility fixed by --begin:
#   camp1 (A): 3 jobs x 8 CPUs, W = 1440, eligible at T0
#   camp2 (B): 1 job x 16 CPUs, W =  960, eligible at T0+30
#   camp3 (C): 2 jobs x 5 CPUs, W =  600, eligible at T0+30
# Fluid schedule (doc/design.md §3, equal shares of m = 32):
#   [T0, T0+30]      A alone at 32/s: 960 done, 480 left
#   [T0+30, T0+75]   A, B, C at 32/3 each: A finishes (480 / (32/3) = 45 s): C~A = T0+75;
#                    B and C have 480 done each (C: 120 left, B: 480 left)
#   [T0+75, T0+82.5] B, C at 16 each: C finishes: C~C = T0+82.5; B has 120 more done, 360 left
#   [T0+82.5, ...]   B alone at 32: 360/32 = 11.25 s: C~B = T0+93.75
# OStrich order A, C, B. Submit order (FIFO) B, C, A; fewest jobs B, C, A; least work C, B, A.
# The key the core publishes between events is the thesis's eq. 5.1 projection with the current
# shares held (C~ = now + remaining / share; virtual_schedule.h), which keeps that order: from
# T0+30 each share is 32/3, so C~A = T0+30 + 480*3/32 = T0+75, C~C = T0+30 + 600*3/32 = T0+86.25,
# C~B = T0+30 + 960*3/32 = T0+120, whatever the second the pass ran.
t0=$(($(date +%s) + 8))
b_job=$(submit camp2 -p batch -n 16 -t 1 --begin="$(at_time $((t0 + 30)))" -J B1 --wrap "sleep 1")
c_jobs=("$(submit camp3 -p batch -n 5 -t 1 --begin="$(at_time $((t0 + 30)))" -J C1 --wrap "sleep 1")")
c_jobs+=("$(submit camp3 -p batch -n 5 -t 1 --begin="$(at_time $((t0 + 30)))" -J C2 --wrap "sleep 1")")
a_jobs=()
for i in 1 2 3; do
	a_jobs+=("$(submit camp1 -p batch -n 8 -t 1 --begin="$(at_time "$t0")" -J A$i --wrap "sleep 1")")
done
check "all six batch jobs pending" test "$(squeue -h -p batch -t PD -o %i | wc -l)" -eq 6

echo "== waiting until T0+30 s (B and C eligible) and a ranking pass"
while [ "$(date +%s)" -lt $((t0 + 33)) ]; do sleep 1; done

order=$(pending_order batch)
expected="${a_jobs[*]} ${c_jobs[*]} $b_job "
check_equal "Slurm's priority order is OStrich's (A, C, B)" "$expected" "$order"
fifo=$(printf '%s\n' "$b_job" "${c_jobs[@]}" "${a_jobs[@]}" | tr '\n' ' ')
check "that order is not FIFO (B, C, A)" test "$order" != "$fifo"
check "nor fewest-jobs-first (B, C, A)" test "$order" != "$b_job ${c_jobs[*]} ${a_jobs[*]} "
check "nor least-work-first (C, B, A)" test "$order" != "${c_jobs[*]} $b_job ${a_jobs[*]} "

echo "== the same events, captured from Slurm's job records and replayed by campsim, give that order"
check_equal "campsim's OStrich order from scontrol's records" "$expected" "$(campsim_order batch 32 ostrich)"

echo "== virtual completion times, as scampaign shows them, against the hand computation"
check_campaign_times virtual_finish "$t0" camp1:75 camp3:86.25 camp2:120

echo "== sprio agrees and its factor columns are non-zero"
check_sprio_agrees batch

echo "== release the cluster: every job completes"
scancel "$blocker"
check "queue drains within 120 s" wait_until 120 queue_empty
check_equal "batch jobs completed" 6 "$(grep 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" | grep -c 'Partition=batch')"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"

finish
