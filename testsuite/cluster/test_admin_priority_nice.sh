#!/usr/bin/env bash
# Admin priorities and nice as Slurm defines them, under priority/campaign: an operator's value
# (scontrol update Priority=, sbatch --priority, scontrol top) stays across our passes, a hold and
# release, a requeue and a slurmctld restart; a job's nice lowers its published priority by the
# nice value (an operator's negative nice raises it), at submit, after an update and every pass.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 4
hold_cpus 8

priority_of() { squeue -h -j "$1" -o %Q; }
# priority_stays ID VALUE SECONDS: the job's priority is VALUE at every look for SECONDS (our
# passes run every second, so several of them would have overwritten it).
priority_stays() {
	local i
	for i in $(seq 1 $(($3 * 2))); do
		[ "$(priority_of "$1")" = "$2" ] || return 1
		sleep 0.5
	done
}
ranked_again() { [ "$(priority_of "$1")" -gt 100000 ]; }

echo "== an operator's priority stays (Slurm's test3.4)"
admin=$(submit camp1 -p batch -n 1 -t 1 -H --wrap true)
check_equal "submitted held: priority 0" 0 "$(priority_of "$admin")"
scontrol release "$admin"
check "released, it is ranked" wait_until 10 ranked_again "$admin"
scontrol update jobid="$admin" priority=1
check "Priority=1 set by root stays through 4 s of passes" priority_stays "$admin" 1 4
scontrol update jobid="$admin" priority=2000000000
check "Priority=2000000000 stays too" priority_stays "$admin" 2000000000 2
check_equal "it heads the queue of batch, above every ranked job" "$admin" \
	"$(pending_order batch | awk '{print $1}')"
by_option=$(submit camp1 -p batch -n 1 -t 1 --priority=4242 --wrap true)
check "sbatch --priority=4242 by root stays" priority_stays "$by_option" 4242 2

echo "== hold and release reset it to our rank, as in Slurm"
scontrol hold "$admin"
check_equal "held: priority 0" 0 "$(priority_of "$admin")"
scontrol release "$admin"
check "released: ranked again (not the old 2000000000)" wait_until 10 ranked_again "$admin"
check "and below 2000000000" test "$(priority_of "$admin")" -lt 2000000000

echo "== across a requeue and a slurmctld restart"
running=$(submit camp2 -p hold -n 1 -t 10 --wrap "sleep 600")
scontrol update jobid="$by_option" priority=777
scontrol update jobid="$running" priority=9999
check "priority 777 stays" priority_stays "$by_option" 777 1
"$localcluster" restart-ctld >/dev/null
check "slurmctld is back" wait_until 30 ctld_ping
check "after a restart the operator's 777 stays" priority_stays "$by_option" 777 3
scontrol requeue "$running" 2>/dev/null
check "the requeued job is pending" wait_until 15 job_state_is "$running" PD
check "and keeps the operator's 9999" priority_stays "$running" 9999 3
scancel "$running" "$by_option"

echo "== scontrol top: a user's chosen job first among their own"
first=$(submit camp3 -p batch -n 1 -t 1 --wrap true)
second=$(submit camp3 -p batch -n 1 -t 1 --wrap true)
check "before: the first job ranks above the second" wait_until 10 \
	test "$(priority_of "$first")" -gt "$(priority_of "$second")"
scontrol top "$second"
check "after scontrol top, the second ranks above the first through 3 s of passes" \
	wait_until 3 test "$(priority_of "$second")" -gt "$(priority_of "$first")"
sleep 3
check "still so after more passes" test "$(priority_of "$second")" -gt "$(priority_of "$first")"
scancel "$first" "$second"

echo "== nice lowers the published priority by its value (Slurm's test17.23)"
plain=$(submit camp4 -p batch -n 1 -t 2 --wrap true)
nice100=$(submit camp4 -p batch -n 1 -t 2 --nice=100 --wrap true)
nice200=$(submit camp4 -p batch -n 1 -t 2 --nice=200 --wrap true)
base=$(priority_of "$plain")
check_equal "at submit: --nice=100 is 101 below" 101 $((base - $(priority_of "$nice100")))
check_equal "at submit: --nice=200 is 202 below" 202 $((base - $(priority_of "$nice200")))
sleep 3
base=$(priority_of "$plain")
check_equal "after passes: --nice=100 is 101 below" 101 $((base - $(priority_of "$nice100")))
check_equal "after passes: --nice=200 is 202 below" 202 $((base - $(priority_of "$nice200")))
before=$(priority_of "$nice100")
scontrol update jobid="$nice100" nice=300
drop=$((before - $(priority_of "$nice100")))
# 200, or 201 once a pass also places it after its nice=200 sibling inside the campaign.
check "nice 100 -> 300 by an update: 200 lower (saw $drop)" test "$drop" -ge 200 -a "$drop" -le 201
scancel "$plain" "$nice100" "$nice200"

echo "== a niced job yields to other users' jobs within that distance"
yielding=$(submit camp5 -p batch -n 1 -t 1 --nice=1000 --wrap true)
sleep 1
other=$(submit camp6 -p batch -n 1 -t 1 --wrap true)
sleep 3
gap=$(($(priority_of "$other") - $(priority_of "$yielding")))
check "camp6's later job is above camp5's nice=1000 job by at least 950 (saw $gap)" test "$gap" -ge 950
scontrol update jobid="$yielding" nice=-2000
sleep 3
gap=$(($(priority_of "$yielding") - $(priority_of "$other")))
check "root's nice=-2000 puts it at least 1950 above (saw $gap)" test "$gap" -ge 1950
check_sprio_agrees batch

check "slurmctld is up" ctld_ping
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
