#!/usr/bin/env bash
# campsim's node model (--nodes N --node-cpus C) and sched/backfill's whole-node reservations
# (BACKFILL slurm_backfill) on 2 nodes x 4 CPUs: jobs 1 and 2 take 3 CPUs of each node until
# 100; job 3 (6 CPUs) is reserved at 100 on both nodes. Under CPU-level reservations
# (conservative) the long 1-CPU job 4 takes n1's free CPU at 1 and the short 2-CPU job 5 waits
# for job 3's end (200); under whole-node ones job 4 may not run into job 3's nodes and job 5
# starts at 1; job 4 starts at 100 beside the running job 3 (running jobs hold CPUs only). The
# one pool of 8 CPUs schedules as the nodes do under conservative. CAMPSIM is set by make check.
set -uo pipefail
campsim=${CAMPSIM:-../../build/src/sim/campsim}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/../cluster/lib.sh" # check, finish

cat >"$work/jobs.csv" <<'JOBS'
id,user,submit,cpus,limit,runtime
1,u1,0,3,100,100
2,u1,0,3,100,100
3,u2,1,6,100,100
4,u3,1,1,200,200
5,u4,1,2,50,50
JOBS

start_of() { # policy-file job-index: that job's start in campsim run's jobs CSV
	awk -F, -v job="$2" 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
		$col["job_index"] == job { print $col["start_s"] }' "$1"
}
starts_are() { # dir policy "start of job 3,4,5"
	local file="$work/$1/$2.jobs.csv"
	[ "$(start_of "$file" 2),$(start_of "$file" 3),$(start_of "$file" 4)" = "$3" ] ||
		{ echo "  $1/$2: jobs 3,4,5 started at $(start_of "$file" 2),$(start_of "$file" 3),$(start_of "$file" 4), expected $3"; return 1; }
}

check "2 nodes x 4 CPUs, conservative and slurm_backfill, runs" \
	"$campsim" run --jobs "$work/jobs.csv" --nodes 2 --node-cpus 4 \
	--policy fcfs/conservative,fcfs/slurm_backfill --out "$work/nodes"
check "CPU-level reservations: job 4 backfills at 1, job 5 waits for job 3's end" starts_are nodes fcfs_conservative 100,1,200
check "whole-node reservations: job 5 starts at 1, job 4 waits for job 3's start" \
	starts_are nodes fcfs_slurm_backfill 100,100,1
check "one pool of 8 CPUs runs" "$campsim" run --jobs "$work/jobs.csv" --cpus 8 \
	--policy fcfs/conservative --out "$work/pool"
check "one pool: job 4 backfills at 1" starts_are pool fcfs_conservative 100,1,200
# Slurm's main scheduler between sched/backfill's passes (--sched-period 10): at each submission
# and end it starts jobs in rank order up to the first that does not fit. Job 1 (2 CPUs) starts
# at its submission (1) and job 2 (8 CPUs) at job 1's end (51); job 3 (1 CPU), ranked below the
# job 2 that does not fit, waits for the backfill pass at 10. Without the main scheduler
# (conservative) every start is at a pass: 10, 60, 10.
cat >"$work/passes.csv" <<'JOBS'
id,user,submit,cpus,limit,runtime
1,u1,1,2,100,50
2,u2,1,8,100,10
3,u3,2,1,20,5
JOBS
check "--sched-period 10, slurm_backfill and conservative, runs" \
	"$campsim" run --jobs "$work/passes.csv" --nodes 2 --node-cpus 4 --sched-period 10 \
	--policy fcfs/conservative,fcfs/slurm_backfill --out "$work/passes"
starts_of_123() { # policy "starts of jobs 1,2,3"
	local file="$work/passes/$1.jobs.csv" got
	got="$(start_of "$file" 0),$(start_of "$file" 1),$(start_of "$file" 2)"
	[ "$got" = "$2" ] || { echo "  $1: jobs 1,2,3 started at $got, expected $2"; return 1; }
}
check "main scheduler: jobs 1 and 2 start at a submission and an end, job 3 at the pass" \
	starts_of_123 fcfs_slurm_backfill 1,51,10
check "passes only: every start at a multiple of 10" starts_of_123 fcfs_conservative 10,60,10
finish
