#!/usr/bin/env bash
# With memory a consumable resource (SelectTypeParameters=CR_CPU_Memory; 8 CPUs and 8192 MB a
# node), sched/campaign plans memory as select/cons_tres counts it: a job goes where its memory
# is free (now, or as a reservation when the memory frees), a small one backfills into the
# memory left, and --mem=0 (all of a node's memory) only lands on a node nobody else holds
# memory of. Slurm never has to refuse a start the plan proposed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SelectTypeParameters=CR_CPU_Memory" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"
check_equal "nodes offer 8192 MB" "8192 8192 8192 8192" \
	"$(sinfo -h -N -p batch -o '%m' | tr '\n' ' ' | sed 's/ $//')"

# n1: one CPU but 7000 MB held for 5 minutes; n2-n4: every CPU held (1000 MB each) for a minute.
hog=$(submit camp1 -w n1 -n 1 --mem=7000 -t 5 -J hog --wrap "sleep 300")
fillers=()
for node in n2 n3 n4; do
	fillers+=("$(submit camp2 -w "$node" -n 8 --mem=1000 -t 1 -J filler --wrap "sleep 25")")
done
all_running() { [ "$(squeue -h -t R -u camp1,camp2 | wc -l)" = 4 ]; }
check "the hog on n1 and three CPU fillers run" wait_until 20 all_running
refused_before=$(sched_stat refused)

# 2000 MB fits no node now (n1 has 7 CPUs but 1192 MB): reserved where the fillers end.
big=$(submit camp3 -n 1 --mem=2000 -t 1 -J big --wrap "sleep 2")
# 500 MB fits n1's 1192 MB now: it backfills there, ranked behind big.
small=$(submit camp4 -n 1 --mem=500 -t 1 -J small --wrap "sleep 2")
# --mem=0: all of a node's memory; n1 never qualifies while the hog runs.
whole=$(submit camp5 -n 1 --mem=0 -t 1 -J whole_memory --wrap "sleep 2")

big_reserved() { squeue -h -t PD --start -j "$big" -o %S | grep -q '^20'; }
check "the 2000 MB job is reserved (squeue --start shows a start)" wait_until 15 big_reserved
big_nodes=$(squeue -h -t PD --start -j "$big" -o %Y)
check "its reservation is not on n1 (published: $big_nodes)" \
	test -n "$big_nodes" -a "$big_nodes" != n1 -a "$big_nodes" != "(null)"
check_equal "the 2000 MB job still waits" PD "$(squeue -h -j "$big" -o %t)"
small_started() { ! job_state_is "$small" PD; }
check "the 500 MB job backfills now" wait_until 15 small_started

all_done() { job_completed "$big" && job_completed "$small" && job_completed "$whole"; }
check "the three jobs complete once the fillers end" wait_until 90 all_done
check_equal "the 500 MB job ran on n1" n1 "$(jobcomp_nodes "$small")"
big_ran=$(jobcomp_nodes "$big")
check "the 2000 MB job ran off n1 (on $big_ran)" test -n "$big_ran" -a "$big_ran" != n1
whole_ran=$(jobcomp_nodes "$whole")
check "the --mem=0 job ran off n1 (on $whole_ran)" test -n "$whole_ran" -a "$whole_ran" != n1
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(sched_stat refused)"
check "the hog still runs" job_state_is "$hog" R
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
