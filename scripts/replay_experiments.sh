#!/usr/bin/env bash
# Issue 17 point 2's replay experiments, one command each (doc/replay-results.md):
#
#   scripts/replay_experiments.sh WINDOW SETUP [RUN]
#   scripts/replay_experiments.sh list
#
# WINDOW is one of the fixed workloads below (trace window or generator, compression, cluster),
# SETUP one of replay.py's a|b|c|d, or c-roomP: c with sched/campaign's room for short jobs, P
# percent of the CPUs (campaign_short_room=P/100) kept from jobs with limits over one minute
# (campaign_short_limit=60 replay s: after the rounding to whole minutes, every limit up to 5
# trace hours at 300x; doc/replay-results.md). Run 1 makes the job list with campsim
# replay-plan; a later RUN repeats run 1's bundle (replay.py --rerun: the same jobs, slurm.conf
# and cluster), so that runs differ only by the real cluster's timing. The bundle is
# RESULTS_DIR/WINDOW-SETUP-rRUN.
# scripts/replay_report.py RESULTS_DIR then makes the table and one PNG per window.
#
# Env: RESULTS_DIR (default /var/tmp/replay-results); TRACE_DIR (default the repository's
# data/traces); replay.py's CLUSTER_DIR, CLUSTER_PORT_BASE, PLUGIN_DIR, BUILD_DIR or CAMPSIM.
# Root only, as replay.py. Not a test: each run takes its window's length plus ~3 minutes.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS_DIR:-/var/tmp/replay-results}
traces=${TRACE_DIR:-$repo/data/traces}

# window_arguments WINDOW: replay.py's workload, compression and cluster for WINDOW.
# The windows' loads and why these were chosen are in doc/replay-results.md.
window_arguments() {
	case $1 in
	egee)
		# LPC-EGEE (140 CPUs): 587 jobs of 16 users over 15.7 trace hours, the heaviest user
		# 78 % of the CPU time; at 150x.
		echo --swf "$traces/LPC-EGEE-2004-1.2-cln.swf.gz" --from 21933636 --to 21990074 \
			--compress 150
		;;
	sdsc)
		# SDSC-SP2 (128 CPUs): 400 jobs of 35 users over 42.4 trace hours, the heaviest user
		# 20 % of the CPU time; at 300x.
		echo --swf "$traces/SDSC-SP2-1998-4.2-cln.swf.gz" --from 31318813 --to 31471382 \
			--compress 300
		;;
	ostrich)
		# The OStrich paper's two profiles (m = 64), 10 users (5 short, 5 long; 8 own a
		# campaign in the first 1,000 jobs), closed loop unrolled by replay-plan; at 300x.
		echo --generate ostrich-profiles --users 10 --seed 1 --job-count 1000 --compress 300
		;;
	*) return 1 ;;
	esac
}

windows="egee sdsc ostrich"
usage() {
	echo "usage: $0 WINDOW SETUP [RUN]   (WINDOW: ${windows// /|}; SETUP: a|b|c|d|c-roomP;" \
		"RUN: 1, 2, ...)" >&2
	echo "       $0 list" >&2
	exit 2
}

[ $# -ge 1 ] || usage
if [ "$1" = list ]; then
	for window in $windows; do
		echo "$window: scripts/replay.py $(window_arguments "$window") --nodes 16 --node-cpus 32"
	done
	exit 0
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then usage; fi
window=$1 setup=$2 run=${3:-1}
arguments=$(window_arguments "$window") || {
	echo "$0: unknown window '$window' (one of: $windows)" >&2
	exit 2
}
setup_options="--setup $setup"
case $setup in
a | b | c | d) ;;
c-room*)
	percent=${setup#c-room}
	if ! [[ $percent =~ ^[1-9][0-9]?$ ]] || [ "$percent" -gt 50 ]; then
		echo "$0: setup '$setup': c-roomP takes a percent P of the CPUs from 1 to 50" >&2
		exit 2
	fi
	setup_options="--setup c --short-room $(printf '0.%02d' "$percent") --short-limit 60"
	;;
*)
	echo "$0: unknown setup '$setup' (one of: a b c d c-roomP)" >&2
	exit 2
	;;
esac
[[ $run =~ ^[1-9][0-9]*$ ]] || {
	echo "$0: RUN '$run' is not a run number (1, 2, ...)" >&2
	exit 2
}

mkdir -p "$results"
bundle=$results/$window-$setup-r$run
if [ "$run" = 1 ]; then
	# shellcheck disable=SC2086 # the window's and set-up's arguments are words without spaces
	exec python3 "$repo/scripts/replay.py" $arguments $setup_options --nodes 16 \
		--node-cpus 32 --out "$bundle"
fi
first=$results/$window-$setup-r1
[ -f "$first/parameters.json" ] || {
	echo "$0: run $run repeats $first, which is not a finished bundle: run 1 first" >&2
	exit 2
}
exec python3 "$repo/scripts/replay.py" --rerun "$first" --out "$bundle"
