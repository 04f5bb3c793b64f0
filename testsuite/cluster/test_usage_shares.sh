#!/usr/bin/env bash
# Usage-aware OStrich shares (usage_halflife_s > 0) follow the association usage sshare shows.
# camp1 runs 8 CPUs for 30 s, so its RawUsage is about 240 and camp2's 0 (both in physics, equal
# Fairshare). camp1 then opens a campaign a second before camp2, both the same work: camp2's ranks
# ahead, as the man page states (more usage, a smaller share of the virtual schedule). Raising
# camp1's Fairshare (shares=weighted) outweighs its usage and camp1 leads; back at 1, both
# campaigns are cancelled and camp1's RawUsage is reset with sacctmgr: new campaigns, camp1's a
# second first again, and camp1 now leads. The core's own accrual still holds camp1's 240
# CPU-seconds, so this last order shows that the plugin feeds the association's usage.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1,shares=weighted,usage_halflife_s=3600,usage_weight=1 \
	--nodes 2 --cpus 4 --accounting --fresh-db --conf "PriorityCalcPeriod=1"

raw_usage() { # user: RawUsage of the user's physics association, as sshare prints it
	sshare -n -P -a -o account,user,rawusage 2>/dev/null |
		awk -F'|' -v u="$1" '{ gsub(/^ +/, "", $1) } $1 == "physics" && $2 == u { print $3 }'
}
usage_above() { [ "$(raw_usage "$1")" -gt "$2" ] 2>/dev/null; }
usage_is() { [ "$(raw_usage "$1")" = "$2" ]; }
ahead() { [ "$(squeue -h -j "$1" -o %Q)" -gt "$(squeue -h -j "$2" -o %Q)" ]; }
ranked() { [ "$(campaign_field "$1" campaign)" != none ]; }
# stays SECONDS COMMAND...: the command holds at every poll for SECONDS (not only once).
stays() {
	local seconds=$1 i
	shift
	for ((i = 0; i < seconds * 2; i++)); do
		"$@" || return 1
		sleep 0.5
	done
}
# campaigns: camp1's job, then a second later camp2's, the same work; sets first and second, and
# waits for a pass that ranked camp2's (a job submitted between passes sits below every ranked one
# until then: camp1's would be ahead whatever its usage).
campaigns() {
	first=$(submit camp1 -p batch -n 4 -t 30 --wrap true)
	sleep 1
	second=$(submit camp2 -p batch -n 4 -t 30 --wrap true)
	check "both campaigns ranked" wait_until 15 ranked camp2
}

echo "== camp1 uses 8 CPUs for 30 s: its association is charged"
load=$(submit camp1 -p batch -n 8 -t 2 --wrap "sleep 30")
check "camp1's load job completed" wait_until 60 job_completed "$load"
check "camp1's RawUsage (sshare) charged: $(raw_usage camp1) (8 CPUs x 30 s = 240)" \
	wait_until 10 usage_above camp1 200
check_equal "camp2's RawUsage" 0 "$(raw_usage camp2)"
hold_cpus 8

echo "== camp1 (RawUsage ~240) and camp2 (0) open equal campaigns, camp1 first"
campaigns
check "camp2 (no usage) ranks ahead of camp1 though it came later" \
	wait_until 15 ahead "$second" "$first"
echo "  virtual finish: camp1 $(campaign_field camp1 virtual_finish), camp2 $(campaign_field camp2 virtual_finish)"
sacctmgr -i modify user camp1 set fairshare=20 >/dev/null
check "camp1's Fairshare raised to 20 of 23: camp1 ranks ahead despite its usage" \
	wait_until 15 ahead "$first" "$second"
echo "  virtual finish: camp1 $(campaign_field camp1 virtual_finish), camp2 $(campaign_field camp2 virtual_finish)"
sacctmgr -i modify user camp1 set fairshare=1 >/dev/null
scancel "$first" "$second"
check "both campaigns cancelled" wait_until 15 not ranked camp1

echo "== camp1's RawUsage reset to 0 (sacctmgr); equal campaigns again, camp1 first"
sacctmgr -i modify user where name=camp1 account=physics set RawUsage=0 >/dev/null
check "camp1's RawUsage is 0" wait_until 15 usage_is camp1 0
campaigns
check "camp1 (usage reset, came first) ranks ahead of camp2 and stays there" \
	stays 5 ahead "$first" "$second"
echo "  virtual finish: camp1 $(campaign_field camp1 virtual_finish), camp2 $(campaign_field camp2 virtual_finish)"
check "slurmctld is up" ctld_ping
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
