#!/usr/bin/env bash
# Node Weight in sched/campaign's plan: on 4 nodes of 4 CPUs, n3 and n4 are made the lightest
# (scontrol update Weight=1; n1 and n2 Weight=100). Select fills the lightest nodes first, and the
# plan starts jobs on the nodes it chose, so the plan must choose as select does: two whole-node
# jobs start on n3 and n4, a job of 6 CPUs then takes both heavy nodes, and a whole-node job
# queued while every node is busy is published (squeue --start, SCHEDNODES) on the light node
# whose job's limit ends first, and starts on the light node that frees first. Slurm refuses no start the plan proposes. With weights left out of the plan
# (every node weight 1 in the snapshot) the whole-node jobs started on n1 and n2 (best fit, then
# the lowest index) and the first checks fail.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"
check "scontrol sets Weight=100 on n1-n2" scontrol update NodeName=n[1-2] Weight=100
check "scontrol sets Weight=1 on n3-n4" scontrol update NodeName=n[3-4] Weight=1
check_equal "sinfo shows the weights" "n1 100 n2 100 n3 1 n4 1" \
	"$(sinfo -h -N -p batch -o '%N %w' | tr '\n' ' ' | sed 's/ $//')"
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

light_a=$(submit camp1 -N 1 -n 4 -t 1 -J light_a --wrap "sleep 20")
check "the first whole-node job starts" wait_until 15 job_state_is "$light_a" R
light_b=$(submit camp2 -N 1 -n 4 -t 1 -J light_b --wrap "sleep 12")
check "the second whole-node job starts" wait_until 15 job_state_is "$light_b" R
check_equal "the two whole-node jobs run on the light nodes n3 and n4" "n3 n4" \
	"$(squeue -h -j "$light_a,$light_b" -o %N | sort | tr '\n' ' ' | sed 's/ $//')"
heavy=$(submit camp3 -n 6 -t 1 -J heavy --wrap "sleep 30")
check "the 6-CPU job starts once the light nodes are full" wait_until 15 job_state_is "$heavy" R
check_equal "it runs on the heavy nodes" "n[1-2]" "$(squeue -h -j "$heavy" -o %N)"
# Every node busy now (2 CPUs of n1-n2 free): a whole-node job waits. The plan knows limits,
# not sleeps: light_a's node (a light one) is the first whose limit ends, so the job is published
# there; light_b ends first in fact (12 s against 20 and 30) and the job starts on its node when
# it does, a light node again.
waiting=$(submit camp4 -N 1 -n 4 -t 1 -J waiting --wrap "sleep 3")
sleep 3
light_a_node=$(squeue -h -j "$light_a" -o %N)
light_b_node=$(squeue -h -j "$light_b" -o %N)
check_equal "the waiting job is published on the light node whose limit ends first" \
	"$light_a_node" "$(squeue -h -j "$waiting" -t PD -o %Y 2>/dev/null)"
check "the waiting job starts" wait_until 30 job_state_is "$waiting" R
check_equal "it starts on the light node that freed first" "$light_b_node" \
	"$(squeue -h -j "$waiting" -o %N)"

check "the queue drains within 60 s" wait_until 60 queue_empty
check_equal "Slurm refused no start the plan proposed" "$refused_before" \
	"$(sched=$(sched_stat refused); echo "${sched:-0}")"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
