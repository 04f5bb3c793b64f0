#!/usr/bin/env bash
# campsim's command line end to end: every bad option, value and file gets an error naming it;
# runs are deterministic (same seed, same bytes); rank replays a captured job list; the report
# files are written. CAMPSIM is set by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
check() { # description command...
	if "${@:2}"; then echo "ok: $1"; else echo "FAIL: $1"; failures=$((failures + 1)); fi
}
fails_naming() { # culprit args...: exit status non-zero and stderr names the culprit
	local culprit=$1
	shift
	! "$campsim" "$@" >"$work/out" 2>"$work/err" && grep -qF -- "$culprit" "$work/err"
}

check "unknown command is named" fails_naming "'simulate'" simulate
check "unknown option is named" fails_naming "'--speed'" run --generate faircamp-zipf --speed 3
check "bad number is named" fails_naming "--users: 'many'" run --generate faircamp-zipf --users many
check "unknown priority is named" fails_naming "'lottery'" run --generate faircamp-zipf --policy lottery
check "unknown backfill is named" fails_naming "'maybe'" run --generate faircamp-zipf --policy fifo/maybe
check "unknown estimate is named" fails_naming "'guess'" run --generate faircamp-zipf --estimate guess
check "missing value is named" fails_naming "--seed needs a value" run --generate faircamp-zipf --seed
check "two workloads are refused" fails_naming "exactly one workload" run --generate faircamp-zipf --swf x.swf
check "missing file is named" fails_naming "$work/absent.swf: cannot open" run --swf "$work/absent.swf"
printf '1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n2 5 x 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n' >"$work/bad.swf"
check "malformed SWF line names file and line" fails_naming "$work/bad.swf:2:" run --swf "$work/bad.swf" --cpus 4
lenient_run() { "$campsim" run --swf "$work/bad.swf" --cpus 4 --lenient --policy fcfs/no_backfill >"$work/out"; }
check "--lenient skips it and runs" lenient_run

run_twice() {
	"$campsim" run --generate ostrich-profiles --users 6 --job-count 2000 --seed 9 \
		--policy fcfs/no_backfill,ostrich/per_campaign,fairtree/easy --out "$work/$1" >"$work/$1.txt" &&
		sed -i '/wall_s\|cpu_s\|cpu_per_event\|peak_rss\|report written/d' "$work/$1.txt"
}
check "a run with three policies succeeds" run_twice first
run_twice second
check "same seed, same per-job CSV bytes" cmp -s "$work/first/ostrich_per_campaign.jobs.csv" "$work/second/ostrich_per_campaign.jobs.csv"
check "same seed, same table (timings aside)" cmp -s "$work/first.txt" "$work/second.txt"
check "the JSON report parses" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/first/fairtree_easy.json"
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
check "rank without --at is refused" fails_naming "--at" rank --jobs "$work/jobs.csv" --cpus 4

[ "$failures" -eq 0 ] && echo "all campsim CLI checks passed"
exit "$failures"
