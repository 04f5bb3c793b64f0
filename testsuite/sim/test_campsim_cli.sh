#!/usr/bin/env bash
# campsim's command line end to end: every bad option, value and file gets an error naming it;
# runs are deterministic (same seed, same bytes); rank replays a captured job list; the report
# files are written. CAMPSIM is set by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, finish
fails_naming() { # culprit args...: exit status non-zero and stderr names the culprit
	local culprit=$1
	shift
	! "$campsim" "$@" >"$work/out" 2>"$work/err" && grep -qF -- "$culprit" "$work/err"
}

usage_error() { # culprit args...: exit status 2 (bad usage, campsim(1)) and stderr names the culprit
	local culprit=$1
	shift
	"$campsim" "$@" >"$work/out" 2>"$work/err"
	[ $? -eq 2 ] && grep -qF -- "$culprit" "$work/err"
}

check "unknown command is named" fails_naming "'simulate'" simulate
check "unknown option is named" fails_naming "'--speed'" run --generate faircamp-zipf --speed 3
check "bad number is named" fails_naming "--users: 'many'" run --generate faircamp-zipf --users many
check "unknown priority is named" fails_naming "'lottery'" run --generate faircamp-zipf --policy lottery
check "unknown backfill is named" fails_naming "'maybe'" run --generate faircamp-zipf --policy fifo/maybe
check "unknown estimate is named" fails_naming "'guess'" run --generate faircamp-zipf --estimate guess
check "short room out of range is named" fails_naming "--short-room: '0.7'" run --generate faircamp-zipf --short-room 0.7
check "short room width out of range is named" fails_naming "--short-room-wide: '2'" run --generate faircamp-zipf --short-room-wide 2
check "short room window out of range is named" fails_naming "--short-room-recent: '-5'" run --generate faircamp-zipf --short-room-recent -5
check "short room demand not a word it knows is named" fails_naming "--short-room-demand: 'all'" run --generate faircamp-zipf --short-room-demand all
check "short room judge not a word it knows is named" fails_naming "--short-room-by: 'runtime'" run --generate faircamp-zipf --short-room-by runtime
check "local search moves out of range are named" fails_naming "--local-search: '-1'" run --generate faircamp-zipf --local-search -1
check "local search time cap of 0 is named" fails_naming "--local-search-ms: '0'" run --generate faircamp-zipf --local-search-ms 0
check "--sched-period out of range is named" fails_naming "--sched-period: '-2'" run --generate faircamp-zipf --sched-period -2
check "--sched-period under 1 s is named" fails_naming "--sched-period: '0.5'" run --generate faircamp-zipf --sched-period 0.5
check "--fs-half-life not a number is named" fails_naming "--fs-half-life: '7d'" run --generate faircamp-zipf --fs-half-life 7d
check "--fs-max-age of 0 is named" fails_naming "--fs-max-age: '0'" run --generate faircamp-zipf --fs-max-age 0
check "--fs-calc-period out of range is named" fails_naming "--fs-calc-period: '-1'" run --generate faircamp-zipf --fs-calc-period -1
check "--nodes without --node-cpus is named" fails_naming "option --nodes: give --nodes N and --node-cpus C together" run --generate faircamp-zipf --nodes 4
check "--node-cpus without --nodes is named" fails_naming "option --node-cpus: give" run --generate faircamp-zipf --node-cpus 32
check "--nodes of 0 is named" fails_naming "--nodes: '0'" run --generate faircamp-zipf --nodes 0 --node-cpus 32
check "--node-cpus not a number is named" fails_naming "--node-cpus: 'many'" run --generate faircamp-zipf --nodes 4 --node-cpus many
check "--cpus with --nodes is refused" fails_naming "option --cpus: not with --nodes" run --generate faircamp-zipf --cpus 64 --nodes 2 --node-cpus 32
check "--nodes x --node-cpus too large is named" fails_naming "options --nodes and --node-cpus" run --generate faircamp-zipf --nodes 100000 --node-cpus 100000
check "rank does not use --nodes" fails_naming "rank does not use --nodes" rank --swf x.swf --at 5 --nodes 2
check "slurm_backfill is a backfill kind (a bad one is named with it)" fails_naming "slurm_backfill" run --generate faircamp-zipf --policy fifo/backfil
check "missing value is named" fails_naming "--seed needs a value" run --generate faircamp-zipf --seed
check "two workloads are refused" fails_naming "exactly one workload" run --generate faircamp-zipf --swf x.swf
check "--load out of range is named" fails_naming "--load: '0'" run --generate faircamp-zipf --load 0
check "--load with --dependencies is refused" fails_naming "option --load: not with --dependencies" \
	run --swf x.swf --load 0.8 --dependencies
check "--load of a closed-loop workload is refused" fails_naming "closed-loop" \
	run --generate faircamp-zipf --users 2 --job-count 20 --load 0.8
check "rank does not use --load" fails_naming "rank does not use --load" rank --swf x.swf --at 5 --load 0.8
check "missing file is named" fails_naming "$work/absent.swf: cannot open" run --swf "$work/absent.swf"
printf '1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 x 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$work/bad.swf"
check "malformed SWF line names file and line" fails_naming "$work/bad.swf:2:" run --swf "$work/bad.swf" --cpus 4
lenient_run() { "$campsim" run --swf "$work/bad.swf" --cpus 4 --lenient --policy fcfs/no_backfill >"$work/out"; }
check "--lenient skips it and runs" lenient_run
check "the input notes say how much of its limit the kept job used" \
	grep -q 'note: limits against runs: 1 jobs with a known limit used 50 % of the CPU-seconds they asked for' "$work/out"

run_twice() {
	"$campsim" run --generate ostrich-profiles --users 6 --job-count 2000 --seed 9 \
		--policy fcfs/no_backfill,ostrich/per_campaign,fairtree/easy --out "$work/$1" >"$work/$1.txt" &&
		sed -i '/wall_s\|cpu_s\|cpu_per_event\|peak_rss\|report written/d' "$work/$1.txt"
}
check "a run with three policies succeeds" run_twice first
run_twice second
check "same seed, same per-job CSV bytes" cmp -s "$work/first/ostrich_per_campaign.jobs.csv" "$work/second/ostrich_per_campaign.jobs.csv"
check "same seed, same table (timings aside)" cmp -s "$work/first.txt" "$work/second.txt"
run_parallel() {
	"$campsim" run --generate ostrich-profiles --users 6 --job-count 2000 --seed 9 --parallel 2 \
		--policy fcfs/no_backfill,ostrich/per_campaign,fairtree/easy --out "$work/parallel" >"$work/parallel.txt" &&
		sed -i '/wall_s\|cpu_s\|cpu_per_event\|peak_rss\|report written/d' "$work/parallel.txt"
}
check "--parallel 2 runs" run_parallel
check "--parallel 2: the same table as one at a time, in the same order" cmp -s "$work/first.txt" "$work/parallel.txt"
for policy in fcfs_no_backfill ostrich_per_campaign fairtree_easy; do
	check "--parallel 2: the same $policy jobs CSV" cmp -s "$work/first/$policy.jobs.csv" "$work/parallel/$policy.jobs.csv"
done
check "--parallel 0 is bad usage, named" usage_error "--parallel: '0'" run --generate faircamp-zipf --parallel 0
check "the JSON report parses" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/first/fairtree_easy.json"
# Each run's JSON names the command line that made it, word for word, so a result file says how
# to make it again (the policy's parameters and the estimate's options included).
command_recorded() {
	python3 -c 'import json, sys; sys.exit(json.load(open(sys.argv[1]))["run"]["command"] != sys.argv[2:])' \
		"$work/first/fairtree_easy.json" run --generate ostrich-profiles --users 6 --job-count 2000 --seed 9 \
		--policy fcfs/no_backfill,ostrich/per_campaign,fairtree/easy --out "$work/first"
}
check "the JSON report records the command line" command_recorded
check "the comparison names every policy" grep -q 'fcfs/no_backfill.*ostrich/per_campaign.*fairtree/easy' "$work/first/comparison.txt"

# rank: two users on 4 CPUs; u1 submits 3 x 4-CPU 60 s jobs at 0, u2 one 4-CPU 60 s job at 10.
# OStrich at 10: u1's campaign has 720 - 40 = 680 CPU-s left in V, u2's 240: u2's C~ = 10 +
# 240/2 = 130 < u1's, so job 4 ranks first; FIFO keeps submission order.
cat >"$work/jobs.csv" <<'CSV'
id,user,submit,cpus,limit
1,u1,0,4,60
2,u1,0,4,60
3,u1,0,4,60
4,u2,10,4,60
CSV
check "rank under OStrich puts the light user first" test "$("$campsim" rank --jobs "$work/jobs.csv" --cpus 4 --at 10 | tr '\n' ' ')" = "4 1 2 3 "
check "rank under FIFO keeps submission order" test "$("$campsim" rank --jobs "$work/jobs.csv" --cpus 4 --at 10 --rank-policy fifo | tr '\n' ' ')" = "1 2 3 4 "
# --sched-period 7: FCFS on 4 CPUs, each job 60 s: a job starts at the first pass (a multiple
# of 7 s) after the previous ends, 0, 63, 126, 189, not 0, 60, 120, 180.
period_starts() {
	"$campsim" run --jobs "$work/jobs.csv" --cpus 4 --policy fcfs/no_backfill --sched-period 7 \
		--out "$work/period" >/dev/null &&
		test "$(cut -d, -f7 "$work/period/fcfs_no_backfill.jobs.csv" | tail -n +2 | tr '\n' ' ')" = "0 63 126 189 "
}
check "--sched-period 7: jobs start only at multiples of 7 s (0 63 126 189)" period_starts
check "rank without --at is refused" fails_naming "--at" rank --jobs "$work/jobs.csv" --cpus 4
# The thesis's campaign rule at the second a campaign ends: user 1's job 2 is submitted at 4, the
# second job 1 ends, so it opens a campaign of its own (not before the last job's completion);
# user 2's job 4 joins job 3's, still running. FairCamp paper deadlines then put 4 before 2 (fed
# submissions first, job 2 joined job 1's finished campaign and ranked first).
printf 'id,user,submit,cpus,limit,start,end\n1,1,0,1,4,0,4\n2,1,4,1,4,,\n3,2,0,1,6,0,6\n4,2,1,1,6,,\n' >"$work/thesis.csv"
check "rank: a submission in the second its campaign's last job ends opens a new campaign (4 2)" \
	test "$("$campsim" rank --jobs "$work/thesis.csv" --cpus 2 --at 5 --rank-policy faircamp \
		--parameters faircamp_mode=paper,faircamp_k=2 | tr '\n' ' ')" = "4 2 "

# Issue 12, point 4: real logs replay cleanly.
swf_line() { # id status limit [run]: one 18-field SWF line, 2 CPUs, submitted at id*10
	echo "$1 $(($1 * 10)) 0 ${4:-100} 2 -1 -1 2 $3 -1 $2 1 1 -1 -1 1 -1 -1"
}
{
	echo "; MaxProcs: 4"
	swf_line 1 265 200
	echo "-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1"
	swf_line 2 1 0 5000
	swf_line 3 1 40
} >"$work/real.swf"
real_run() { "$campsim" run --swf "$work/real.swf" --policy fcfs/no_backfill >"$work/real.out" 2>"$work/real.err"; }
check "a status outside -1..5 and a line of -1s do not stop the run" real_run
check "the status outside -1..5 is counted" grep -q "status outside -1..5: 1 kept" "$work/real.out"
check "the line of -1s is dropped and counted" grep -q "every field -1: 1 dropped" "$work/real.out"
check "limit 0 is read as unknown and counted" grep -q "limit 0: 1 read as unknown" "$work/real.out"
# Job 3 runs 100 s on 2 CPUs, cut at 40: 120 of 200 + 10000 + 200 CPU-s lost.
check "CPU-seconds lost at the limit are printed" grep -q "120 of the log's 10400 CPU-seconds lost (1.2 %)" "$work/real.out"
check "the workload line counts the CPU-seconds cut" grep -q "120 CPU-s cut at the limit" "$work/real.out"
: >"$work/empty.swf"
printf '; Version: 2.2\n; MaxProcs: 8\n' >"$work/header.swf"
empty_warns() { # file: the run goes on, with a warning naming the file
	"$campsim" run --swf "$1" --cpus 4 --policy fcfs/no_backfill >"$work/out" 2>"$work/err" &&
		grep -qF "warning: $1: no data lines" "$work/err"
}
check "an empty trace is warned about, naming it" empty_warns "$work/empty.swf"
check "a header-only trace is warned about, naming it" empty_warns "$work/header.swf"
check "--from after --to is refused, naming both" usage_error "--from (200) is not before --to (100)" run --swf "$work/real.swf" --from 200 --to 100
check "--from equal to --to is refused" usage_error "--from (100) is not before --to (100)" run --swf "$work/real.swf" --to 100 --from 100
for command in run rank "reproduce" "reproduce faircamp-zipf"; do
	# shellcheck disable=SC2086 # the command's words
	check "campsim $command --help prints the usage" eval '"$campsim" $command --help >"$work/out" 2>"$work/err" && grep -q "^usage: campsim run" "$work/out" && [ ! -s "$work/err" ]'
done
for bad in "" 0 -5 3600, 3600,100 3600,max,1 1h 3600,min 400000000 3600,400000000; do
	check "--missing-limit '$bad' is bad usage" usage_error "--missing-limit: '$bad' is not S, S,M or S,max" run --swf "$work/real.swf" --missing-limit "$bad"
done
for good in 3600 3600,3600 3600,max; do
	check "--missing-limit $good is taken" eval '"$campsim" run --swf "$work/real.swf" --missing-limit $good >"$work/out" 2>"$work/err" && grep -q -- "--missing-limit: " "$work/out" "$work/err"'
done
check "--missing-limit with a generated workload is refused" usage_error "--missing-limit: only with a log" run --generate faircamp-zipf --missing-limit 600
check "--cpus 0 is bad usage" usage_error "--cpus: '0' is not a number >= 1" run --generate faircamp-zipf --cpus 0
check "--cpus -4 is the same bad usage" usage_error "--cpus: '-4' is not a number >= 1" run --generate faircamp-zipf --cpus -4
check "--bf-resolution -1 is bad usage, naming it" usage_error "--bf-resolution: '-1' is not seconds in [0, 3600] (bf_resolution)" run --generate faircamp-zipf --bf-resolution -1

# Issue 12, CLI traps: an option a command does not use is an error naming both; an option given
# twice is an error, except the lists --policy and --parameters, which are joined.
check "rank refuses --policy, pointing at --rank-policy" usage_error "rank does not use --policy (its policy is --rank-policy)" rank --jobs "$work/jobs.csv" --cpus 4 --at 10 --policy faircamp
check "rank refuses --threshold" usage_error "rank does not use --threshold" rank --jobs "$work/jobs.csv" --cpus 4 --at 10 --threshold 5
check "run refuses --at" usage_error "run does not use --at" run --generate faircamp-zipf --at 5
check "reproduce refuses --policy" usage_error "reproduce does not use --policy" reproduce faircamp-zipf --instances 1 --policy fifo
check "reproduce refuses --lenient" usage_error "reproduce does not use --lenient" reproduce faircamp-zipf --instances 1 --lenient
check "an option given twice is refused" usage_error "option --at given twice" rank --jobs "$work/jobs.csv" --cpus 4 --at 10 --at 20
check "a flag given twice is refused" usage_error "option --lenient given twice" run --generate faircamp-zipf --lenient --lenient
check "--threshold and --window together are refused" usage_error "give --threshold or --window, not both" run --generate faircamp-zipf --threshold 5 --window 10
check "an unknown planner estimate is named" usage_error "--planner-pending: planner estimate 'soon'" run --generate faircamp-zipf --planner-pending soon
check "--planner-running takes same, exact or limit only" usage_error "--planner-running: 'predicted': expected same, exact or limit" run --generate faircamp-zipf --planner-running predicted
check "--planner-factor without a guess to scale is refused" usage_error "option --planner-factor: only with --planner-pending exact, expected, predicted, similar or consistent" run --generate faircamp-zipf --planner-factor 2
check "--planner-pending-for names the groups" usage_error "--planner-pending-for: 'lite': expected light_cpu, light_jobs or heavy_cpu" run --generate faircamp-zipf --planner-pending exact --planner-pending-for lite
check "--planner-pending-for without --planner-pending is refused" usage_error "option --planner-pending-for: only with --planner-pending" run --generate faircamp-zipf --planner-pending-for light_cpu
check "--estimate-for names the groups" usage_error "--estimate-for: 'lite': expected light_cpu, light_jobs or heavy_cpu" run --generate faircamp-zipf --estimate exact --estimate-for lite
check "--estimate-for without --estimate exact or fmodel is refused" usage_error "option --estimate-for: only with --estimate exact or fmodel" run --generate faircamp-zipf --estimate predicted --estimate-for heavy_cpu
check "--planner-factor 0 is refused" usage_error "--planner-factor: '0' is not a factor in (0, 1000]" run --generate faircamp-zipf --planner-pending predicted --planner-factor 0
cat >"$work/same-second.csv" <<'CSV'
id,user,submit,cpus,limit,start,end
1,1,0,1,4,0,4
2,1,4,1,4,,
3,2,0,1,6,0,6
4,2,1,1,6,,
CSV
rank_paper() { "$campsim" rank --jobs "$work/same-second.csv" --cpus 2 --at 5 --rank-policy faircamp "$@" | tr '\n' ' '; }
joined=$(rank_paper --parameters faircamp_mode=paper,faircamp_k=2)
check "two --parameters are joined, not replaced" test "$(rank_paper --parameters faircamp_mode=paper --parameters faircamp_k=2)" = "$joined"
check "the first of two --parameters is not dropped" fails_naming "'bogus_key'" rank --jobs "$work/same-second.csv" --cpus 2 --at 5 --parameters bogus_key=1 --parameters faircamp_k=2
check "a key repeated across --parameters is refused" fails_naming "faircamp_k given twice" rank --jobs "$work/same-second.csv" --cpus 2 --at 5 --rank-policy faircamp --parameters faircamp_k=2 --parameters faircamp_k=3
two_policy_options() {
	"$campsim" run --generate faircamp-zipf --users 2 --job-count 50 --policy fcfs/no_backfill --policy fifo/easy >"$work/out" &&
		grep -q 'fcfs/no_backfill.*fifo/easy' "$work/out"
}
check "two --policy lists are joined" two_policy_options

finish
