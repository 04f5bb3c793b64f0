#!/usr/bin/env bash
# campsim run --sacct end to end: a window of SDSC-SP2 written as sacct output
# (bench/swf_to_sacct.sh) gives the same table as --swf on the same window, every row but the
# timings; --anonymise keeps every user name out of the report files; rank reads sacct too; and
# the usage errors of --sacct name their culprit. CAMPSIM is set by make check.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
campsim=${CAMPSIM:-../../build/src/sim/campsim}
trace=$here/../../data/traces/SDSC-SP2-1998-4.2-cln.swf.gz
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, finish
policies=fcfs/no_backfill,fairshare/easy,fairtree/easy,ostrich/conservative,ostrich/per_campaign,faircamp/per_campaign

bash "$here/../../bench/swf_to_sacct.sh" "$trace" 0 864000 >"$work/month.txt"
"$campsim" run --swf "$trace" --to 864000 --policy "$policies" >"$work/swf.out" 2>&1
"$campsim" run --sacct "$work/month.txt" --cpus 128 --policy "$policies" --anonymise \
	--out "$work/report" >"$work/sacct.out" 2>&1
table() { sed -n '/^metric/,$p' "$1" | grep -vE '^(scheduler\.|run\.|report written)'; }
check "both runs print a table of 100 rows or more" test "$(table "$work/sacct.out" | wc -l)" -ge 100
same_table() { diff <(table "$work/swf.out") <(table "$work/sacct.out") >"$work/table.diff"; }
check "the same table from --sacct as from --swf (timings aside)" same_table
head -6 "$work/table.diff"
check_equal "the same jobs kept" "$(grep -o '^workload [^:]*: [0-9]* jobs' "$work/swf.out" | awk '{print $3}')" \
	"$(grep -o '^workload [^:]*: [0-9]* jobs' "$work/sacct.out" | awk '{print $3}')"
check "--anonymise: no user name in the report files" not grep -rq 'user[0-9]' "$work/report"
first_names() { python3 -c 'import json, sys
names = json.load(open(sys.argv[1]))["workload"]["user_names"]
print(names["1"], names["2"], len(names))' "$work/report/ostrich_per_campaign.json"; }
check_equal "--anonymise: the JSON names users u1, u2, ..." "u1 u2 33" "$(first_names)"

"$campsim" rank --sacct "$work/month.txt" --cpus 128 --at $((1790812800 + 600000)) >"$work/rank.out" 2>&1
check_equal "rank reads --sacct (epoch seconds): the order of --swf" \
	"$("$campsim" rank --swf "$trace" --at 600000 2>&1)" "$(cat "$work/rank.out")"
usage_error() { # culprit args...: exit status 2 and stderr names the culprit
	local culprit=$1
	shift
	"$campsim" "$@" >"$work/out" 2>"$work/err"
	[ $? -eq 2 ] && grep -qF -- "$culprit" "$work/err"
}
check "--anonymise without --sacct is refused" usage_error "option --anonymise: only with --sacct" \
	run --swf "$trace" --anonymise
check "--sacct and --swf together are refused" usage_error "exactly one workload" \
	run --swf "$trace" --sacct "$work/month.txt"
fails_naming() { # culprit args...: exit status non-zero and stderr names the culprit
	local culprit=$1
	shift
	! "$campsim" "$@" >"$work/out" 2>"$work/err" && grep -qF -- "$culprit" "$work/err"
}
check "--sacct without --cpus names the missing machine size" fails_naming \
	"machine size unknown: give --cpus N" run --sacct "$work/month.txt"
sed '3s/|COMPLETED$/|DONE/' "$work/month.txt" >"$work/bad.txt"
check "a bad sacct line names file, line and column" fails_naming \
	"$work/bad.txt:3: column State: unknown state 'DONE'" run --sacct "$work/bad.txt" --cpus 128
finish
