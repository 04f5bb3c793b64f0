#!/usr/bin/env bash
# priority/campaign across a slurmctld crash: `kill -9` mid-workload, after the finished job of a
# campaign has been purged from Slurm (small MinJobAge), then restart. Campaign membership and the
# order must come back from our state file, and every job completes. The same run with the state
# file deleted before the restart must show the loss, proving the comparison can fail.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# camp1's campaign as scampaign lists it: "id done pending", or "none".
campaign_of() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["campaigns"] if r["user"] == sys.argv[1] and r["pending"] > 0]
print(" ".join(str(rows[0][k]) for k in ("campaign", "done", "pending")) if rows else "none")
' "$1" 2>/dev/null || echo "unreadable"
}
purged() { ! scontrol show job "$1" >/dev/null 2>&1; }

# scenario keep|delete: runs the workload, crashes slurmctld, and compares before and after.
# Prints three lines: "same" when membership and order came back (else what differed), camp1's
# campaign before the crash ("id done pending"), and the number of jobs completed.
scenario() {
	local mode=$1
	start_ranked_cluster policy=ostrich,calc_period=1 --nodes 4 --cpus 8 \
		--conf "MinJobAge=2" >/dev/null
	local blocker a1 a2 b1
	blocker=$(submit camp8 -p hold -n 24 -t 10 -J blocker --wrap "sleep 600")
	wait_until 20 job_state_is "$blocker" R || echo "blocker did not start" >&2
	# camp1's campaign: a1 runs (8 free CPUs) while a2 joins it; a2 then waits for 16 CPUs.
	a1=$(submit camp1 -p batch -n 8 -t 1 -J a1 --wrap "sleep 4")
	wait_until 20 job_state_is "$a1" R || echo "a1 did not start" >&2
	a2=$(submit camp1 -p batch -n 16 -t 2 -J a2 --wrap "sleep 1")
	wait_until 60 purged "$a1" || echo "a1 not purged within 60 s" >&2
	# A submission after the purge makes slurmctld save its job_state without a1, so the
	# restarted slurmctld does not bring a1 back: only our state file remembers it.
	b1=$(submit camp2 -p batch -n 16 -t 1 -J b1_after_purge --wrap "sleep 1")
	# slurmctld saves job_state in the background, coalescing requests (up to 5 s): wait until
	# the file holds b1 (a newer file did not: a CI run lost b1 that way).
	wait_until 30 state_holds b1_after_purge || echo "job_state without b1" >&2
	sleep 2 # our passes after it
	local before_campaign before_order
	before_campaign=$(campaign_of camp1)
	before_order=$(pending_order batch)
	echo "  before the crash: camp1 campaign (id done pending) $before_campaign; order $before_order" >&2

	local pid
	pid=$(ctld_pid)
	kill -9 "$pid"
	wait_until 10 sh -c "! kill -0 $pid 2>/dev/null"
	[ "$mode" = delete ] && rm -f "$(state_dir)/campaign_priority_state.json"
	"$localcluster" restart-ctld >/dev/null
	sleep 4 # nodes re-register, a pass runs
	local after_campaign after_order
	after_campaign=$(campaign_of camp1)
	after_order=$(pending_order batch)
	echo "  after the restart ($mode state): camp1 campaign $after_campaign; order $after_order" >&2
	if [ "$before_campaign" = "$after_campaign" ] && [ "$before_order" = "$after_order" ]; then
		echo same
	else
		echo "campaign '$before_campaign' -> '$after_campaign', order '$before_order' -> '$after_order'"
	fi
	echo "$before_campaign"
	scancel "$blocker"
	wait_until 120 queue_empty || echo "queue did not drain" >&2
	completed_count
}

echo "== crash and restart with the state file kept"
mapfile -t kept < <(scenario keep)
check_equal "campaign membership and order come back" same "${kept[0]}"
check "before the crash camp1's campaign counted the purged a1 as done, a2 pending (${kept[1]})" \
	grep -qE '^[0-9]+ 1 1$' <<<"${kept[1]}"
check_equal "every job completed (blocker cancelled: 3 of 4)" 3 "${kept[2]}"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"

echo "== the same crash with the state file deleted: the comparison must see the loss"
mapfile -t deleted < <(scenario delete)
check "membership or order differ without the state file (${deleted[0]})" test "${deleted[0]}" != same
check_equal "every job still completed" 3 "${deleted[2]}"

finish
