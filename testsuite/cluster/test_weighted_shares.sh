#!/usr/bin/env bash
# shares=weighted: a user's OStrich weight is its share of the cluster in the association tree.
# camp5 (account biology, Fairshare 10) opens a campaign a second before camp1 (physics, 30),
# both the same work: with equal shares camp5's would finish first in the virtual schedule; with
# physics three times biology's share camp1's finishes first; once an administrator raises
# biology to 90, camp5's finishes first again.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

start_ranked_cluster policy=ostrich,calc_period=1,shares=weighted --nodes 2 --cpus 4 --accounting --fresh-db
hold_cpus 8
biology=$(submit camp5 -p batch -n 4 -t 30 --wrap true)
sleep 1
physics=$(submit camp1 -p batch -n 4 -t 30 --wrap true)
ahead() { [ "$(squeue -h -j "$1" -o %Q)" -gt "$(squeue -h -j "$2" -o %Q)" ]; }
check "physics (30 of 40 shares) ranks ahead of biology (10) though it came later" \
	wait_until 15 ahead "$physics" "$biology"
echo "  virtual finish: camp1 $(campaign_field camp1 virtual_finish), camp5 $(campaign_field camp5 virtual_finish)"
sacctmgr -i modify account biology set fairshare=90 >/dev/null
check "biology raised to 90 of 120: camp5 ranks ahead" wait_until 30 ahead "$biology" "$physics"
echo "  virtual finish: camp1 $(campaign_field camp1 virtual_finish), camp5 $(campaign_field camp5 virtual_finish)"
check "slurmctld is up" ctld_ping
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
