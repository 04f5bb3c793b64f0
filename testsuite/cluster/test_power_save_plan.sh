#!/usr/bin/env bash
# Powered-down nodes in sched/campaign's plan (power saving), on 2 nodes of 4 CPUs. Slurm runs
# SuspendProgram and ResumeProgram; here they stop and start the node's own slurmd (each node of
# the local cluster is a slurmd of its own on this host, so a "powered-down" node is one whose
# slurmd is gone, and resuming it starts that slurmd again, well within ResumeTimeout).
#   n2 is powered down (scontrol update State=POWER_DOWN), n1 held by a filler whose limit ends
#   in 60 s. A job of both nodes is published at now + ResumeTimeout (120 s), not at the
#   filler's end: a powered-down node is usable from then. With the powered-down nodes left out
#   of plan_snapshot (read as idle nodes, as before) it was published at the filler's end and
#   this check failed.
#   Once the filler ends, the job starts at once: the plan starts it over the resume (as a start
#   that preempts), Slurm resumes n2 and runs it there. No start refused.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

resume_timeout_s=120
power_dir=$("$localcluster" path dir)/power
mkdir -p "$power_dir"
slurm_sbin=${SLURM_PREFIX:-/usr}/sbin
conf=$("$localcluster" path conf)
run_dir=$("$localcluster" path dir)/run
# Slurm passes a host list ("n2", "n[1-2]"): one slurmd per node, stopped and started by pid file.
cat >"$power_dir/suspend" <<EOF
#!/bin/bash
for node in \$(SLURM_CONF=$conf scontrol show hostnames "\$1"); do
	pid=\$(cat "$run_dir/slurmd.\$node.pid" 2>/dev/null) && kill "\$pid"
done
exit 0
EOF
cat >"$power_dir/resume" <<EOF
#!/bin/bash
for node in \$(SLURM_CONF=$conf scontrol show hostnames "\$1"); do
	SLURM_CONF=$conf $slurm_sbin/slurmd -N "\$node" -f $conf
done
exit 0
EOF
chmod 755 "$power_dir/suspend" "$power_dir/resume"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 2 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "SuspendProgram=$power_dir/suspend" --conf "ResumeProgram=$power_dir/resume" \
	--conf "SuspendTime=3600" --conf "SuspendTimeout=5" --conf "ResumeTimeout=$resume_timeout_s"
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
refused_before=$(refused)
node_state() { sinfo -h -n "$1" -N -o %t | head -1; }
powered_down() { [ "$(node_state n2)" = "idle~" ]; }

scontrol update NodeName=n2 State=POWER_DOWN
check "n2 is powered down (idle~)" wait_until 30 powered_down
filler=$(submit camp8 -p hold -w n1 -n 4 -t 1 -J filler --wrap "sleep 10")
check "the filler holds n1" wait_until 20 job_state_is "$filler" R
filler_end=$(date -d "$(squeue -h -j "$filler" -o %e)" +%s)

submitted=$(date +%s)
both=$(submit camp1 -N 2 -n 8 -t 1 -J both --wrap "sleep 3")
published_start() { squeue -h -j "$both" -t PD --start -o %S 2>/dev/null | grep '^20'; }
check "the job of both nodes gets a published start" wait_until 10 published_start
start=$(date -d "$(published_start)" +%s)
echo "  filler ends at T+$((filler_end - submitted)) s, the job is published at T+$((start - submitted)) s"
check "published no earlier than ResumeTimeout from now (T+$((resume_timeout_s - 5)) s or later)" \
	test "$start" -ge "$((submitted + resume_timeout_s - 5))"
check "n2 is still powered down while the filler runs" powered_down

running_or_done() { job_state_is "$both" R || job_completed "$both"; }
check "the job starts once the filler ends, resuming n2" wait_until 60 running_or_done
check_equal "on both nodes" "n[1-2]" "$(jobcomp_nodes "$both")$(squeue -h -j "$both" -o %N)"
check "n2 is up again" not powered_down
check "the job completes" wait_until 30 job_completed "$both"
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(refused)"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
