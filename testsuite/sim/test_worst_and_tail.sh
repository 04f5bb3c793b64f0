#!/usr/bin/env bash
# bench/worst_and_tail.py on a run made here (4 CPUs): job 1 (4 CPUs) runs [0, 10], job 2 (4 CPUs,
# submitted at 0) never starts (campsim leaves its start, end, wait and run empty), job 3 (2 CPUs,
# the last submission at 10) runs [10, 20]. Utilization counts the work that ran: 60 / (4 x 20) =
# 0.75; job 2 is counted and waits until the last end (20 s). An empty value stopped the script
# before (int(float(''))). A value that is no number names the file, line and column.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../bench/worst_and_tail.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

mkdir -p "$work/run"
cat >"$work/run/p.jobs.csv" <<'CSV'
job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s,trace_runtime_s,state,wait_s,response_s,run_s,bounded_slowdown,stretch
0,1,1,1,4,0,0,10,10,1,0,10,10,1,1
1,2,2,2,4,0,,,5,-1,,,,,
2,3,1,3,2,10,10,20,10,1,0,10,10,1,1
CSV
cat >"$work/run/p.campaigns.csv" <<'CSV'
campaign,user,jobs,submit_s,start_s,end_s,flow_s,work_cpu_s,longest_job_s,lower_bound_s,stretch,lpt_makespan_s
1,1,1,0,0,10,10,40,10,10,1,10
2,2,1,0,,,,20,5,5,,5
3,1,1,10,10,20,10,20,10,10,1,10
CSV
out=$(python3 "$script" 4 "$work/run" 2>&1)
check_equal "a job never started: exits 0" 0 "$?"
check "utilization counts the work that ran (0.7500)" grep -q "== p: utilization 0.7500, last end 20" <<<"$out"
check "the job never started is counted" grep -q "1 jobs never started" <<<"$out"
check "it waits until the last end" grep -q "ends 20: job 2 user 2 4 CPUs, run -1 s, waited 0.0 d" <<<"$out"
check "the worst campaign is one that finished" grep -q "worst campaign [13] " <<<"$out"

mkdir -p "$work/bad"
sed '2s/,0,0,10,10,/,0,zero,10,10,/' "$work/run/p.jobs.csv" >"$work/bad/p.jobs.csv"
cp "$work/run/p.campaigns.csv" "$work/bad/"
out=$(python3 "$script" 4 "$work/bad" 2>&1)
check "a value that is no number fails" test "$(python3 "$script" 4 "$work/bad" >/dev/null 2>&1; echo $?)" -ne 0
check "it names the file, line and column" grep -q "p.jobs.csv: line 2: start_s 'zero' is not a number" <<<"$out"
finish
