#!/usr/bin/env bash
# Jobs of a user reservation that starts later are planned inside it (issue 15 point 3). On 4
# nodes of 8 CPUs, reservation 'future' takes n3-n4 in 40 s for 150 s. Its jobs, submitted
# before it starts: a 16-CPU one of both nodes is published at the reservation's start on n3-n4;
# an 8-CPU and a 4-CPU one are packed after it (its 1-minute limit), inside the reservation.
# None starts before the reservation does; each then starts inside it, on its nodes. A 2-node
# job not in it, for which n1-n2 are taken, would run into it now: it is published at the
# reservation's end and waits meanwhile. Once the reservation is active it stays published at
# the reservation's end (n1-n2 are held longer), while the reservation's jobs run and after, and
# a job of the reservation submitted then with a limit longer than what is left (10 minutes)
# starts inside it at once. Slurm refuses no start. With the jobs of a later reservation left
# out of the plan (window_of returning 0), nothing was published for them; with an active
# reservation's nodes kept from other jobs for all time, the 2-node job's published start moved
# to n1-n2's end once it started.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"

resv_start=$(($(date +%s) + 40))
resv_end=$((resv_start + 150))
check "scontrol creates reservation 'future' on n3-n4 for camp1-3, in 40 s for 150 s" \
	scontrol create reservation ReservationName=future Users=camp1,camp2,camp3 Nodes=n[3-4] \
	StartTime="$(at_time "$resv_start")" EndTime="$(at_time "$resv_end")"
refused() { local n; n=$(sched_stat refused); echo "${n:-0}"; }
refused_before=$(refused)

whole=$(submit camp1 --reservation=future -N 2 -n 16 -t 1 -J whole --wrap "sleep 10")
eight=$(submit camp2 --reservation=future -n 8 -t 1 -J eight --wrap "sleep 10")
four=$(submit camp3 --reservation=future -n 4 -t 1 -J four --wrap "sleep 10")
members=("$whole" "$eight" "$four")
outside=$(submit camp4 -N 2 -n 16 -t 5 -J outside --wrap "sleep 200")
check "a 2-node job not in the reservation starts on n1-n2" wait_until 15 job_state_is "$outside" R
check_equal "on n1-n2" "n[1-2]" "$(squeue -h -j "$outside" -o %N)"
into=$(submit camp5 -N 2 -n 16 -t 2 -J into --wrap "sleep 10")

published_start() { squeue -h -t PD --start -j "$1" -o %S; }
published_nodes() { squeue -h -t PD --start -j "$1" -o %Y; }
published_at() { [ "$(published_start "$1")" = "$(at_time "$2")" ]; }
check "the whole-reservation job is published at its start ($(at_time "$resv_start"))" \
	wait_until 10 published_at "$whole" "$resv_start"
check_equal "on the reservation's nodes" "n[3-4]" "$(published_nodes "$whole")"
packed=$((resv_start + 60))
for job in "$eight" "$four"; do
	check "job $job of the reservation is published after it, at $(at_time "$packed")" \
		wait_until 10 published_at "$job" "$packed"
	check "on n3 or n4 (got $(published_nodes "$job"))" \
		eval 'names_include n[3-4] "$(published_nodes "$job")"'
done
check "the 2-node job not in it is published at the reservation's end ($(at_time "$resv_end"))" \
	wait_until 10 published_at "$into" "$resv_end"
for job in "${members[@]}" "$into"; do
	echo "  $job: $(squeue -h -j "$job" -o '%t %r') start $(published_start "$job") on $(published_nodes "$job")"
done

# Until the reservation starts, none of its jobs runs.
early=""
while [ "$(date +%s)" -lt "$resv_start" ]; do
	for job in "${members[@]}"; do
		job_state_is "$job" PD || early+=" $job"
	done
	sleep 1
done
check_equal "none of the reservation's jobs started before it" "" "$early"

check "the whole-reservation job starts once the reservation has" \
	wait_until 15 job_state_is "$whole" R
check "once the reservation is active, the 2-node job not in it is still published at its end" \
	wait_until 10 published_at "$into" "$resv_end"
longer=$(submit camp1 --reservation=future -n 4 -t 10 -J longer --wrap "sleep 5")
members+=("$longer")
ran_or_gone() { ! job_state_is "$1" PD; }
for job in "$eight" "$four" "$longer"; do
	check "job $job of the reservation starts" wait_until 40 ran_or_gone "$job"
done
for job in "${members[@]}"; do
	started=$(date -d "$(scontrol show job "$job" | sed -n 's/.*StartTime=\([^ ]*\).*/\1/p')" +%s)
	nodes=$(scontrol show job "$job" | sed -n 's/^ *NodeList=\([^ ]*\).*/\1/p')
	echo "  $job started $(at_time "$started") on $nodes"
	check "job $job started inside the reservation (at or after $(at_time "$resv_start"))" \
		test "$started" -ge "$resv_start" -a "$started" -lt "$resv_end"
	for node in $(scontrol show hostnames "$nodes"); do
		check "job $job runs on the reservation's nodes ($node)" \
			eval 'names_include n[3-4] "$node"'
	done
done
members_gone() {
	[ -z "$(squeue -h -t PD,R,CG -j "$(IFS=,; echo "${members[*]}")" -o %i 2>/dev/null)" ]
}
check "the reservation's jobs complete" wait_until 40 members_gone
check "the 2-node job not in it still waits, inside the reservation's time" \
	job_state_is "$into" PD
check "with the reservation's jobs done, it is still published at the reservation's end" \
	wait_until 10 published_at "$into" "$resv_end"
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(refused)"
check_equal "slurmctld logged no refused start" "" \
	"$(grep -E 'sched/campaign: start of JobId=[0-9]+ refused' "$(ctld_log)" || true)"
scancel "$outside" "$into"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
