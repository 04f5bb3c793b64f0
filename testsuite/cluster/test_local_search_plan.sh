#!/usr/bin/env bash
# sched/campaign with its local search on (campaign_local_search=8, conservative): the search runs
# inside the pass, so passes that plan afresh have moves to try (planner_option_smoke in lib.sh:
# a bad value stops slurmctld naming the key; 16 jobs of four users behind reservations all
# start and end, with no error of ours). A search that ignores its cap, or throws, fails the
# start and error checks.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

planner_option_smoke campaign_local_search -1 campaign_local_search=8 \
	sched_interval=-1,defer,campaign_period=1,campaign_mode=conservative,campaign_local_search=8,campaign_local_search_ms=50
finish
