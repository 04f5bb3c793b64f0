#!/usr/bin/env bash
# The trial workflow keeps the campaigns: with shadow=yes the plugin ranks without applying; turning
# shadow off (or changing calc_period) at `scontrol reconfigure` keeps every campaign and its
# virtual times, because only the policy's own keys are the core's identity. scampaign reads
# query_port=0 as "the channel is off".
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# MinJobAge=2: Slurm forgets ended jobs soon, so only the plugin's own state still knows them (a
# state rebuilt from Slurm's job table would not).
start_ranked_cluster policy=ostrich,calc_period=1,shadow=yes --nodes 2 --cpus 8 \
	--conf "SlurmctldDebug=verbose" --conf "MinJobAge=2"
conf=$("$localcluster" path conf)

hold_cpus 12 # 4 CPUs free in batch: 4-CPU jobs run, 8-CPU jobs wait
done_job=$(submit camp1 -p batch -n 4 -t 1 --wrap "sleep 2")
for user in camp1 camp2 camp3; do
	for limit in 3 7; do submit "$user" -p batch -n 8 -t "$limit" --wrap "sleep 1" >/dev/null; done
	sleep 2 # campaigns open at different times: different virtual times
done
check "camp1's first job completed" wait_until 30 job_completed "$done_job"
forgotten() { ! scontrol show job "$done_job" >/dev/null 2>&1; }
check "Slurm forgot it (MinJobAge)" wait_until 90 forgotten

# Each pending campaign as "user id pending done virtual_start virtual_finish", sorted.
pending_campaigns() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["campaigns"] if r["pending"] > 0]
for r in sorted(rows, key=lambda r: (r["user"], r["campaign"])):
    print(r["user"], r["campaign"], r["pending"], r["done"], r["virtual_start"], r["virtual_finish"])
' 2>/dev/null || echo unreadable
}
three_pending() { [ "$(pending_campaigns | grep -c '^camp[123] ')" -eq 3 ]; }
check "three pending campaigns ranked under shadow=yes" wait_until 15 three_pending
before=$(pending_campaigns)
echo "  campaigns: ${before//$'\n'/; }"

# reconfigure EXPRESSION LOG-PATTERN: edit PriorityParameters, reconfigure, wait for the plugin
# to apply it and for two more passes.
reconfigure() {
	sed -i "/^PriorityParameters=/ s/$1/" "$conf"
	reconfigure_ctld
	check "the plugin applied '$1'" wait_until 15 grep -q "priority/campaign: parameters .*$2" "$(ctld_log)"
	sleep 3
}

echo "== shadow off"
reconfigure "shadow=yes/shadow=no" "shadow=no"
check_equal "campaigns and virtual times unchanged after shadow=no" "$before" "$(pending_campaigns)"
echo "== calc_period changed"
reconfigure "calc_period=1/calc_period=2" "calc_period=2"
check_equal "campaigns and virtual times unchanged after calc_period=2" "$before" "$(pending_campaigns)"
check "the campaign state was never rebuilt" \
	test -z "$(grep 'campaign state rebuilt' "$(ctld_log)")"

echo "== scampaign with query_port=0"
off_conf=$("$localcluster" path dir)/slurm-query-off.conf
sed '/^PriorityParameters=/ s/query_port=[0-9]*/query_port=0/' "$conf" >"$off_conf"
off_reply=$(SLURM_CONF=$off_conf "$scampaign_bin" 2>&1)
check "scampaign says the channel is off ($off_reply)" grep -q "channel is off" <<<"$off_reply"

scancel "$blocker"
check "queue drains within 60 s" wait_until 60 queue_empty
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
