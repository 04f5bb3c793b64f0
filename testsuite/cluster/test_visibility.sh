#!/usr/bin/env bash
# Who sees what, under PrivateData=jobs: sprio's -j/-u/-p filters and per-user visibility as under
# priority/multifactor, and scampaign's munge-authenticated channel: bad, replayed, expired and
# oversized requests get an error and slurmctld stays up; users see only their own campaigns;
# scampaign --openmetrics parses strictly and its counts agree with squeue and the stats file.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
installed_scampaign=${WORK_DIR:-/var/tmp/slurm-campaign}/install/bin/scampaign
port=$((${CLUSTER_PORT_BASE:-17800} + 98))

start_ranked_cluster "policy=ostrich,calc_period=1,query_port=$port" --nodes 2 --cpus 8 \
	--conf "PrivateData=jobs"
socket=$("$localcluster" path munge-socket)

hold_cpus 16
one=$(submit camp1 -p batch -n 4 -t 1 --wrap "sleep 1")
submit camp1 -p batch -n 4 -t 1 --wrap "sleep 1" >/dev/null
submit camp2 -p batch -n 4 -t 1 --wrap "sleep 1" >/dev/null
submit camp3 -p hold -n 4 -t 1 --wrap "sleep 1" >/dev/null
sleep 3 # a ranking pass

echo "== sprio filters (root sees every job)"
check_equal "sprio lists all four pending jobs for root" 4 "$(sprio -h -o %i | wc -l)"
check_equal "sprio -j lists that job only" "$one" "$(sprio -h -j "$one" -o %i | tr -d ' ')"
check_equal "sprio -u camp1 lists camp1's two jobs only" "camp1 camp1" \
	"$(sprio -h -u camp1 -o %u | tr -d ' ' | sort | tr '\n' ' ' | sed 's/ $//')"
check_equal "sprio -p hold lists the hold job only" "hold" "$(sprio -h -p hold -o %r | tr -d ' ')"

echo "== PrivateData=jobs: a user sees only their own"
as_user() { runuser -u "$1" -- env SLURM_CONF="$SLURM_CONF" "${@:2}"; }
check_equal "camp2's sprio shows camp2's job only" "camp2" "$(as_user camp2 sprio -h -o %u | tr -d ' ')"
users_seen() { as_user "$1" "$installed_scampaign" --json | python3 -c '
import json, sys
print(" ".join(sorted({r["user"] for r in json.load(sys.stdin)["campaigns"]})))'; }
check_equal "camp1's scampaign shows camp1's campaigns only" "camp1" "$(users_seen camp1)"
check_equal "root's scampaign shows every user's" "camp1 camp2 camp3 camp8" "$(users_seen root)"

echo "== the channel refuses what it cannot authenticate"
ask() { # line -> first reply line
	local reply=""
	exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "no connection"; return; }
	printf '%s\n' "$1" >&3 2>/dev/null # an oversized request may be cut off mid-write
	IFS= read -r -t 5 reply <&3
	exec 3>&-
	echo "$reply"
}
refused() { grep -q '"ok": *false' <<<"$1" && grep -qi "$2" <<<"$1"; }
check "a request without a credential is refused" refused "$(ask '{"op":"campaigns"}')" 'munge\|credential'
credential=$(munge -S "$socket" -s '{"op":"campaigns"}')
first=$(ask "$credential")
check "a good credential is answered" grep -q '"campaigns"' <<<"$first"
check "the same credential replayed is refused" refused "$(ask "$credential")" 'replay'
expiring=$(munge -S "$socket" -t 1 -s '{"op":"campaigns"}')
sleep 3
check "an expired credential is refused" refused "$(ask "$expiring")" 'expired'
check "an unknown request is refused" \
	refused "$(ask "$(munge -S "$socket" -s '{"op":"drop_tables"}')")" 'unknown request'
oversized=$(head -c 100000 /dev/zero | tr '\0' 'x')
reply=$(ask "$oversized")
check "an oversized request gets an error or a closed connection ($reply)" \
	test -z "$reply" -o -n "$(grep -i 'too long\|size\|large' <<<"$reply")"
check "slurmctld is still up" ctld_ping
check "and scampaign still answers" grep -q camp1 <<<"$("$installed_scampaign" --json)"

echo "== scampaign --openmetrics: campaign and plan metrics, strictly parsed, agree with squeue"
# An OR'd dependency list is left out of the plan (a job waiting on one job alone is planned
# after its end), so the left-out count by reason has one to show.
waiting=$(submit camp2 -p batch -n 1 -t 1 --dependency="afterok:$blocker?afterany:$blocker" --wrap "sleep 1")
# A held job is not queued by Slurm at all: counted by its pending reason (JobHeldUser) from the
# pass's walk of the job list.
held=$(submit camp6 -p batch -H -n 1 -t 1 --wrap "sleep 1")
sleep 3 # passes that see it
exposition=$("$installed_scampaign" --openmetrics)
metrics=$(python3 "$(dirname "$0")/parse_openmetrics.py" <<<"$exposition")
check "the OpenMetrics exposition parses strictly" test -n "$metrics"
metric() { # NAME [LABEL=VALUE]: the sum of NAME's samples carrying that label
	python3 -c 'import json, sys
samples, name, label = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
print(int(sum(v for k, v in samples.items()
              if k.startswith(name + "{") and (not label or label in k[len(name):]))))' \
		"$metrics" "$1" "${2:-}"
}
# A job waiting for its dependency joins a campaign once eligible.
pending_of() { squeue -h -t PD -u "$1" -o %r | grep -cvx Dependency; }
for user in camp1 camp2 camp3; do
	check_equal "eligible pending jobs of $user as squeue counts them" "$(pending_of $user)" \
		"$(metric slurm_campaign_pending_jobs "user=$user,")"
done
campaigns_pending() { "$installed_scampaign" --json | python3 -c '
import json, sys
print(sum(1 for r in json.load(sys.stdin)["campaigns"] if r["user"] == sys.argv[1] and r["pending"]))' "$1"; }
check_equal "camp1's pending campaigns as scampaign --json lists them" \
	"$(campaigns_pending camp1)" "$(metric slurm_campaign_pending_campaigns user=camp1,)"
check "camp1's lag behind its virtual finish is given" \
	grep -q '^slurm_campaign_lag_seconds{user="camp1",domain="batch"} -\?[0-9]' <<<"$exposition"
check_equal "jobs left out for an OR'd dependency, as squeue's reasons count them" \
	"$(squeue -h -t PD -o %r | grep -cx Dependency)" \
	"$(metric slurm_campaign_jobs_left_out reason=DependencyOr)"
check_equal "starts refused, as campaign_sched_stats.json counts them" "$(sched_stat refused)" \
	"$(metric slurm_campaign_start_refusals_total)"
check_equal "jobs started, as campaign_sched_stats.json counts them" "$(sched_stat jobs_started)" \
	"$(metric slurm_campaign_jobs_started_total)"
check_equal "jobs left out unqueued (held), as squeue's reasons count them" \
	"$(squeue -h -t PD -o %r | grep -cx JobHeldUser)" \
	"$(metric slurm_campaign_jobs_left_out reason=JobHeldUser)"
check "plan cycles are counted" test "$(metric slurm_campaign_plan_cycles_total)" -ge 1
check "--prometheus names counter families with _total and has no # EOF" \
	eval '"$installed_scampaign" --prometheus | grep -q "^# TYPE slurm_campaign_plan_cycles_total counter" &&
		! "$installed_scampaign" --prometheus | grep -q "^# EOF"'
check "scampaign's table shows the left-out jobs by reason" \
	grep -q '^ *1  DependencyOr$' <<<"$("$installed_scampaign")"
check_equal "--json carries them too" 1 "$("$installed_scampaign" --json | python3 -c '
import json, sys
print(json.load(sys.stdin)["scheduler"]["left_out_last"].get("DependencyOr", 0))')"
check_equal "camp1's exposition names camp1 only among users" "camp1" \
	"$(as_user camp1 "$installed_scampaign" --openmetrics | grep -o 'user="[^"]*"' | sort -u |
		sed 's/user="\(.*\)"/\1/' | tr '\n' ' ' | sed 's/ $//')"
scancel "$waiting" "$held"

scancel "$blocker"
check "queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
