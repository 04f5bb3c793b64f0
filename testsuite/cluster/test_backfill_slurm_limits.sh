#!/usr/bin/env bash
# sched/campaign honours what Slurm's own calls enforce at start time (doc/design.md §3: the plan
# proposes, select_nodes() decides, a refusal goes back to the planner): an advanced reservation
# keeps other users' jobs off its node while its own jobs run there, and a license count is never
# exceeded, and a job asking for a node feature is planned on a node that has it. A job Slurm
# refuses does not hold back the jobs ranked behind it. (QOS and association
# limits take the same path but need slurmdbd, which the local cluster does not run.)
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 --conf "Licenses=fluent:1" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"

echo "== an advanced reservation on n4 for camp5"
check "scontrol creates reservation maint on n4 for camp5" \
	scontrol create reservation ReservationName=maint StartTime=now Duration=30 Nodes=n4 Users=camp5
# Four whole-node jobs of camp1: only n1-n3 are theirs.
outsiders=()
for i in 1 2 3 4; do outsiders+=("$(submit camp1 -N 1 -n 8 -t 2 -J outsider$i --wrap "sleep 20")"); done
three_running() { [ "$(squeue -h -t R -u camp1 | wc -l)" = 3 ]; }
check "three of camp1's four whole-node jobs run" wait_until 20 three_running
# Watch camp1's jobs over several passes: none may ever run on n4, and the plan must not even
# try (no start refused by Slurm), as it keeps the fourth job off the reserved node.
on_reserved=""
passes_before=$(sched_stat passes)
refused_before=$(sched_stat refused)
for _ in $(seq 1 10); do
	while read -r id nodes; do
		names_include "$nodes" n4 && on_reserved+=" $id"
	done < <(squeue -h -t R,CG -u camp1 -o '%i %N')
	sleep 0.5
done
check_equal "no camp1 job runs on the reserved node n4" "" "$on_reserved"
check_equal "no start refused: the plan kept camp1 off n4" "$refused_before" "$(sched_stat refused)"
fourth_planned=$(squeue -h -t PD --start -j "${outsiders[3]}" -o %Y)
check "the fourth camp1 job's published nodes ($fourth_planned) are not n4" \
	test -n "$fourth_planned" -a "$fourth_planned" != n4 -a "$fourth_planned" != "(null)"
check "sched/campaign planned meanwhile" test "$(sched_stat passes)" -gt "$((passes_before + 2))"
check "the fourth camp1 job still waits" job_state_is "${outsiders[3]}" PD
member=$(submit camp5 --reservation=maint -N 1 -n 8 -t 1 -J member --wrap "sleep 3")
check "camp5's job runs in the reservation and completes" wait_until 30 job_completed "$member"
check_equal "camp5's job ran on n4" "n4" \
	"$(jobcomp_nodes "$member")"
outsiders_done() {
	local id
	for id in "${outsiders[@]}"; do
		job_completed "$id" || return 1
	done
}
check "all four camp1 jobs complete (the fourth once n1-n3 free up)" wait_until 90 outsiders_done
fourth_nodes=$(jobcomp_nodes "${outsiders[3]}")
check "the fourth camp1 job ran outside the reservation (on $fourth_nodes)" \
	test -n "$fourth_nodes" -a "$fourth_nodes" != n4
check "scontrol deletes the reservation" scontrol delete ReservationName=maint

echo "== one fluent license"
licensed=()
for i in 1 2 3; do licensed+=("$(submit camp2 -L fluent:1 -n 1 -t 1 -J licensed$i --wrap "sleep 6")"); done
free=$(submit camp3 -n 1 -t 1 -J unlicensed --wrap "sleep 2")
most_at_once=0
free_started_at=""
deadline=$((SECONDS + 90))
all_licensed_done() {
	local id
	for id in "${licensed[@]}"; do
		job_completed "$id" || return 1
	done
}
until all_licensed_done || [ "$SECONDS" -ge "$deadline" ]; do
	running=$(squeue -h -t R -n licensed1,licensed2,licensed3 -o %i | wc -l)
	[ "$running" -gt "$most_at_once" ] && most_at_once=$running
	[ -z "$free_started_at" ] && ! job_state_is "$free" PD && free_started_at=$SECONDS
	sleep 0.5
done
check "the three licensed jobs complete" all_licensed_done
check_equal "at most one licensed job ran at a time" 1 "$most_at_once"
check "the unlicensed job behind them was not held back (started while licensed jobs remained)" \
	test -n "$free_started_at" -a "${free_started_at:-999999}" -lt "$((deadline - 90 + 12))"

echo "== a node feature"
check "n2 gets the feature 'big'" scontrol update NodeName=n2 AvailableFeatures=big ActiveFeatures=big
fillers=()
for i in 1 2 3 4; do fillers+=("$(submit camp1 -N 1 -n 8 -t 1 -J filler$i --wrap "sleep 15")"); done
four_running() { [ "$(squeue -h -t R -n filler1,filler2,filler3,filler4 | wc -l)" = 4 ]; }
check "four whole-node fillers run" wait_until 20 four_running
featured=$(submit camp6 -C big -N 1 -n 8 -t 1 -J featured --wrap "sleep 2")
planned_nodes() { squeue -h -t PD --start -j "$featured" -o %Y; }
planned_on_n2() { [ "$(planned_nodes)" = n2 ]; }
check "the job asking for 'big' is published as planned on n2" wait_until 10 planned_on_n2
check "it completes" wait_until 60 job_completed "$featured"
check_equal "it ran on n2" n2 "$(jobcomp_nodes "$featured")"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
