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
#   Once the filler ends, sched/campaign starts the job at once on n[1-2]: the plan starts it over
#   the resume (as a start that preempts), and Slurm runs ResumeProgram for n2. No start refused.
#   (On this one host the resumed slurmd starts but slurmctld never logs n2 as responding within
#   a minute: the job stays CONFIGURING, so the test does not wait for it to run.)
#   ResumeTimeout is 120 s on the nodes (partition "slow" over both) and 60 s in slurm.conf: Slurm
#   waits for each node by its own. A job behind the one waiting for n2's resume is published at
#   its start + 120 s + its limit; with slurm.conf's value for a running job waiting for its nodes
#   (as before) it was published 60 s earlier and this check failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

resume_timeout_s=120 # the nodes' (their partition's); slurm.conf's is half of it
power_dir=$("$localcluster" path dir)/power
mkdir -p "$power_dir"
slurm_sbin=${SLURM_PREFIX:-/usr}/sbin
conf=$("$localcluster" path conf)
run_dir=$("$localcluster" path dir)/run
# Slurm passes a host list ("n2", "n[1-2]"): one slurmd per node, stopped and started by pid file.
# The resumed slurmd is detached from the script (its own session, no inherited output): started
# as a plain child of the script, it stopped midway through its start-up and never registered.
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
	SLURM_CONF=$conf setsid -f $slurm_sbin/slurmd -N "\$node" -f $conf </dev/null >/dev/null 2>&1
done
exit 0
EOF
chmod 755 "$power_dir/suspend" "$power_dir/resume"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 2 --cpus 4 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative" \
	--conf "SuspendProgram=$power_dir/suspend" --conf "ResumeProgram=$power_dir/resume" \
	--conf "SuspendTime=3600" --conf "SuspendTimeout=5" --conf "ResumeTimeout=$((resume_timeout_s / 2))" \
	--conf "PartitionName=slow Nodes=ALL ResumeTimeout=$resume_timeout_s State=UP"
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
has_published_start() { published_start >/dev/null; }
check "the job of both nodes gets a published start" wait_until 10 has_published_start
start=$(date -d "$(published_start)" +%s)
echo "  filler ends at T+$((filler_end - submitted)) s, the job is published at T+$((start - submitted)) s"
check "published no earlier than ResumeTimeout from now (T+$((resume_timeout_s - 5)) s or later)" \
	test "$start" -ge "$((submitted + resume_timeout_s - 5))"
check "n2 is still powered down while the filler runs" powered_down

started_on() { sed -n "s/.*sched\/campaign: started JobId=$both in batch on \([^ ]*\)$/\1/p" "$(ctld_log)"; }
job_started() { [ -n "$(started_on)" ]; }
check "sched/campaign starts it once the filler ends" wait_until 30 job_started
check_equal "on both nodes, powered-down n2 included" "n[1-2]" "$(started_on)"
check "n2 is no longer powered down (Slurm resumes it)" not powered_down

both_start=$(date -d "$(squeue -h -j "$both" -o %S)" +%s)
next=$(submit camp2 -N 2 -n 8 -t 1 -J next --wrap "sleep 1")
next_published() { squeue -h -j "$next" -t PD --start -o %S 2>/dev/null | grep '^20'; }
has_next_published() { next_published >/dev/null; }
check "the job behind it gets a published start" wait_until 10 has_next_published
next_start=$(date -d "$(next_published)" +%s)
echo "  the job waiting for n2 started at S, the one behind it is published at S+$((next_start - both_start)) s"
check "published no earlier than S + the nodes' ResumeTimeout + the limit (S+$((resume_timeout_s + 60 - 5)) s or later)" \
	test "$next_start" -ge "$((both_start + resume_timeout_s + 60 - 5))"
scancel "$both" "$next" 2>/dev/null
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(refused)"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
