#!/usr/bin/env bash
# QOS and association limits in sched/campaign's plan, with slurmdbd: a pending job that a limit
# (MaxJobsPerUser and MaxTRESPerUser on a QOS, GrpJobs, GrpTRES and MaxTRESMinsPerJob on an
# association) keeps from starting gets no reservation that delays other jobs, is never tried and
# refused, shows Slurm's own pending reason, and starts once the limit clears.
#
# Each round, on 2 x 4 CPUs with FIFO ranking: camp1's job A (1 CPU, 20 s) runs; camp1's job B
# (4 CPUs) is next in line and held by the limit while A runs; camp2's job C (4 CPUs, 30 s) comes
# last and must start at once. Without the limit test in the plan's input, B was planned to start
# now, tried, refused, and held out of the plan for a while: the refusal count grew by one a round
# (seen: 1, 2, 3), which fails the refusal check.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=fifo,calc_period=1 --nodes 2 --cpus 4 --accounting --fresh-db

sacctmgr -i add qos onejob MaxJobsPerUser=1 >/dev/null
sacctmgr -i add qos fourcpus MaxTRESPerUser=cpu=4 >/dev/null
sacctmgr -i modify user camp1 set qos+=onejob,fourcpus >/dev/null

# limit_seen WHAT: slurmctld's association manager has camp1's association limit.
limit_seen() { scontrol show assoc_mgr users=camp1 flags=assoc 2>/dev/null | grep -q "$1"; }
# qos_limit_is QOS FIELD VALUE: slurmdbd has it (slurmctld gets it pushed from there).
qos_limit_is() { [ "$(sacctmgr -n -P show qos "$1" format="$2" 2>/dev/null)" = "$3" ]; }
start_time_of() { squeue -h -j "$1" -o %S 2>/dev/null; }
reason_of() { squeue -h -j "$1" -o %r 2>/dev/null; }
running_within() { wait_until "$1" job_state_is "$2" R; }

# round NAME REASON [sbatch options of camp1's two jobs]: the scenario above.
round() {
	local name=$1 reason=$2 a b c refused_before
	shift 2
	echo "== $name"
	a=$(submit camp1 -p batch -n 1 -t 2 -J "${name}_a" "$@" --wrap "sleep 20")
	check "$name: A runs" running_within 20 "$a"
	refused_before=$(sched_stat refused)
	b=$(submit camp1 -p batch -n 4 -t 1 -J "${name}_b" "$@" --wrap "sleep 2")
	sleep 1
	c=$(submit camp2 -p batch -n 4 -t 1 -J "${name}_c" --wrap "sleep 30")
	check "$name: C, behind the held B, starts at once" running_within 8 "$c"
	check "$name: B waits with Slurm's reason $reason" wait_until 5 eval '[ "$(reason_of "$b")" = "$reason" ]'
	echo "  B's reason: $(reason_of "$b")"
	sleep 4 # four passes
	check_equal "$name: B has no planned start while the limit holds it" "N/A" "$(start_time_of "$b")"
	check "$name: B starts once A has ended and C's CPUs are free" wait_until 90 job_completed "$b"
	check_equal "$name: no start of B was tried and refused" "$refused_before" "$(sched_stat refused)"
	check "$name: A and C complete" wait_until 30 eval 'job_completed "$a" && job_completed "$c"'
	wait_until 30 queue_empty
}

check "QOS onejob allows one job per user" wait_until 20 qos_limit_is onejob maxjobspu 1
check "QOS fourcpus allows four CPUs per user" wait_until 20 qos_limit_is fourcpus maxtrespu cpu=4
sleep 2 # the update's push to slurmctld
round "QOS MaxJobsPerUser" QOSMaxJobsPerUserLimit --qos=onejob
round "QOS MaxTRESPerUser" QOSMaxCpuPerUserLimit --qos=fourcpus

sacctmgr -i modify user camp1 set GrpJobs=1 >/dev/null
check "camp1's GrpJobs=1 reached slurmctld" wait_until 20 limit_seen "GrpJobs=1("
round "association GrpJobs" AssocGrpJobsLimit
sacctmgr -i modify user camp1 set GrpJobs=-1 GrpTRES=cpu=4 >/dev/null
check "camp1's GrpTRES=cpu=4 reached slurmctld" wait_until 20 limit_seen "GrpTRES=cpu=4("
round "association GrpTRES" AssocGrpCpuLimit

echo "== association MaxTRESMinsPerJob"
sacctmgr -i modify user camp1 set GrpTRES=cpu=-1 MaxTRESMinsPerJob=cpu=10 >/dev/null
check "camp1's MaxTRESMinsPerJob=cpu=10 reached slurmctld" wait_until 20 limit_seen "MaxTRESMinsPJ=cpu=10"
big=$(submit camp1 -p batch -n 4 -t 5 -J big --wrap "sleep 2") # 20 CPU-minutes asked
check "a 4-CPU, 5-minute job waits with AssocMaxCpuMinutesPerJobLimit" \
	wait_until 10 eval '[ "$(reason_of "$big")" = AssocMaxCpuMinutesPerJobLimit ]'
echo "  its reason: $(reason_of "$big")"
small=$(submit camp1 -p batch -n 1 -t 5 -J small --wrap "sleep 2") # 5 CPU-minutes
check "a 1-CPU, 5-minute job of the same user runs" wait_until 30 job_completed "$small"
check_equal "the held job has no planned start" "N/A" "$(start_time_of "$big")"
sacctmgr -i modify user camp1 set MaxTRESMinsPerJob=cpu=-1 >/dev/null
check "it starts once the limit is lifted" wait_until 30 job_completed "$big"

check "no error from our plugins in slurmctld's log ($(plugin_errors | head -n 2))" \
	test -z "$(plugin_errors)"
finish
