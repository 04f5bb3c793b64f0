#!/usr/bin/env bash
# sched/campaign with the freeze on (campaign_freeze_slip=1, conservative): reservations that slip
# more than a second are booked before the ranked walk on every later pass, under slurmctld's
# locks (planner_option_smoke in lib.sh: a bad value stops slurmctld naming the key; 16 jobs of
# four users behind reservations that the ranks reorder, so jobs slip and freeze, all start and
# end, with no error of ours).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

planner_option_smoke campaign_freeze_slip -1 campaign_freeze_slip=1 \
	sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative,campaign_freeze_slip=1,campaign_freeze_wide=0.25
finish
