#!/usr/bin/env bash
# Controller failover (issue 14 point 5): priority/campaign and sched/campaign on a primary and a
# backup slurmctld (localcluster --backup, shared StateSaveLocation). Mid-workload the primary is
# killed (-9); the backup takes control and must carry on: the same campaigns in the same order,
# the same planned starts (sched/campaign's per-campaign reservations), jobs started by the
# backup, scampaign answered by the backup's plugin on its own address (query_address=controller).
# Then the primary comes back and takes control again. Every job runs exactly once: each job
# script appends its id to a file, and jobcomp records each job once, COMPLETED.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1,query_address=controller --backup \
	--nodes 4 --cpus 8 --conf "SlurmctldTimeout=6" \
	--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1,campaign_mode=per_campaign"
backup_log=$("$localcluster" path backup-log)
starts=$("$localcluster" path dir)/job-starts
: >"$starts"
chmod 666 "$starts" # the job scripts run as the camp users
# job USER CPUS SECONDS NAME: a batch job that records its start, prints its id.
job() { submit "$1" -p batch -n "$2" -t 2 -J "$4" --wrap "echo \$SLURM_JOB_ID >>$starts; sleep $3"; }
# The controller in charge: "primary" when scontrol ping finds the primary UP (a primary that
# starts takes control), "backup" when it does not and the backup's last switch in its log was to
# control (a backup in standby answers ping too), else "none".
in_charge() {
	if scontrol ping 2>/dev/null | grep -q '^Slurmctld(primary) at .* is UP'; then
		echo primary
	elif grep -E 'Running as primary controller|running in background mode' "$backup_log" |
		tail -1 | grep -q 'Running as primary'; then
		echo backup
	else
		echo none
	fi
}
in_charge_is() { [ "$(in_charge)" = "$1" ]; }
# restrict LIST OTHER: LIST's words that OTHER has too, in LIST's order (jobs that start between
# two listings leave both).
restrict() {
	local keep=" $2 " word
	for word in $1; do [[ $keep == *" $word "* ]] && printf '%s ' "$word"; done
}
# has_campaign USER: scampaign lists a campaign of USER with pending jobs.
has_campaign() { grep -q "$1:" <<<"$(campaign_ids)"; }
# "user:campaign" of every campaign with pending jobs.
campaign_ids() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
print(" ".join(sorted("%s:%d" % (r["user"], r["campaign"]) for r in json.load(sys.stdin)["campaigns"] if r["pending"])))' 2>/dev/null || echo unreadable
}
# "user campaign pending running" per campaign as scampaign lists it, sorted.
campaigns() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
for r in json.load(sys.stdin)["campaigns"]:
    print(r["user"], r["campaign"], r["pending"], r["running"])
' 2>/dev/null | sort | tr '\n' ';' | grep . || echo unreadable
}
# Pending jobs that have a planned start (sched/campaign's reservations), "id start" each.
planned() { squeue -h -t PD --start -o '%i %S' | awk '$2 ~ /^20/' | sort -n | tr '\n' ';'; }
reserved_ids() { tr ';' '\n' <<<"$1" | awk 'NF {print $1}' | tr '\n' ' '; }
# same_starts A B: the two planned() listings reserve the same jobs, starts within 5 s.
same_starts() {
	python3 -c '
import sys, time
def parse(text):
    out = {}
    for item in filter(None, text.split(";")):
        job, when = item.split()
        out[job] = time.mktime(time.strptime(when, "%Y-%m-%dT%H:%M:%S"))
    return out
a, b = parse(sys.argv[1]), parse(sys.argv[2])
sys.exit(0 if a and a.keys() == b.keys() and all(abs(a[j] - b[j]) <= 5 for j in a) else 1)
' "$1" "$2"
}
# sched_passes_since MARKER N: sched/campaign's statistics file was written after MARKER by a
# process that has made at least N passes (the counters start at 0 in each controller).
sched_passes_since() {
	test "$(state_dir)/campaign_sched_stats.json" -nt "$1" && [ "$(sched_stat passes)" -ge "$2" ]
}

check_equal "scontrol ping: the primary in charge, the backup in standby" primary "$(in_charge)"
check "scontrol ping lists the backup UP" grep -q '^Slurmctld(backup) at .* is UP' <<<"$(scontrol ping)"

# Timeline (s from the runners' start): the crash at ~12 and the takeover at ~22 (SlurmctldTimeout
# 6) fall before camp1's runners end (45), so the comparisons across the takeover see the same
# queue; the backup then starts waiting jobs (15 s each), and the primary returns before any of
# them ends, so the comparisons across the return see no job end either (an end changes a
# campaign's remaining work, so its rank, legitimately).
echo "== workload: camp1, camp2 run (32 CPUs); camp3..camp6 wait in campaigns"
runners=()
for user in camp1 camp1 camp2 camp2; do
	runners+=("$(job "$user" 8 $([ "$user" = camp1 ] && echo 45 || echo 60) run-$user)")
done
all_running() {
	local id
	for id in "$@"; do job_state_is "$id" R || return 1; done
}
check "the four runners start (32 of 32 CPUs)" wait_until 30 all_running "${runners[@]}"
waiting=()
for spec in camp3:8 camp3:8 camp3:8 camp4:16 camp4:16 camp5:8 camp5:8 camp6:32; do
	waiting+=("$(job "${spec%%:*}" "${spec#*:}" 15 "w-${spec%%:*}")")
	sleep 0.3
done
sleep 5 # ranking passes (calc_period=1) and sched/campaign's plan (campaign_period=1)
prio_before=$(squeue -h -p batch -t PD -o '%Q %i' | sort -rn | tr '\n' ';')
order_before=$(pending_order batch)
campaigns_before=$(campaigns)
planned_before=$(planned)
reserved_before=$(sched_stat last_reserved)
echo "  priorities (%Q %i): $prio_before"
echo "  campaigns: $campaigns_before"
echo "  planned starts: $planned_before"
check_equal "all 8 waiting jobs pending" 8 "$(pending_count)"
check "scampaign lists camp3..camp6's campaigns" \
	grep -q 'camp3 .* 3 0;camp4 .* 2 0;camp5 .* 2 0;camp6 .* 1 0;$' <<<"$campaigns_before"
check "sched/campaign plans starts (per campaign) before the crash" test -n "$planned_before"
# slurmctld saves job state asynchronously (up to a few seconds late): a job started after its
# last save and before a crash comes back PENDING and would run twice, in any Slurm. The crash
# comes once the state is on disk, still mid-workload (runners running, jobs waiting): once
# job_state holds the last job submitted (w-camp6).
check "slurmctld saved its job state after the submissions" wait_until 20 state_holds w-camp6
sleep 2 # and priority/campaign its own state (every pass with events)

echo "== kill -9 of the primary"
killed_at=$(date +%s)
killed=$(mktemp)
"$localcluster" kill-ctld
check "the backup takes control within 40 s" wait_until 40 in_charge_is backup
echo "  backup in charge after $(($(date +%s) - killed_at)) s"
check "the backup's log: running as primary controller" grep -q 'Running as primary controller' "$backup_log"
check "the backup's priority/campaign listens on its own address (127.0.0.2)" \
	wait_until 10 grep -q 'scampaign channel on 127.0.0.2:' "$backup_log"
check "the backup's sched/campaign plans (3 passes)" wait_until 20 sched_passes_since "$killed" 3
rm -f "$killed"
sleep 2 # and its ranking passes (calc_period=1)
order_after=$(pending_order batch)
campaigns_after=$(campaigns)
planned_after=$(planned)
echo "  after the takeover: priorities $(squeue -h -p batch -t PD -o '%Q %i' | sort -rn | tr '\n' ';')"
echo "  campaigns: $campaigns_after"
echo "  planned starts: $planned_after"
check_equal "priority order of the waiting jobs unchanged" "$order_before" "$order_after"
check_equal "scampaign (answered by the backup) lists the same campaigns" "$campaigns_before" \
	"$campaigns_after"
check_equal "the same jobs reserved" "$(reserved_ids "$planned_before")" \
	"$(reserved_ids "$planned_after")"
check "the same planned starts (within 5 s)" same_starts "$planned_before" "$planned_after"
check_equal "sched/campaign reserves as many jobs in its last pass as before the crash" \
	"$reserved_before" "$(sched_stat last_reserved)"
late=$(job camp7 8 15 w-camp7) # a submission the backup accepts
check "camp7's job, submitted to the backup, forms a campaign" wait_until 10 has_campaign camp7

echo "== camp1's runners end: the backup starts waiting jobs"
started_by_backup() {
	local id
	for id in "${waiting[@]}"; do
		[ "$(squeue -h -j "$id" -o %t 2>/dev/null)" = R ] && return 0
		job_completed "$id" && return 0
	done
	return 1
}
check "a waiting job starts while the backup is in charge" wait_until 60 started_by_backup
check_equal "the backup was still in charge" backup "$(in_charge)"
sleep 2 # the pass's other starts
order_mid=$(pending_order batch)
campaigns_mid=$(campaign_ids)

echo "== the primary comes back and takes control"
"$localcluster" start-ctld
check_equal "scontrol ping: the primary in charge again" primary "$(in_charge)"
check "the backup handed over (REQUEST_CONTROL in its log)" grep -q 'REQUEST_CONTROL' "$backup_log"
listening_twice() { [ "$(grep -c 'scampaign channel on 127.0.0.1:' "$(ctld_log)")" -eq 2 ]; }
check "the primary's priority/campaign listens on 127.0.0.1 again" wait_until 10 listening_twice
sleep 3
order_back=$(pending_order batch)
campaigns_back=$(campaign_ids)
echo "  before the return: order $order_mid, campaigns $campaigns_mid"
echo "  after the return: order $order_back, campaigns $campaigns_back"
check "jobs still wait after the return (the comparison has something to compare)" \
	test -n "$(restrict "$order_mid" "$order_back")"
check "scampaign answered on both sides of the return" \
	test -n "$(restrict "$campaigns_mid" "$campaigns_back")" -a "$campaigns_mid" != unreadable
check_equal "pending order unchanged across the return (jobs waiting in both)" \
	"$(restrict "$order_mid" "$order_back")" "$(restrict "$order_back" "$order_mid")"
check_equal "scampaign (answered by the primary) lists the same campaigns (waiting in both)" \
	"$(restrict "$campaigns_mid" "$campaigns_back")" "$(restrict "$campaigns_back" "$campaigns_mid")"

echo "== drain: every job runs once and completes"
check "the queue drains within 150 s" wait_until 150 queue_empty
expected=$(printf '%s\n' "${runners[@]}" "${waiting[@]}" "$late" | sort -n | tr '\n' ' ')
check_equal "13 jobs in all" 13 "$(wc -w <<<"$expected")"
check_equal "each job script ran exactly once" "$expected" "$(sort -n "$starts" | tr '\n' ' ')"
check_equal "jobcomp records each job once, COMPLETED" "$expected" \
	"$(sed -n 's/^JobId=\([0-9]*\) .*JobState=COMPLETED.*/\1/p' "$("$localcluster" path jobcomp)" | sort -n | tr '\n' ' ')"
check_equal "no job record in jobcomp other than COMPLETED" "" \
	"$(grep -v 'JobState=COMPLETED' "$("$localcluster" path jobcomp)")"
check_equal "no error from our plugins in the primary's log" "" "$(plugin_errors)"
check_equal "no error from our plugins in the backup's log" "" "$(plugin_errors "$backup_log")"
finish
