#!/usr/bin/env bash
# Runs cluster tests in LANES lanes side by side. The tests mostly wait on real jobs, so two
# clusters share this 2-core machine without slowing each other much. Each lane has its own
# cluster directory and port range (CLUSTER_DIR, CLUSTER_PORT_BASE) and takes the next test from
# one queue, longest first, so the lanes end close together.
#
#   run_lanes.sh RESULTS COMMAND...   each COMMAND is "NAME=SHELL COMMAND LINE"
#
# A test's output is printed whole when it ends (lanes never interleave their lines), then
# "NAME STATUS SECONDS" goes to RESULTS, in the order the tests ended. A test past TEST_TIMEOUT
# seconds (default 1200) is stopped and fails; every daemon of a lane's clusters is stopped by
# pid file after each test; a test's kept diagnostics (KEEP_DIAGNOSTICS) go to
# WORK_DIR/diagnostics/NAME. Env: WORK_DIR (default /var/tmp/slurm-campaign), LANES (default 2),
# LANE_PORT_BASE (default 17800; lane i uses BASE + 1000 i).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
lanes=${LANES:-2}
port_base=${LANE_PORT_BASE:-17800}
timeout_s=${TEST_TIMEOUT:-1200}
results=$1
shift
[[ $lanes =~ ^[1-9][0-9]*$ ]] || {
	echo "run_lanes: LANES '$lanes': a whole number of at least 1" >&2
	exit 2
}

queue=$work/lanes/queue
mkdir -p "$work/lanes"
printf '%s\n' "$@" >"$queue"
echo 0 >"$queue.next"
: >"$results"
# Clusters started side by side would race in useradd.
"$here/localcluster" make-users

# next_test: the next line of the queue, or nothing when it is empty (one lane at a time).
next_test() {
	(
		flock 9
		local index
		index=$(cat "$queue.next")
		echo $((index + 1)) >"$queue.next"
		sed -n "$((index + 1))p" "$queue"
	) 9>"$queue.lock"
}

stop_lane_clusters() { # lane directory
	local cluster
	for cluster in "$1"/cluster*; do
		[ -d "$cluster" ] && CLUSTER_DIR=$cluster "$here/localcluster" stop >/dev/null 2>&1
	done
	return 0
}

run_lane() { # lane number
	local lane=$1 entry name command started status
	local lane_dir=$work/lanes/lane$lane
	mkdir -p "$lane_dir"
	while entry=$(next_test) && [ -n "$entry" ]; do
		name=${entry%%=*}
		command=${entry#*=}
		started=$(date +%s)
		# A test that keeps diagnostics of a failure (KEEP_DIAGNOSTICS) keeps them here, for
		# the next look after CI (the test's own directory goes when it ends).
		rm -rf "$work/diagnostics/$name"
		KEEP_DIAGNOSTICS=$work/diagnostics/$name CLUSTER_DIR=$lane_dir/cluster CLUSTER_PORT_BASE=$((port_base + 1000 * (lane - 1))) \
			timeout --kill-after=30 "$timeout_s" bash -c "$command" >"$work/$name.out" 2>&1
		status=$?
		[ "$status" -ne 124 ] || echo "run_lanes: $name stopped after $timeout_s s" >>"$work/$name.out"
		stop_lane_clusters "$lane_dir"
		(
			flock 9
			echo "== $name (lane $lane, $(($(date +%s) - started)) s, ended $(date +%T))"
			cat "$work/$name.out"
			echo "$name $status $(($(date +%s) - started))" >>"$results"
		) 9>"$queue.lock"
	done
}

pids=()
for lane in $(seq 1 "$lanes"); do
	run_lane "$lane" &
	pids+=($!)
done
wait "${pids[@]}"
