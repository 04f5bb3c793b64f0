#!/usr/bin/env bash
# Jobs submitted to several partitions (-p a,b) in sched/campaign's plan: planned in whichever
# partition starts them first, as sched/backfill tries each of the job's queue records. On 4
# nodes of 4 CPUs, partition pa (n1-n2, PriorityTier=2, so its record of a pa,pb job comes first
# in Slurm's queue) and pb (n3-n4). Fillers hold every node: pa's for 100 s of a 3-minute limit,
# n4 too, n3 for 8 s of a 1-minute limit. A whole-node job of pa,pb is published (squeue --start)
# where pb frees (at most n3's filler's limit), not at pa's, and starts in pb on n3 when that filler
# ends. Slurm refuses no start the plan proposes. Planned in its first partition only (as before),
# the job was published at pa's fillers' end and waited for them: the start checks fail.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "PartitionName=pa Nodes=n[1-2] PriorityTier=2 MaxTime=INFINITE State=UP" \
	--conf "PartitionName=pb Nodes=n[3-4] PriorityTier=1 MaxTime=INFINITE State=UP"
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

fillers=(
	"$(submit camp1 -p pa -w n1 -n 4 -t 3 -J fill_a --wrap "sleep 100")"
	"$(submit camp1 -p pa -w n2 -n 4 -t 3 -J fill_a --wrap "sleep 100")"
	"$(submit camp2 -p pb -w n4 -n 4 -t 3 -J fill_b --wrap "sleep 100")"
)
short_filler=$(submit camp2 -p pb -w n3 -n 4 -t 1 -J fill_short --wrap "sleep 8")
all_running() { [ "$(squeue -h -t R -u camp1,camp2 | wc -l)" = 4 ]; }
check "the four fillers run" wait_until 20 all_running
short_started=$(date -d "$(squeue -h -j "$short_filler" -o %S)" +%s)
long_started=$(date -d "$(squeue -h -j "${fillers[0]}" -o %S)" +%s)

both=$(submit camp3 -p pa,pb -N 1 -n 4 -t 1 -J both --wrap "sleep 3")
sleep 3
published=$(date -d "$(squeue -h -j "$both" -t PD --start -o %S 2>/dev/null)" +%s 2>/dev/null || echo 0)
echo "  published start $(at_time "$published"), n3's filler's limit ends $(at_time $((short_started + 60))), pa's $(at_time $((long_started + 180)))"
check "the pa,pb job is published by the end of n3's filler's limit (pb)" \
	test "$published" -gt 0 -a "$published" -le $((short_started + 60 + 1))
check "the pa,pb job starts when n3's filler ends" wait_until 30 job_state_is "$both" R
check_equal "it runs in pb on n3" "pb n3" "$(squeue -h -j "$both" -o '%P %N')"

scancel "${fillers[@]}" 2>/dev/null
check "the queue drains within 30 s" wait_until 30 queue_empty
check_equal "Slurm refused no start the plan proposed" "$refused_before" \
	"$(refused=$(sched_stat refused); echo "${refused:-0}")"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
