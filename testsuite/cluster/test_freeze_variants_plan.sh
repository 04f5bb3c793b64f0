#!/usr/bin/env bash
# sched/campaign with the freeze's two variants on (campaign_freeze_room=cap: frozen jobs leave
# the short-job room at its cap; campaign_freeze_skip_first=1: the first-ranked campaign's jobs
# are not frozen), under slurmctld's locks (planner_option_smoke in lib.sh: a bad value stops
# slurmctld naming the key; 16 jobs of four users that slip and freeze all start and end, with
# no error of ours).
set -uo pipefail
source "$(dirname "$0")/lib.sh"

planner_option_smoke campaign_freeze_skip_first -1 campaign_freeze_skip_first=1 \
	sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative,campaign_freeze_slip=1,campaign_freeze_room=cap,campaign_freeze_skip_first=1,campaign_short_room=0.25,campaign_short_limit=90
finish
