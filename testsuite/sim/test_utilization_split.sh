#!/usr/bin/env bash
# bench/utilization_split.py on a schedule made here (4 CPUs): job 1 (4 CPUs) runs [0, 10], job 2
# (2 CPUs), the last submission at 10, runs [10, 20]. Utilization 60 / (4 x 20) = 0.75; the busy
# period [0, 10] is full (1.0); the tail is 10 s and job 2's 20 CPU-seconds, a third of the work;
# 10-s windows: 1.0, then 0.5; no job waits, so no CPU is idle while one does. A second schedule
# (4 CPUs): job A (2 CPUs) runs [0, 10 h], job B (4 CPUs, submitted at 0) waits for it and runs
# [10 h, 20 h]: 2 CPUs idle for 10 h while B waits, 20 CPU-hours; in 6-hour windows 12, 8, 0, 0;
# both submitted at 0, so there is no busy period to divide by (it divided by zero before); B is
# wider than the 2 free CPUs, so no waiting job fit in them. A third schedule adds job C (1 CPU,
# submitted at 0) run after B, [20 h, 21 h]: it fit in A's 2 free CPUs the first 10 h, so those
# 20 CPU-hours are CPUs a waiting job fit in (held by the plan). A fourth has a job never started.
# Bad input names the culprit.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../bench/utilization_split.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

# schedule DIR NAME: a campsim jobs.csv DIR/NAME.jobs.csv of the "job,cpus,submit,start,end"
# lines on stdin.
schedule() {
	mkdir -p "$work/$1"
	{
		echo "job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s,trace_runtime_s,state,wait_s,response_s,run_s,bounded_slowdown,stretch"
		awk -F, '{ print NR - 1 "," $1 "," $1 "," $1 "," $2 "," $3 "," $4 "," $5 ",0,1,0,0,0,1,1" }'
	} >"$work/$1/$2.jobs.csv"
}

printf '%s\n' 1,4,0,0,10 2,2,10,10,20 | schedule run p
out=$(python3 "$script" 4 "$work/run" --window 0.000115740740740741 2>&1)
check_equal "exits 0" 0 "$?"
line=$(echo "$out" | grep 'p.jobs.csv' | awk '{print $2, $3, $5, $6}')
check_equal "utilization, busy period, tail CPU-days, tail %" "0.7500 1.0000 0.0 33.33" "$line"
check_equal "10-s windows" "  windows: 1.000 0.500" "$(echo "$out" | grep '  windows')"
check_equal "no CPU idle while a job waits" "0.0" "$(echo "$out" | grep 'p.jobs.csv' | awk '{print $7}')"

printf '%s\n' 1,2,0,0,36000 2,4,0,36000,72000 | schedule wait w
out=$(python3 "$script" 4 "$work/wait" --window 0.25 2>&1)
check_equal "a waiting job: exits 0" 0 "$?"
check_equal "utilization, no busy period (all submitted at 0), idle CPU-hours while waiting" \
	"0.7500 - 20.0" "$(echo "$out" | grep 'w.jobs.csv' | awk '{print $2, $3, $7}')"
check_equal "idle CPU-hours while waiting by window" "  idle CPU-h while waiting: 12.0 8.0 0.0 0.0" \
	"$(echo "$out" | grep 'idle CPU-h while waiting:')"
check_equal "no waiting job fit in them" "0.0" "$(echo "$out" | grep 'w.jobs.csv' | awk '{print $8}')"

printf '%s\n' 1,2,0,0,36000 2,4,0,36000,72000 3,1,0,72000,75600 | schedule fit f
out=$(python3 "$script" 4 "$work/fit" 2>&1)
check_equal "a narrow job held: exits 0" 0 "$?"
check_equal "20 CPU-hours idle while waiting, all of them with a waiting job fitting" "20.0 20.0" \
	"$(echo "$out" | grep 'f.jobs.csv' | awk '{print $7, $8}')"

# A job campsim never started (start and end -1) waits until the last end: A (2 CPUs) runs
# [0, 10 h], N (4 CPUs) never starts, B (1 CPU) runs [10 h, 11 h], all submitted at 0. Idle while
# waiting: 2 CPUs for 10 h and 3 for 1 h, 23 CPU-hours; B fit in the first 20 (N never fits).
# It stopped the script with an IndexError before.
printf '%s\n' 1,2,0,0,36000 2,4,0,-1,-1 3,1,0,36000,39600 | schedule never n
out=$(python3 "$script" 4 "$work/never" 2>&1)
check_equal "a job never started: exits 0" 0 "$?"
check_equal "it waits until the last end: 23 idle CPU-hours, 20 with a waiting job fitting" \
	"23.0 20.0" "$(echo "$out" | grep 'n.jobs.csv' | awk '{print $7, $8}')"
check "it is counted" grep -q "1 jobs never started" <<<"$out"

out=$(python3 "$script" 4 "$work/none" 2>&1)
check_equal "a missing path exits 2" 2 "$?"
check "it names the path" grep -q "no such file or directory: $work/none" <<<"$out"
echo "a,b" >"$work/bad.jobs.csv"
out=$(python3 "$script" 4 "$work/bad.jobs.csv" 2>&1)
check_equal "a file without campsim's columns exits 2" 2 "$?"
check "it names the file and the columns" grep -q "bad.jobs.csv: no column submit_s, start_s, end_s, cpus" <<<"$out"
mkdir -p "$work/badvalue"
sed '3s/,10,10,20,/,10,ten,20,/' "$work/run/p.jobs.csv" >"$work/badvalue/p.jobs.csv"
out=$(python3 "$script" 4 "$work/badvalue" 2>&1)
check_equal "a value that is no number exits 2" 2 "$?"
check "it names the file, line and column" grep -q "p.jobs.csv: line 3: start_s 'ten' is not a number" <<<"$out"
out=$(python3 "$script" 0 "$work/run" 2>&1)
check_equal "CPUS 0 exits 2" 2 "$?"
finish
