#!/usr/bin/env bash
# Regenerates data/sacct_sample.txt, the real sacct export test_trace_sacct reads: a local cluster
# with accounting and our plugins runs one job of each kind campsim's sacct reader handles, then
# exports them with the command of doc/evaluate-your-cluster.md. By hand, as root; not in CI.
# Env as the cluster tests: PLUGIN_DIR, CLUSTER_DIR, CLUSTER_PORT_BASE. Takes about 3 minutes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../cluster/lib.sh"
out=${1:-$here/data/sacct_sample.txt}
sacct_format=JobID,JobIDRaw,User,Account,Partition,Submit,Eligible,Start,End,ElapsedRaw,TimelimitRaw,AllocCPUS,ReqCPUS,State

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 4 --accounting --fresh-db
began=$(date +%s)

submit camp1 -p batch -n 2 -t 2 -J with_steps --wrap "srun -n 1 sleep 2; srun -n 2 true" >/dev/null
submit camp2 -p batch -n 1 -t 1 -J array --array=1-3 --wrap "sleep 2" >/dev/null
submit camp3 -p batch -n 1 -t 1 -J fails --wrap "sleep 1; exit 3" >/dev/null
submit camp1 -p batch -n 1 -t 1 -J begins_later --begin=now+20 --wrap "sleep 2" >/dev/null
submit camp3 -p batch -n 1 -t 1 -J times_out --wrap "sleep 300" >/dev/null
cancelled=$(submit camp5 -p batch -n 1 -t 5 -J cancelled_running --wrap "sleep 300")
requeued=$(submit camp6 -p batch -n 1 -t 5 -J requeued --wrap "sleep 10")
wait_until 60 job_state_is "$cancelled" R
wait_until 60 job_state_is "$requeued" R
# Eligible but never started (the machine is full), then cancelled. A job held from submission
# and cancelled is never eligible: sacct --starttime does not list it at all.
never_ran=$(submit camp4 -p batch -n 8 -t 1 -J never_ran --wrap "sleep 1")
sleep 4
scancel "$never_ran" "$cancelled"
scontrol requeue "$requeued"
wait_until 240 queue_empty || { echo "jobs still queued:"; squeue; exit 1; }

# Unfinished at export: one running in "hold", one waiting for the whole machine behind it.
running=$(submit camp7 -p hold -n 4 -t 10 -J running_at_export --wrap "sleep 600")
wait_until 30 job_state_is "$running" R
submit camp8 -p batch -n 8 -t 1 -J pending_at_export --wrap "sleep 1" >/dev/null
sleep 8
TZ=UTC sacct --allusers --duplicates --parsable2 --starttime "$(TZ=UTC at_time "$began")" \
	--endtime now --format="$sacct_format" >"$out"
echo "wrote $out: $(($(wc -l <"$out") - 1)) records"
