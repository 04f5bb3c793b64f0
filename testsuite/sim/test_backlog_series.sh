#!/usr/bin/env bash
# bench/backlog_series.py on schedules made here (4 CPUs, bins of 100 s). Policy "keeps": job 1
# (4 CPUs) runs [0, 200]; job 2 (2 CPUs, submitted at 10) waits until 200 and runs 100 s, so it
# waits at the middle of bin 0 (50) and of bin 1 (150); bins 0 and 1 are full (1.00), bin 2 half
# (0.50). Policy "clears": job 2 starts at once on the 2 CPUs left beside a 2-CPU job 1 (bin 0:
# 2 x 100 + 2 x 90 of 400 CPU-s, 0.95): no sample with a queue. Bad input names the culprit.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../bench/backlog_series.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

# jobs FILE: campsim's jobs.csv from "job,cpus,submit,start,end" lines on stdin.
jobs() {
	{
		echo "job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s,trace_runtime_s,state,wait_s,response_s,run_s,bounded_slowdown,stretch"
		awk -F, '{ print NR - 1 "," $1 ",1," $1 "," $2 "," $3 "," $4 "," $5 "," $5 - $4 ",finished," $4 - $3 "," $5 - $3 "," $5 - $4 ",1,1" }'
	} >"$1"
}
mkdir -p "$work/run"
printf '%s\n' 1,4,0,0,200 2,2,10,200,300 | jobs "$work/run/keeps.jobs.csv"
printf '%s\n' 1,2,0,0,200 2,2,10,10,110 | jobs "$work/run/clears.jobs.csv"

out=$(python3 "$script" "$work/run" 4 --step 100 2>&1)
check_equal "exits 0" 0 "$?"
# bin: "clears waiting mach-h util keeps waiting mach-h util" (columns by file name: clears first)
bin() { awk -v b="$1" '$1 == b && $3 == "|" { print "clears", $4, $5, $6, "keeps", $8, $9, $10 }' <<<"$out"; }
check_equal "bin 0: clears has no queue, 0.95 busy; keeps one job waiting, full" \
	"clears 0 0.0 0.95 keeps 1 0.0 1.00" "$(bin 0)"
check_equal "bin 1: clears 0.55 busy; keeps still one job waiting, full" \
	"clears 0 0.0 0.55 keeps 1 0.0 1.00" "$(bin 1)"
check_equal "bin 2: keeps half busy, nothing waiting" "clears 0 0.0 0.00 keeps 0 0.0 0.50" "$(bin 2)"
check_equal "three bins, up to the last end" "" "$(bin 3)"
check_equal "keeps: queued at the samples of bins 0 and 1, the last in bin 1" \
	"keeps samples_with_queue 2 of 3 last_queue_bin 1 mean_backlog_h 0.0" \
	"$(grep '^keeps ' <<<"$out")"
check_equal "clears: never queued at a sample" \
	"clears samples_with_queue 0 of 3 last_queue_bin none mean_backlog_h 0.0" \
	"$(grep '^clears ' <<<"$out")"
out=$(python3 "$script" "$work/run" 4 --step 50 2>&1)
check_equal "bins of 50 s: the 2-CPU wait is 2 x 100 s / 4 CPUs at each of 4 samples" \
	"keeps samples_with_queue 4 of 6 last_queue_bin 3 mean_backlog_h 0.0" "$(grep '^keeps ' <<<"$out")"

# bins: the numbers of the bins printed.
bins() { awk '$3 == "|" && $1 ~ /^[0-9]+$/ { printf "%s%s", sep, $1; sep = " " }' <<<"$out"; }
out=$(python3 "$script" "$work/run" 4 --step 100 --from 100 2>&1)
check_equal "--from 100 prints bins 1 and 2 only" "1 2" "$(bins)"

mkdir -p "$work/late"
printf '%s\n' 1,4,1000,1000,1200 2,2,1010,1200,1300 | jobs "$work/late/keeps.jobs.csv"
out=$(python3 "$script" "$work/late" 4 --step 100 2>&1)
check_equal "a log on its own clock starts at its first submission: bins 10 to 12" "10 11 12" "$(bins)"

# A job the run never started (start_s and end_s -1): waiting at every sample after its
# submission (bins 0 to 2), its work its log run time (4 CPUs x 1800 s / 4 CPUs = 0.5 h).
mkdir -p "$work/stuck"
printf '%s\n' 1,2,0,0,300 | jobs "$work/stuck/stuck.jobs.csv"
echo "1,2,1,2,4,10,-1,-1,1800,never_started,,,,," >>"$work/stuck/stuck.jobs.csv"
out=$(python3 "$script" "$work/stuck" 4 --step 100 2>&1)
check_equal "a never-started job waits at every sample, with its run as its work" \
	"stuck samples_with_queue 3 of 3 last_queue_bin 2 mean_backlog_h 0.5" "$(grep '^stuck ' <<<"$out")"
out=$(python3 "$script" "$work/stuck" 4 --step 100 --from 1000 2>&1)
check "--from after the last end exits non-zero" test "$?" -ne 0
check "it names --from" grep -q -- "--from 1000 is after the run's last end" <<<"$out"

out=$(python3 "$script" "$work/run" 0 2>&1)
check "CPUS 0 exits non-zero" test "$?" -ne 0
check "it names CPUS" grep -q "CPUS '0' is not a whole number of CPUs above 0" <<<"$out"
out=$(python3 "$script" "$work/none" 4 2>&1)
check "a missing folder exits non-zero" test "$?" -ne 0
check "it names the folder" grep -q "no folder $work/none" <<<"$out"
printf 'job_index,cpus,submit_s,start_s,end_s\n0,x,0,0,1\n' >"$work/run/bad.jobs.csv"
out=$(python3 "$script" "$work/run" 4 2>&1)
check "a field that is not a number exits non-zero" test "$?" -ne 0
check "it names the file and line" grep -q "bad.jobs.csv: line 2 lacks a whole" <<<"$out"
finish
