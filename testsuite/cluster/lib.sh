# Shared helpers of the cluster tests, the benchmarks and the other shell tests (sourced): start/stop
# the local cluster, submit, wait, assert, measure. Every assertion prints what it expected and
# what it saw, and counts a failure; none is skipped. Sourcing starts nothing.

cluster_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
localcluster=$cluster_dir/localcluster
plugin_dir=${PLUGIN_DIR:-/var/tmp/slurm-campaign/plugins}
failures=0
checks=0
failed_checks=()

fail() {
	failures=$((failures + 1))
	failed_checks+=("$*")
	echo "  FAIL: $*"
}
pass() { echo "  ok: $*"; }

# check DESCRIPTION COMMAND...: the command's exit status decides.
check() {
	local what=$1
	shift
	checks=$((checks + 1))
	if "$@"; then pass "$what"; else fail "$what"; fi
}

# not COMMAND...: true when the command fails (for check, which runs its command as given).
not() { ! "$@"; }

# check_equal DESCRIPTION EXPECTED ACTUAL
check_equal() {
	checks=$((checks + 1))
	local shown=${3//$'\n'/; }
	if [ "$2" = "$3" ]; then pass "$1 (${shown:0:120})"; else fail "$1: expected '${2//$'\n'/; }', saw '$shown'"; fi
}

# launch_cluster ARGS...: localcluster start with our plugin dir (ARGS: --nodes N, --cpus C,
# --conf 'Key=Value'...); exports SLURM_CONF. False if it did not start.
launch_cluster() {
	"$localcluster" start --plugin-dir "$plugin_dir" "$@" || return 1
	eval "$("$localcluster" env)"
}

# start_cluster ARGS...: launch_cluster, or the test ends there; the cluster stops when it exits.
start_cluster() {
	launch_cluster "$@" || {
		echo "cluster did not start"
		exit 1
	}
	trap stop_cluster EXIT
}

# start_ranked_cluster PRIORITY_PARAMETERS [localcluster start options...]: both plugins, Slurm's
# main scheduler off (only sched/campaign starts jobs), and a partition "hold" over the same nodes,
# its own fairness domain, for jobs that keep CPUs busy. Later --conf lines override these.
start_ranked_cluster() {
	local parameters=$1
	shift
	# The scampaign channel on a port of this cluster's range, so clusters side by side
	# (CLUSTER_PORT_BASE) never share it.
	[[ $parameters == *query_port=* ]] ||
		parameters+=",query_port=$((${CLUSTER_PORT_BASE:-17800} + 99))"
	start_cluster --conf "PriorityType=priority/campaign" \
		--conf "PriorityParameters=$parameters" \
		--conf "SchedulerType=sched/campaign" \
		--conf "SchedulerParameters=sched_interval=-1,defer,campaign_period=1" \
		--conf "PartitionName=hold Nodes=ALL MaxTime=INFINITE State=UP" "$@"
}

# hold_cpus N: camp8 takes N CPUs in partition "hold" for ten minutes; sets `blocker` to the job
# id and checks that it runs.
hold_cpus() {
	blocker=$(submit camp8 -p hold -n "$1" -t 10 -J blocker --wrap "sleep 600")
	check "camp8 holds $1 CPUs in 'hold'" wait_until 20 job_state_is "$blocker" R
}

stop_cluster() {
	"$localcluster" stop >/dev/null 2>&1 || true
}

scampaign_bin=${BUILD_DIR:-$cluster_dir/../../build}/src/scampaign/scampaign
campsim_bin=${BUILD_DIR:-$cluster_dir/../../build}/src/sim/campsim
# A build outside <repo>/build (a worktree's own build directory) must be named: without this
# line the tests that call scampaign fail on "unreadable" with no word of why.
# (Said by cluster tests only: campsim's tests source this file for its checks alone.)
case $0 in
*/cluster/test_*)
	[ -x "$scampaign_bin" ] ||
		echo "lib.sh: no scampaign at $scampaign_bin: set BUILD_DIR to the build directory" >&2
	;;
esac

# campaign_field USER FIELD: FIELD of USER's campaign with pending jobs, as scampaign --json
# lists it ("none" if there is no such campaign).
campaign_field() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["campaigns"] if r["user"] == sys.argv[1] and r["pending"] > 0]
print(rows[0][sys.argv[2]] if rows else "none")
' "$1" "$2" 2>/dev/null || echo unreadable
}

# live_campaign USER: "id jobs" of USER's campaign with pending or running jobs (jobs = pending +
# running), as scampaign lists it; "none" if there is none.
live_campaign() {
	"$scampaign_bin" --json 2>/dev/null | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["campaigns"] if r["user"] == sys.argv[1] and r["pending"] + r["running"] > 0]
print("%d %d" % (rows[0]["campaign"], rows[0]["pending"] + rows[0]["running"]) if rows else "none")
' "$1" 2>/dev/null || echo unreadable
}

# check_campaign_times FIELD T0 USER:SECONDS...: each USER's campaign FIELD (virtual_finish,
# deadline) as scampaign lists it is T0 + SECONDS, to the listing's whole-second rounding.
check_campaign_times() {
	local field=$1 t0=$2 pair user want got
	shift 2
	for pair in "$@"; do
		user=${pair%%:*}
		want=${pair#*:}
		got=$(campaign_field "$user" "$field")
		if [[ $got =~ ^-?[0-9]+$ ]]; then
			got=$((got - t0))
			check "$field of $user is T0+$want (saw T0+$got, 1 s rounding allowed)" near "$got" "$want"
		else
			check "$field of $user is T0+$want (saw '$got')" false
		fi
	done
}

# check_sprio_agrees PARTITION: sprio's PRIORITY equals squeue %Q for every pending job there, and
# the factor columns (AGE: rank score, SITE: the rest) are non-zero.
check_sprio_agrees() {
	check_equal "sprio PRIORITY equals squeue %Q" "$(squeue -h -p "$1" -t PD -o '%i %Q' | sort -n)" \
		"$(sprio -h -p "$1" -o '%i %Y' | awk '{print $1, $2}' | sort -n)"
	check "AGE and SITE columns non-zero for every pending job" \
		awk '$2 == 0 || $3 == 0 { bad = 1 } END { exit bad }' <<<"$(sprio -h -p "$1" -o '%i %A %S')"
}

# near A B: |A - B| <= 1 (listings round to whole seconds).
near() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d >= -1 && d <= 1) }' 2>/dev/null; }

# pending_order PARTITION: pending job ids, highest priority first.
pending_order() { squeue -h -p "$1" -t PD -o '%Q %i' | sort -rn | awk '{print $2}' | tr '\n' ' '; }

# at_time EPOCH: --begin's format.
at_time() { date -d "@$1" +%Y-%m-%dT%H:%M:%S; }
# wait_for_second EPOCH: returns once the clock has reached EPOCH. Jobs that must enter one pass
# together are submitted with one --begin and waited for so: `scontrol release A,B` sends one RPC
# per job, and a pass may run between them.
wait_for_second() { while [ "$(date +%s)" -lt "$1" ]; do sleep 0.2; done; }

ctld_log() { "$localcluster" path ctld-log; }
ctld_pid() { cat "$("$localcluster" path dir)/run/slurmctld.pid"; }
state_dir() { "$localcluster" path state; }
# state_holds NAME: slurmctld's saved job_state holds a job of that name (names are packed as
# plain strings). A file newer than a submission proves nothing: a save packed before the job
# existed can reach the disk after its sbatch returned.
state_holds() { grep -qa -- "$1" "$(state_dir)/job_state"; }

# submit USER ARGS...: sbatch as USER (real uid switch), prints the job id.
submit() {
	local user=$1
	shift
	sbatch --uid="$user" --parsable -o /dev/null -D /tmp "$@"
}

# wait_until SECONDS COMMAND...: polls twice a second; false if it never held.
wait_until() {
	local seconds=$1 i
	shift
	for i in $(seq 1 $((seconds * 2))); do
		"$@" && return 0
		sleep 0.5
	done
	return 1
}

# job_state_is ID STATE: squeue's compact state (PD, R, CG...) of one job.
job_state_is() { [ "$(squeue -h -j "$1" -o %t 2>/dev/null)" = "$2" ]; }

ctld_ping() { scontrol ping 2>/dev/null | grep -q 'is UP'; }

# reconfigure_ctld: `scontrol reconfigure`, then wait until slurmctld answers again. Since 23.11
# slurmctld executes itself anew at a reconfigure, and scontrol may time out while the new process
# starts; the next command (a second reconfigure, an scancel) should go to a slurmctld that
# answers. (The 26.05 failures once put down to that timeout were a hang of ours:
# test_reconfigure_in_pass.)
reconfigure_ctld() {
	scontrol reconfigure || echo "  scontrol reconfigure got no answer in time; waiting for slurmctld"
	check "slurmctld answers after the reconfigure" wait_until 60 ctld_ping
}

queue_empty() { [ -z "$(squeue -h -o %i)" ]; }

# pending_count: jobs waiting in the queue.
pending_count() { squeue -h -t PD -o %i | wc -l; }

# Jobs the jobcomp log records as COMPLETED (squeue forgets them after MinJobAge).
completed_count() { grep -c 'JobState=COMPLETED' "$("$localcluster" path jobcomp)" 2>/dev/null || true; }

# job_completed ID: the jobcomp log records the job as COMPLETED.
job_completed() { grep -q "JobId=$1 .*JobState=COMPLETED" "$("$localcluster" path jobcomp)" 2>/dev/null; }

# jobcomp_nodes ID: the nodes the jobcomp log records for the job.
jobcomp_nodes() { sed -n "s/.*JobId=$1 .*NodeList=\([^ ]*\).*/\1/p" "$("$localcluster" path jobcomp)"; }

# names_include HOSTLIST NODE: NODE is one of HOSTLIST's nodes (n[1-4] style).
names_include() {
	[ -n "$1" ] && [ "$1" != "(null)" ] && scontrol show hostnames "$1" 2>/dev/null | grep -qx "$2"
}

# latency_while PID PAUSE_S COMMAND...: runs COMMAND while process PID lives, PAUSE_S seconds
# apart (0: back to back), so that some runs overlap the scheduler's passes; prints the median
# and max wall milliseconds and the number of runs.
latency_while() {
	local watched=$1 pause_s=$2 runs=() start
	shift 2
	while kill -0 "$watched" 2>/dev/null; do
		start=$(date +%s%N)
		"$@" >/dev/null 2>&1
		runs+=($((($(date +%s%N) - start) / 1000000)))
		[ "$pause_s" = 0 ] || sleep "$pause_s"
	done
	printf '%s\n' "${runs[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)], v[NR], NR }'
}

# sched_stat KEY: a counter from sched/campaign's published statistics file.
sched_stat() {
	sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$(state_dir)/campaign_sched_stats.json" 2>/dev/null
}

# two_passes [SECONDS]: waits (default 10 s) until sched/campaign has made two more passes, so
# that one began after now (the statistics are written at a pass's end).
two_passes() {
	local target=$(($(sched_stat passes) + 2))
	passes_reached() { [ "$(sched_stat passes)" -ge "$target" ]; }
	wait_until "${1:-10}" passes_reached
}

# Errors our plugins logged in slurmctld's log (or in LOG, e.g. the backup controller's); their
# worker threads' caught exceptions are logged under the thread's name (campsched, campprio).
plugin_errors() { grep -E 'error|fatal' "${1:-$(ctld_log)}" | grep -E '(priority|sched)[/_]campaign|camp(sched|prio): ' || true; }

finish() {
	# Failures again at the end: CI keeps only a test's last lines.
	[ "$failures" -eq 0 ] || printf '  failed: %s\n' "${failed_checks[@]}"
	echo "$(basename "$0" .sh): $checks checks, $failures failed"
	[ "$failures" -eq 0 ]
}

# Slurm's own records of a partition's jobs (scontrol, not the plugin) as a campsim job list:
# id, user, submit (= EligibleTime: when the core sees the job arrive), cpus, limit (s), and
# start/end where the job has run.
capture_job_list() { # partition file
	scontrol show job -o | python3 -c '
import sys, time
def epoch(text):
    return int(time.mktime(time.strptime(text, "%Y-%m-%dT%H:%M:%S")))
def seconds(limit):
    days, _, clock = limit.rpartition("-")
    parts = [int(p) for p in clock.split(":")]
    while len(parts) < 3:
        parts.insert(0, 0)
    return (int(days) if days else 0) * 86400 + parts[0] * 3600 + parts[1] * 60 + parts[2]
print("id,user,submit,cpus,limit,start,end")
for line in sys.stdin:
    fields = dict(item.split("=", 1) for item in line.split() if "=" in item)
    if fields.get("Partition") != sys.argv[1]:
        continue
    state = fields["JobState"]
    start = end = ""
    if state in ("RUNNING", "COMPLETED", "COMPLETING"):
        start = str(epoch(fields["StartTime"]))
    if state == "COMPLETED":
        end = str(epoch(fields["EndTime"]))
    print(",".join([fields["JobId"], fields["UserId"].split("(")[0],
                    str(epoch(fields["EligibleTime"])), fields["NumCPUs"],
                    str(seconds(fields["TimeLimit"])), start, end]))
' "$1" >"$2"
}

# The order campsim's core gives the pending jobs of a partition of `cpus` CPUs when fed the
# events captured from Slurm (capture_job_list), as "id id ... " like pending_order.
campsim_order() { # partition cpus core-policy
	local list now
	list=$("$localcluster" path dir)/captured-$1.csv
	now=$(date +%s)
	capture_job_list "$1" "$list"
	"$campsim_bin" rank --jobs "$list" --cpus "$2" --at "$now" --rank-policy "$3" | tr '\n' ' '
}

# check_head_not_starved HEAD_JOB PUBLISHED SMALL_JOB...: after the queue drained, at least 10
# of the small jobs ended before the head job started, and the head job started no later than
# the start published for it (`squeue --start` when it reached the head).
check_head_not_starved() {
	local head_job=$1 published=$2 jobcomp head_start backfilled=0 id
	shift 2
	jobcomp=$("$localcluster" path jobcomp)
	epoch() { date -d "$1" +%s; }
	field() { grep "^JobId=$1 " "$jobcomp" | sed -n "s/.* $2=\([^ ]*\).*/\1/p"; }
	head_start=$(epoch "$(field "$head_job" StartTime)")
	for id in "$@"; do
		[ "$(epoch "$(field "$id" EndTime)")" -le "$head_start" ] && backfilled=$((backfilled + 1))
	done
	echo "  $backfilled small jobs ended before the head job started at $(field "$head_job" StartTime)"
	check "at least 10 small jobs backfilled and finished before the head job started" \
		test "$backfilled" -ge 10
	check "the head job started no later than its published start ($published)" \
		test "$head_start" -le "$(epoch "$published")"
}

# planner_smoke_left: what planner_option_smoke's jobs still in the queue wait for, so that a
# failure says where they stood (the lane's cluster directory is reused by the next test).
planner_smoke_left() {
	local left
	left=$(squeue -h -u camp1,camp2,camp3,camp4 -o %i | paste -sd, -)
	echo "  left in the queue (id name state reason published start):"
	squeue -h -j "$left" --start -o '    %i %j %T %r %S' 2>/dev/null
	echo "  sched/campaign statistics: $(cat "$(state_dir)/campaign_sched_stats.json" 2>/dev/null)"
	grep -E "JobId=(${left//,/|})[^0-9]" "$(ctld_log)" | tail -n 20 | sed 's/^/    /'
}

# planner_option_smoke KEY BAD_VALUE LISTED PARAMETERS: the smoke test of a planner option that
# runs inside sched/campaign's pass, under slurmctld's locks (test_local_search_plan,
# test_freeze_plan). KEY=BAD_VALUE stops slurmctld at start-up with an error naming KEY; then,
# with SchedulerParameters PARAMETERS (scontrol show config lists LISTED) on 2 nodes of 4 CPUs
# held half busy, 16 jobs of four users (1-4 CPUs, 5-15 s, limits 1-3 min) queue up behind
# reservations that the ranks reorder: every job starts and ends, and slurmctld stays up with no
# error of ours.
planner_option_smoke() {
	local key=$1 bad=$2 listed=$3 parameters=$4
	trap stop_cluster EXIT
	checks=$((checks + 1))
	if "$localcluster" start --plugin-dir "$plugin_dir" --conf "SchedulerType=sched/campaign" \
		--conf "SchedulerParameters=$key=$bad" >/dev/null 2>&1; then
		fail "$key=$bad: slurmctld started"
	else
		local message
		message=$(grep -E 'error: sched/campaign: ' "$(ctld_log)" | grep -F "$key" | head -n 1)
		if [ -n "$message" ]; then pass "$key=$bad refused: ${message#*error: }"; else
			fail "$key=$bad refused, but no error of ours names the key in $(ctld_log)"
		fi
	fi
	stop_cluster

	start_ranked_cluster policy=faircamp,calc_period=1 --nodes 2 --cpus 4 \
		--conf "SchedulerParameters=$parameters"
	check "scontrol show config lists $listed" \
		grep -q "$listed" <<<"$(scontrol show config | grep -i '^SchedulerParameters')"
	local node i
	for node in n1 n2; do
		submit camp8 -p hold -w "$node" -n 2 -t 1 -J holder --wrap "sleep 20" >/dev/null
	done
	local jobs=()
	for i in $(seq 0 15); do
		jobs+=("$(submit "camp$((i % 4 + 1))" -n $((i % 4 + 1)) -t $((i % 3 + 1)) -J "j$i" \
			--wrap "sleep $((5 + i % 3 * 5))")")
	done
	all_done() { [ -z "$(squeue -h -u camp1,camp2,camp3,camp4 -o %i)" ]; }
	local drained=0
	wait_until 150 all_done && drained=1
	check "all 16 jobs start and end (within 150 s)" test $drained = 1
	[ $drained = 1 ] || planner_smoke_left
	local ended=0 job
	for job in "${jobs[@]}"; do job_completed "$job" && ended=$((ended + 1)); done
	check_equal "the jobcomp log has all 16 completed" 16 "$ended"
	check_equal "no errors from our plugins" "" "$(plugin_errors)"
	check "slurmctld is up" ctld_ping
}
