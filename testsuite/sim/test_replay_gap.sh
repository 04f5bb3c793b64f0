#!/usr/bin/env bash
# scripts/replay_gap.py on a bundle made here (2 nodes x 4 CPUs, three 4-CPU jobs at t0 = 1000):
# the cluster started user 1's jobs 1 and 2 at t0 (in job-id order, by the log) and user 2's
# job 3 at 10 s; the prediction started 1 and 3 at t0 and 2 at 4 s, leaving 4 CPUs free at 2-3 s
# with job 2 pending. User 2 is light (8 CPU-s against 80), user 1 heavy.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../scripts/replay_gap.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

bundle=$work/tiny-c-r1
mkdir -p "$bundle/report"
echo '{"parameters": {"nodes": 2, "node_cpus": 4, "compress": 300}}' >"$bundle/parameters.json"
header=job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s
cat >"$bundle/report/observed_log.jobs.csv" <<CSV
$header
0,1,1,1,4,1000,1000,1010
1,2,1,1,4,1000,1000,1010
2,3,2,2,4,1000,1010,1012
CSV
cat >"$bundle/report/ostrich_conservative.jobs.csv" <<CSV
$header
0,1,1,1,4,1000,1000,1010
1,2,1,1,4,1000,1004,1014
2,3,2,2,4,1000,1000,1002
CSV
gzip -c >"$bundle/slurmctld.log.gz" <<'LOG'
[1970-01-01T00:16:40.020] sched/campaign: started JobId=1 in batch on n1
[1970-01-01T00:16:40.021] sched/campaign: started JobId=2 in batch on n2
[1970-01-01T00:16:50.010] sched/campaign: started JobId=3 in batch on n1
LOG

out=$(python3 "$script" "$bundle" 2>&1)
check_equal "replay_gap.py exits 0" 0 "$?"
check_equal "the cluster's first second, in job-id order" \
	"first second: observed 2 started (user:jobs 1:2; started in job-id order)" \
	"$(sed -n 2p <<<"$out")"
check_equal "the prediction's first second" \
	"              predicted 2 started (user:jobs 1:1 2:1)" "$(sed -n 3p <<<"$out")"
check "campaign 1 (heavy): stretch 1 observed, 1.4 predicted, no job late" \
	grep -qE '^1 +1 heavy +2 \| +0 +10 +1 \| +0 +14 +1.4 \| 0, 0$' <<<"$out"
check "campaign 2 (light): one job 10 s late, stretch 6 against 1" \
	grep -qE '^2 +2 light +1 \| +10 +12 +6 \| +0 +2 +1 \| 1, 10$' <<<"$out"
check "the prediction left 4 CPUs free for 2 s with job 2 pending" \
	grep -q '^predicted: 2 s with an eligible job fitting the free CPUs, 4.0 CPUs free then (mean), 8 CPU-s$' <<<"$out"
check "the cluster none" \
	grep -q '^observed : 0 s with an eligible job fitting the free CPUs' <<<"$out"

gzip -dc "$bundle/slurmctld.log.gz" | sed '1{h;d};2{G}' | gzip -c >"$work/swapped.gz"
mv "$work/swapped.gz" "$bundle/slurmctld.log.gz"
python3 "$script" "$bundle" >"$work/out.txt"
check "job 2 logged before job 1: not in job-id order" \
	grep -q 'user:jobs 1:2; not in job-id order' "$work/out.txt"

sed -i '$d' "$bundle/report/ostrich_conservative.jobs.csv"
python3 "$script" "$bundle" >/dev/null 2>"$work/err.txt"
check_equal "schedules of other jobs exit 1" 1 "$?"
check "and name both files" grep -q 'observed_log.jobs.csv and ostrich_conservative.jobs.csv: not the same jobs' "$work/err.txt"
rm "$bundle/report/ostrich_conservative.jobs.csv"
python3 "$script" "$bundle" >/dev/null 2>"$work/err.txt"
check_equal "no prediction exits 1" 1 "$?"
check "and says what it found" grep -q "one prediction's \*.jobs.csv, found none" "$work/err.txt"
finish
