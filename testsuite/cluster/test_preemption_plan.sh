#!/usr/bin/env bash
# Preemption in sched/campaign's plan, PreemptMode=REQUEUE, by partition (PreemptType=
# preempt/partition_prio: partition "low", PriorityTier=1, and "high", PriorityTier=10, over both
# nodes) or, with PREEMPT_BY=qos (test_preemption_qos.sh), by QOS (preempt/qos with slurmdbd: QOS
# "high" preempts QOS "low"). Two nodes of 4 CPUs: two low jobs fill the nodes and a third low
# job waits; a high job submitted then is planned now on one low job's node, and its start
# through select_nodes preempts that job. Slurm answers "busy" while the preemptee is requeued:
# that is no refusal, so the high job keeps its claim (the waiting low job does not take the
# freed node) and starts within two scheduling periods of its submission. The preemptee is
# requeued (pending, restart count 1) and later runs to completion, as do the others: no job is
# lost. With the preemptable jobs left out of the plan the high job waits for a low job's end
# (45 s); with the busy answer taken for a refusal it is held out for 60 s while the waiting low
# job takes the freed node.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

preempt_by=${PREEMPT_BY:-partition}
period=10
# A requeued job may start again after the credential lifetime (Slurm's default: 20 minutes).
auth_info="AuthInfo=socket=$("$localcluster" path dir)/munge/munge.socket,cred_expire=10"
common=(--nodes 2 --cpus 4 --conf "DebugFlags=Backfill" --conf "SlurmctldDebug=verbose"
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=$period"
	--conf "PreemptMode=REQUEUE" --conf "$auth_info")
case $preempt_by in
partition)
	start_ranked_cluster policy=fifo,calc_period=1 "${common[@]}" \
		--conf "PreemptType=preempt/partition_prio" \
		--conf "PartitionName=low Nodes=ALL PriorityTier=1 PreemptMode=REQUEUE MaxTime=INFINITE State=UP" \
		--conf "PartitionName=high Nodes=ALL PriorityTier=10 PreemptMode=OFF MaxTime=INFINITE State=UP"
	low_opts=(-p low)
	high_opts=(-p high)
	;;
qos)
	start_ranked_cluster policy=fifo,calc_period=1 "${common[@]}" --accounting --fresh-db \
		--conf "PreemptType=preempt/qos"
	sacctmgr -i add qos low PreemptMode=requeue >/dev/null
	sacctmgr -i add qos high Preempt=low >/dev/null
	sacctmgr -i modify user camp1,camp2,camp3 set qos+=low,high >/dev/null
	# slurmdbd has the preemption; slurmctld has both QOS (scontrol shows no Preempt list).
	high_preempts_low() {
		[ "$(sacctmgr -n -P show qos high format=preempt 2>/dev/null)" = low ] &&
			scontrol show assoc_mgr flags=qos 2>/dev/null | grep -q '^QOS=high(' &&
			scontrol show assoc_mgr flags=qos 2>/dev/null | grep -q '^QOS=low('
	}
	check "slurmdbd has QOS 'high' preempt QOS 'low', slurmctld has both" \
		wait_until 20 high_preempts_low
	low_opts=(-p batch --qos=low)
	high_opts=(-p batch --qos=high)
	;;
*)
	echo "PREEMPT_BY=$preempt_by: expected partition or qos"
	exit 1
	;;
esac
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

low_a=$(submit camp1 "${low_opts[@]}" -N 1 -n 4 -t 3 -J low_a --wrap "sleep 45")
low_b=$(submit camp1 "${low_opts[@]}" -N 1 -n 4 -t 3 -J low_b --wrap "sleep 45")
check "the two low jobs fill both nodes" \
	wait_until 20 eval "job_state_is $low_a R && job_state_is $low_b R"
waiting=$(submit camp3 "${low_opts[@]}" -N 1 -n 4 -t 1 -J low_waiting --wrap "sleep 10")
check "a third low job waits" wait_until 5 eval "squeue -h -j $waiting -o %t | grep -qx PD"

submitted=$(date +%s)
high=$(submit camp2 "${high_opts[@]}" -N 1 -n 4 -t 2 -J high --wrap "sleep 15")
check "the high job starts within two periods ($((2 * period)) s) of its submission" \
	wait_until $((2 * period)) job_state_is "$high" R
echo "  high ($high) started $(($(date +%s) - submitted)) s after its submission on $(squeue -h -j "$high" -o %N)"
preemptee=""
for job in "$low_a" "$low_b"; do
	job_state_is "$job" R || preemptee="$preemptee$job "
done
preemptee=${preemptee% }
check "exactly one low job was preempted (saw '${preemptee:-none}')" \
	eval "[[ '$preemptee' =~ ^[0-9]+$ ]]"
[[ $preemptee =~ ^[0-9]+$ ]] || preemptee=$low_a
check_equal "the preemptee is pending again (requeued, not lost)" "PD" \
	"$(squeue -h -j "$preemptee" -o %t)"
echo "  preemptee ($preemptee): $(squeue -h -j "$preemptee" -o '%t %r')"
restarts() { scontrol show job "$1" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p'; }
check_equal "its restart count is 1" "1" "$(restarts "$preemptee")"
check_equal "the waiting low job did not take the freed node" "PD" \
	"$(squeue -h -j "$waiting" -o %t)"
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(sched_stat refused)"
check "slurmctld logged the preemption as under way, not refused (DebugFlags=Backfill)" \
	grep -qE "sched/campaign: JobId=$high preempting" "$(ctld_log)"

all_completed() {
	local job
	for job in "$low_a" "$low_b" "$waiting" "$high"; do job_completed "$job" || return 1; done
}
check "every job, the requeued one too, runs to completion (no job lost)" wait_until 150 all_completed
check_equal "the preemptee ran again after its requeue (restart count still 1)" "1" \
	"$(restarts "$preemptee")"
check_equal "slurmctld logged no refused start" "" \
	"$(grep -E 'sched/campaign: start of JobId=[0-9]+ refused' "$(ctld_log)" || true)"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
