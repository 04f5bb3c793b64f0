#!/usr/bin/env bash
# Dependencies and begin times in sched/campaign's plan, on 4 nodes of 8 CPUs. Chains mixed with
# free jobs: B waits (afterok) for A, running on n1 for 20 s of a 1-minute limit; C (afterany)
# for B, still pending; S2 (singleton) for S1, its user's running job of the same name; D has a
# begin time 15 s ahead and needs all of n1; H waits for a held job. The published starts
# (squeue --start) are at or after the predecessor's expected end (a running one: its start plus
# its limit; a pending one: its published start plus its limit), and D's after both its begin
# time and A's expected end (Slurm alone shows the begin time); H gets none and is counted as
# PredecessorNotPlanned. The free jobs start now beside them. When A and S1 end early, their
# dependents start at once, each no later than its first published start plus one period, and
# Slurm refuses no start. With the waiting jobs left out of the plan (as before, and as
# sched/backfill does), B, C, S2 and D had no published start and the start checks failed.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

period_s=1
start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=$period_s,campaign_mode=conservative"
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

a=$(submit camp1 -w n1 -n 8 -t 1 -J chain_a --wrap "sleep 20")
s1=$(submit camp2 -n 2 -t 1 -J single --wrap "sleep 25")
check "A runs on n1" wait_until 20 job_state_is "$a" R
check "S1 runs" wait_until 20 job_state_is "$s1" R
b=$(submit camp1 -n 8 -t 1 -J chain_b --dependency=afterok:"$a" --wrap "sleep 3")
c=$(submit camp1 -n 4 -t 1 -J chain_c --dependency=afterany:"$b" --wrap "sleep 3")
s2=$(submit camp2 -n 2 -t 1 -J single --dependency=singleton --wrap "sleep 3")
begin_s=$(($(date +%s) + 15))
d=$(submit camp3 -w n1 -n 8 -t 1 -J begin_d --begin="$(at_time "$begin_s")" --wrap "sleep 3")
held=$(submit camp3 -n 1 -t 1 -J held -H --wrap "sleep 3")
h=$(submit camp3 -n 1 -t 1 -J after_held --dependency=afterok:"$held" --wrap "sleep 3")
free=()
for i in 1 2 3; do free+=("$(submit camp4 -n 4 -t 1 -J free$i --wrap "sleep 5")"); done

epoch() { date -d "$1" +%s 2>/dev/null || echo 0; }
published_of() { squeue -h -t PD --start -j "$1" -o %S 2>/dev/null; }
all_published() {
	local id
	for id in "$b" "$c" "$s2" "$d"; do [[ $(published_of "$id") == 20* ]] || return 1; done
}
# Slurm itself shows D's begin time as its start until a plan publishes another, so a published
# start alone does not say the plan ran: first two passes of sched/campaign that began after the
# last submission (a CI run read D's begin time on a loaded machine, before the pass).
check "sched/campaign planned twice since the submissions" two_passes 20
check "B, C, S2 and D wait with a published start" wait_until 10 all_published
declare -A published
for name in b c s2 d h; do
	published[$name]=$(published_of "${!name}")
	echo "  $name (${!name}): $(squeue -h -j "${!name}" -o %r) published ${published[$name]}"
done
a_end=$(($(epoch "$(squeue -h -j "$a" -o %S)") + 60))
s1_end=$(($(epoch "$(squeue -h -j "$s1" -o %S)") + 60))
check "B (afterok A) is published at or after A's expected end ($(at_time "$a_end"))" \
	test "$(epoch "${published[b]}")" -ge "$a_end"
check "C (afterany B) is published at or after B's planned end" \
	test "$(epoch "${published[c]}")" -ge $(($(epoch "${published[b]}") + 60))
check "S2 (singleton) is published at or after S1's expected end ($(at_time "$s1_end"))" \
	test "$(epoch "${published[s2]}")" -ge "$s1_end"
# Slurm itself shows a begin time as the start of a job it has no estimate for: D needs n1,
# which A holds past it, so only a plan puts it later.
check "D (n1 after its begin time) is published at or after A's expected end" \
	test "$(epoch "${published[d]}")" -ge "$a_end"
check_equal "H, waiting for a held job, has no published start" "" \
	"$([[ ${published[h]} == 20* ]] && echo "${published[h]}")"
stats=$(state_dir)/campaign_sched_stats.json
counted() { grep -q '"PredecessorNotPlanned": *[1-9]' "$stats"; }
check "H is counted as PredecessorNotPlanned" wait_until 5 counted
free_started() { for id in "${free[@]}"; do job_state_is "$id" PD && return 1; done; return 0; }
check "the free jobs start beside the waiting ones" wait_until 10 free_started

waiting_done() {
	local id
	for id in "$b" "$c" "$s2" "$d"; do job_completed "$id" || return 1; done
}
check "B, C, S2 and D complete within 120 s" wait_until 120 waiting_done
jobcomp=$("$localcluster" path jobcomp)
started_at() { grep "^JobId=$1 " "$jobcomp" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p'; }
late=()
for name in b c s2 d; do
	start=$(started_at "${!name}")
	[ -n "$start" ] && [ "$(epoch "$start")" -le $(($(epoch "${published[$name]}") + period_s)) ] ||
		late+=("$name started ${start:-never}, published ${published[$name]}")
done
check_equal "no waiting job started later than its published start plus one period" "" "${late[*]}"
a_done=$(epoch "$(grep "^JobId=$a " "$jobcomp" | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p')")
check "B started after A ended" test "$(epoch "$(started_at "$b")")" -ge "$a_done"
check "D started at or after its begin time" test "$(epoch "$(started_at "$d")")" -ge "$begin_s"
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(sched_stat refused)"
scancel "$held" "$h" 2>/dev/null
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
