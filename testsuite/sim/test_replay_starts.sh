#!/usr/bin/env bash
# scripts/replay_starts.py on a bundle made here (2 nodes x 4 CPUs, three jobs, a slurmctld log):
# job 3 (4 CPUs) is eligible at 2 s and starts at 9 s; from 5 s (job 2's end) its CPUs are free,
# so it waited 4 s with them free and the start came 4.5 s after job 2's end; job 1 ends after
# job 3 started, with no job pending (job 4 is eligible at 11 s): no gap counted. One refused
# start in the log.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
script=$here/../../scripts/replay_starts.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../cluster/lib.sh" # check, check_equal, finish

bundle=$work/tiny-c-r1
mkdir -p "$bundle"
echo '{"parameters": {"nodes": 2, "node_cpus": 4}}' >"$bundle/parameters.json"
cat >"$bundle/sacct.txt" <<'SACCT'
JobID|JobIDRaw|User|Submit|Eligible|Start|End|AllocCPUS|State
1|1|rp1|2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:10|4|COMPLETED
1.batch|1.batch||2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:10|4|COMPLETED
2|2|rp2|2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:00|2026-11-26T10:00:05|4|COMPLETED
3|3|rp1|2026-11-26T10:00:00|2026-11-26T10:00:02|2026-11-26T10:00:09|2026-11-26T10:00:12|4|COMPLETED
4|4|rp2|2026-11-26T10:00:00|2026-11-26T10:00:11|2026-11-26T10:00:11|2026-11-26T10:00:12|4|COMPLETED
SACCT
gzip -c >"$bundle/slurmctld.log.gz" <<'LOG'
[2026-11-26T10:00:00.100] sched/campaign: started JobId=1 in batch on n1
[2026-11-26T10:00:00.200] sched/campaign: started JobId=2 in batch on n2
[2026-11-26T10:00:05.000] _job_complete: JobId=2 WEXITSTATUS 0
[2026-11-26T10:00:05.000] _job_complete: JobId=2 done
[2026-11-26T10:00:06.000] sched/campaign: start of JobId=3 refused: Requested nodes are busy (planned on n2, limit 1 min)
[2026-11-26T10:00:09.500] sched/campaign: started JobId=3 in batch on n2
[2026-11-26T10:00:10.000] _job_complete: JobId=1 done
[2026-11-26T10:00:11.200] sched/campaign: started JobId=4 in batch on n1
[2026-11-26T10:00:12.000] _job_complete: JobId=3 done
LOG

out=$(python3 "$script" "$bundle" 2>&1)
check_equal "replay_starts.py exits 0" 0 "$?"
check_equal "the pool's figures: job 3 waited 4 s with its CPUs free, 4 of 8 free then" \
	"tiny-c-r1: 4 jobs, 1 waited; 1 waited >= 3 s with their CPUs free; 4 s with an eligible job fitting the free CPUs, 4.0 of 8 CPUs free then (mean)" \
	"$(sed -n 1p <<<"$out")"
check_equal "the log's: one refused start, job 3 started 4.5 s after job 2's end" \
	"  slurmctld.log.gz: 1 refused starts; job end to next start: mean 4.50 s, p50 4.50, p90 4.50, max 4.50 (1 job ends)" \
	"$(sed -n 2p <<<"$out")"
python3 "$script" --min-free-s 5 "$bundle" >"$work/out.txt"
check "with --min-free-s 5 job 3 no longer counts" \
	grep -q '; 0 waited >= 5 s with their CPUs free;' "$work/out.txt"

zcat "$bundle/slurmctld.log.gz" >"$bundle/slurmctld.log" && rm "$bundle/slurmctld.log.gz"
python3 "$script" "$bundle" >"$work/out.txt"
check "a plain slurmctld.log is read too" grep -q '^  slurmctld.log: 1 refused starts' "$work/out.txt"
rm "$bundle/slurmctld.log"
python3 "$script" "$bundle" >"$work/out.txt"
check "without a log it says so" grep -q 'no slurmctld log in the bundle' "$work/out.txt"

sed -i 's/|AllocCPUS|/|NCPUS|/' "$bundle/sacct.txt"
python3 "$script" "$bundle" >/dev/null 2>"$work/err.txt"
check_equal "an export without AllocCPUS exits 1" 1 "$?"
check "and names the file and the field" grep -q "$bundle/sacct.txt: no field AllocCPUS" "$work/err.txt"
python3 "$script" "$work/nowhere" >/dev/null 2>"$work/err.txt"
check_equal "a directory without a bundle exits 1" 1 "$?"
check "and names it" grep -q "$work/nowhere: no usable parameters.json" "$work/err.txt"
finish
