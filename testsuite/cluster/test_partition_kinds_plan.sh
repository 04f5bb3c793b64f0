#!/usr/bin/env bash
# OverSubscribe=EXCLUSIVE and PriorityTier partitions in sched/campaign's plan, on 4 nodes of 4
# CPUs. excl (n1-n2, OverSubscribe=EXCLUSIVE): Slurm gives each of its jobs whole nodes, so the
# plan must too. With n2 held, a 1-CPU excl job and three 1-CPU batch jobs on n1 are released
# together (one pass plans them all): the excl job takes all of n1 and the batch jobs wait for it
# (or, ranked first, they run and the excl job waits); never side by side, and no start refused.
# With only the job's own --exclusive read (as before), the plan put them side by side on n1 and
# Slurm refused 3 starts (the refusal check fails). low and high (n3-n4, PriorityTier=1 and 10): Slurm's queue orders by
# tier before priority, and so does the plan (priority/campaign also ranks a higher tier first):
# a whole-machine job of high submitted after one of low is reserved first and starts first once
# a filler ends. With the plan's queue re-sorted by priority alone this check still passed (the
# ranking carries the tier): it guards both together. So a second pair takes the ranking out: an
# operator sets the low-tier job's priority far above the high-tier one's (scontrol update
# Priority=, which priority/campaign keeps exactly), so only the queue's tier order puts high
# first; with the plan's queue re-sorted by priority alone, low started first and this check failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "PartitionName=excl Nodes=n[1-2] OverSubscribe=EXCLUSIVE MaxTime=INFINITE State=UP" \
	--conf "PartitionName=low Nodes=n[3-4] PriorityTier=1 MaxTime=INFINITE State=UP" \
	--conf "PartitionName=high Nodes=n[3-4] PriorityTier=10 MaxTime=INFINITE State=UP"
check_equal "excl is OverSubscribe=EXCLUSIVE" "EXCLUSIVE" \
	"$(scontrol show partition excl | sed -n 's/.*OverSubscribe=\([A-Z]*\).*/\1/p')"
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

n2_filler=$(submit camp1 -p batch -w n2 -n 4 -t 2 -J fill_n2 --wrap "sleep 60")
n34_filler=$(submit camp1 -p batch -w n[3-4] -N 2 -n 8 -t 1 -J fill_n34 --wrap "sleep 12")
fillers_run() { job_state_is "$n2_filler" R && job_state_is "$n34_filler" R; }
check "the fillers hold n2 and n3-n4" wait_until 20 fillers_run

# Tiers: low first (older, so not behind high by priority), then high; both whole n3-n4.
low=$(submit camp2 -p low -N 2 -n 8 -t 1 -J low --wrap "sleep 4")
high=$(submit camp3 -p high -N 2 -n 8 -t 1 -J high --wrap "sleep 4")

# Exclusive: held, then released together.
excl=$(submit camp4 -p excl -n 1 -t 1 -H -J excl --wrap "sleep 10")
batch_jobs=()
for i in 1 2 3; do batch_jobs+=("$(submit camp5 -p batch -w n1 -n 1 -t 1 -H -J batch$i --wrap "sleep 10")"); done
scontrol release "$excl,$(IFS=,; echo "${batch_jobs[*]}")"
sleep 4
running_batch=$(squeue -h -j "$(IFS=,; echo "${batch_jobs[*]}")" -t R -o %i | wc -l)
excl_state=$(squeue -h -j "$excl" -o %t)
echo "  excl job: $excl_state, batch jobs running on n1: $running_batch"
check "the excl job and the batch jobs do not share n1 (one side runs, the other waits)" \
	test "$excl_state" = R -a "$running_batch" = 0 -o "$excl_state" = PD -a "$running_batch" = 3
if [ "$excl_state" = R ]; then
	check_equal "the excl job holds all of n1's CPUs" "4" "$(squeue -h -j "$excl" -o %C)"
fi

check "low and high both ran" wait_until 60 job_completed "$low"
check "high completed" job_completed "$high"
start_time_of() { sed -n "s/.*JobId=$1 .* StartTime=\([^ ]*\).*/\1/p" "$("$localcluster" path jobcomp)"; }
started_at() { date -d "$(start_time_of "$1")" +%s; }
# started_before A B: both ran (jobcomp has their start) and A started first.
started_before() {
	[ -n "$(start_time_of "$1")" ] && [ -n "$(start_time_of "$2")" ] &&
		[ "$(started_at "$1")" -lt "$(started_at "$2")" ]
}
echo "  high started $(at_time "$(started_at "$high")"), low $(at_time "$(started_at "$low")")"
check "the high-tier job started before the low-tier job submitted before it" \
	started_before "$high" "$low"

# Tiers against priorities: low2's priority set above high2's; the tier still decides.
n34_again=$(submit camp1 -p batch -w n[3-4] -N 2 -n 8 -t 1 -J fill_n34_again --wrap "sleep 10")
check "the second filler holds n3-n4" wait_until 20 job_state_is "$n34_again" R
low2=$(submit camp2 -p low -N 2 -n 8 -t 1 -J low2 --wrap "sleep 4")
high2=$(submit camp3 -p high -N 2 -n 8 -t 1 -J high2 --wrap "sleep 4")
scontrol update JobId="$low2" Priority=900000
scontrol update JobId="$high2" Priority=10
echo "  priorities: low2 $(squeue -h -j "$low2" -o %Q), high2 $(squeue -h -j "$high2" -o %Q)"
check "low2's priority is above high2's" \
	test "$(squeue -h -j "$low2" -o %Q)" -gt "$(squeue -h -j "$high2" -o %Q)"
both_done() { job_completed "$low2" && job_completed "$high2"; }
check "low2 and high2 both ran" wait_until 60 both_done
echo "  high2 started $(at_time "$(started_at "$high2")"), low2 $(at_time "$(started_at "$low2")")"
check "the high-tier job started first though the low-tier job's priority is higher" \
	started_before "$high2" "$low2"

scancel "$n2_filler" 2>/dev/null
check "the queue drains within 60 s" wait_until 60 queue_empty
check_equal "Slurm refused no start the plan proposed" "$refused_before" \
	"$(refused=$(sched_stat refused); echo "${refused:-0}")"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
