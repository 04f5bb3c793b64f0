#!/usr/bin/env bash
# The demo: build, start a 4-node local Slurm cluster with priority/campaign (OStrich) and sched/campaign,
# run a small two-user workload, and show squeue, sprio and a one-line summary. Root, Debian 12.
# KEEP_CLUSTER=1 leaves the cluster running afterwards (stop: testsuite/cluster/localcluster stop).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
cluster=$repo/testsuite/cluster/localcluster

bash "$repo/scripts/build.sh"
"$cluster" start --nodes 4 --cpus 8 --plugin-dir "$work/plugins" \
	--conf "PriorityType=priority/campaign" \
	--conf "PriorityParameters=policy=ostrich,calc_period=2" \
	--conf "SchedulerType=sched/campaign" \
	--conf "SchedulerParameters=campaign_period=2"
eval "$("$cluster" env)"
[ "${KEEP_CLUSTER:-0}" = 1 ] || trap '"$cluster" stop' EXIT

echo "== a heavy user (camp1) submits 24 jobs, then a light user (camp2) submits 4"
for i in $(seq 1 24); do
	sbatch --uid=camp1 --parsable -o /dev/null -D /tmp -n 4 -t 2 -J heavy$i --wrap "sleep 6" >/dev/null
done
for i in $(seq 1 4); do
	sbatch --uid=camp2 --parsable -o /dev/null -D /tmp -n 2 -t 2 -J light$i --wrap "sleep 3" >/dev/null
done
sleep 3
echo "== squeue"
squeue -o "%.8i %.8u %.10j %.3t %.12Q %.5C %R"
echo "== sprio"
sprio -l
started=$(date +%s)
deadline=$((started + 300))
while [ -n "$(squeue -h -o %i)" ]; do
	[ "$(date +%s)" -lt "$deadline" ] || { echo "demo: jobs still queued after 300 s" >&2; exit 1; }
	sleep 2
done
jobcomp=$("$cluster" path jobcomp)
done_jobs=$(grep -c 'JobState=COMPLETED' "$jobcomp" || true)
# Longest submit-to-end time of each user's jobs, from Slurm's own completion log.
slowest() {
	grep "UserId=$1(" "$jobcomp" | sed -n 's/.*EndTime=\([^ ]*\).*SubmitTime=\([^ ]*\).*/\1 \2/p' |
		while read -r end submit; do echo $(($(date -d "$end" +%s) - $(date -d "$submit" +%s))); done |
		sort -n | tail -n 1
}
starts=$(sed -n 's/.*"jobs_started": \([0-9]*\).*/\1/p' "$("$cluster" path state)/campaign_sched_stats.json")
echo "demo: $done_jobs of 28 jobs from 2 users completed; sched/campaign started $starts of them; drained in $(( $(date +%s) - started )) s;" \
	"OStrich ranked the light user's campaign first: camp2's jobs all done $(slowest camp2) s after submission, camp1's $(slowest camp1) s"
