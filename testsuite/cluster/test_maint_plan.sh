#!/usr/bin/env bash
# Reservations that start later in sched/campaign's plan: a maintenance reservation (Flags=MAINT)
# on n1-n2 of 4 nodes, starting in 200 s for 10 minutes. A job that asks for n1-n2 for longer than
# the time left would run into it: it is not started, and its published start (squeue --start)
# is the reservation's end. A short job on n1 that ends before it starts now (backfilled), and a
# long job free to go anywhere starts on n3, the one node no reservation takes later (a user
# reservation takes n4 then). A job of that user reservation is planned inside it: published at
# its start on n4, and not started before (test_future_reservation_plan.sh has more). A 10-minute job on n2 with --time-min=1 starts now with the
# longest limit in whole minutes that ends before the window (3), as sched/backfill does. Slurm refuses no start the plan proposes. With the
# windows left out of the plan, the long n1-n2 job was planned at once and refused.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 4 --cpus 8 --conf "DebugFlags=Backfill" \
	--conf "SlurmctldDebug=verbose" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative"

maint_start=$(($(date +%s) + 200))
maint_end=$((maint_start + 600))
check "scontrol creates maintenance reservation 'maint' on n1-n2 in 200 s for 10 minutes" \
	scontrol create reservation ReservationName=maint Flags=MAINT Users=root Nodes=n[1-2] \
	StartTime="$(at_time "$maint_start")" EndTime="$(at_time "$maint_end")"
check "scontrol creates user reservation 'later' on n4 for camp4, in 200 s" \
	scontrol create reservation ReservationName=later Users=camp4 Nodes=n4 \
	StartTime="$(at_time "$maint_start")" Duration=10
refused_before=$(sched_stat refused)
refused_before=${refused_before:-0}

# Ranked first: 5 minutes on n1-n2 would run into the window.
blocked=$(submit camp1 -w n[1-2] -N 2 -n 16 -t 5 -J blocked --wrap "sleep 5")
member=$(submit camp4 --reservation=later -n 1 -t 1 -J member --wrap "sleep 5")
fits_before=$(submit camp2 -w n1 -n 8 -t 1 -J fits_before --wrap "sleep 30")
elsewhere=$(submit camp3 -N 1 -n 8 -t 5 -J elsewhere --wrap "sleep 30")
time_min=$(submit camp5 -w n2 -n 8 -t 10 --time-min=1 -J time_min --wrap "sleep 30")

check "the 1-minute job on n1 starts before the window (backfilled)" \
	wait_until 15 job_state_is "$fits_before" R
check "the 5-minute job free to go anywhere starts" wait_until 15 job_state_is "$elsewhere" R
check_equal "it runs outside both reservations, on n3" "n3" "$(squeue -h -j "$elsewhere" -o %N)"
check "the --time-min job on n2 starts before the window" wait_until 15 job_state_is "$time_min" R
check_equal "with the longest limit that ends before the window" "3:00" \
	"$(squeue -h -j "$time_min" -o %l)"
published_is_end() {
	local start
	start=$(squeue -h -t PD --start -j "$blocked" -o %S)
	[ "$start" = "$(at_time "$maint_end")" ]
}
check "the 5-minute job on n1-n2 waits, published at the window's end ($(at_time "$maint_end"))" \
	wait_until 10 published_is_end
echo "  blocked ($blocked): $(squeue -h -j "$blocked" -o '%t %r') start $(squeue -h -j "$blocked" --start -o %S)"
passes_before=$(sched_stat passes)
more_passes() { [ "$(sched_stat passes)" -gt "$((passes_before + 3))" ]; }
check "sched/campaign planned 4 more passes" wait_until 15 more_passes
check "the 5-minute job on n1-n2 still waits" job_state_is "$blocked" PD
check "the job of the user reservation that starts later waits" job_state_is "$member" PD
check_equal "published at that reservation's start" "$(at_time "$maint_start")" \
	"$(squeue -h -t PD --start -j "$member" -o %S)"
check_equal "on its node" "n4" "$(squeue -h -t PD --start -j "$member" -o %Y)"
check_equal "Slurm refused no start the plan proposed" "$refused_before" "$(sched_stat refused)"
check_equal "slurmctld logged no refused start (DebugFlags=Backfill)" "" \
	"$(grep -E 'sched/campaign: start of JobId=[0-9]+ refused' "$(ctld_log)" || true)"
scancel "$blocked" "$member" "$fits_before" "$elsewhere" "$time_min"
check_equal "no errors from our plugins" "" "$(plugin_errors)"
check "slurmctld is up" ctld_ping
finish
