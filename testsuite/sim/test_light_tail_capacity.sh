#!/usr/bin/env bash
# bench/light_tail_capacity.py on a schedule made here (4 CPUs). Heavy user 1: job 1 (4 CPUs)
# runs [0, 100], job 2 (2 CPUs) [100, 1100]. Light user 2: job 3 (2 CPUs, submitted at 10)
# waits until 200 and runs 10 s. Its campaign is the light users' only one, so their p95 and
# their tail: it found no free CPU at its submission (capacity-blocked), and of its 190 s of
# waiting, the 100 s from 100 to 200 had its 2 CPUs free (held share 0.53). A second schedule
# holds no CPU: the light job waits 190 s on a full machine (held share 0.00). Bad input names
# the culprit (a value that is no number: its file, line and column).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../bench/light_tail_capacity.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

# run DIR: campsim's p.jobs.csv and p.campaigns.csv in DIR from "job,user,cpus,submit,start,end"
# lines on stdin (each job a campaign of its own).
run() {
	mkdir -p "$work/$1"
	local lines
	lines=$(cat)
	{
		echo "job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s,trace_runtime_s,state,wait_s,response_s,run_s,bounded_slowdown,stretch"
		awk -F, '{ print NR - 1 "," $1 "," $2 "," $1 "," $3 "," $4 "," $5 "," $6 "," $6 - $5 ",finished,0,0,0,1,1" }' <<<"$lines"
	} >"$work/$1/p.jobs.csv"
	{
		echo "campaign,user,jobs,submit_s,start_s,end_s,flow_s,work_cpu_s,longest_job_s,lower_bound_s,stretch,lpt_makespan_s"
		awk -F, '{ print $1 "," $2 ",1," $4 "," $5 "," $6 "," $6 - $4 ",0," $6 - $5 "," $6 - $5 ",1," $6 - $5 }' <<<"$lines"
	} >"$work/$1/p.campaigns.csv"
}

printf '%s\n' 1,1,4,0,0,100 2,1,2,0,100,1100 3,2,2,10,200,210 | run held
out=$(python3 "$script" "$work/held" 4 2>&1)
check_equal "exits 0" 0 "$?"
check_equal "one tail campaign, capacity-blocked at its submission" "tail_campaigns 1 capacity_blocked 1" \
	"$(grep -o 'tail_campaigns [0-9]* capacity_blocked [0-9]*' <<<"$out")"
check_equal "190 s waited, 100 s of it with its CPUs free" "tail_wait_h 0.1 held_share 0.53" \
	"$(grep -o 'tail_wait_h .*' <<<"$out")"

printf '%s\n' 1,1,4,0,0,100 2,1,4,0,100,200 3,2,2,10,200,210 | run full
out=$(python3 "$script" "$work/full" 4 2>&1)
check_equal "a full machine: exits 0" 0 "$?"
check_equal "a full machine: nothing held" "tail_wait_h 0.1 held_share 0.00" \
	"$(grep -o 'tail_wait_h .*' <<<"$out")"

out=$(python3 "$script" "$work/none" 4 2>&1)
check "a folder without runs exits non-zero" test "$?" -ne 0
check "it names the folder" grep -q "no \*.campaigns.csv in $work/none" <<<"$out"
mkdir -p "$work/bad"
sed '3s/,0,100,1100,/,0,ten,1100,/' "$work/held/p.jobs.csv" >"$work/bad/p.jobs.csv"
cp "$work/held/p.campaigns.csv" "$work/bad/"
out=$(python3 "$script" "$work/bad" 4 2>&1)
check "a value that is no number exits non-zero" test "$?" -ne 0
check "it names the file, line and column" grep -q "p.jobs.csv: line 3: start_s 'ten' is not a number" <<<"$out"
out=$(python3 "$script" "$work/held" four 2>&1)
check "CPUS that is no number exits non-zero" test "$?" -ne 0
check "it names the value" grep -q "CPUS 'four' is not a number of CPUs" <<<"$out"
finish
