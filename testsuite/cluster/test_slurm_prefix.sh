#!/usr/bin/env bash
# localcluster runs the Slurm installed under SLURM_PREFIX (default /usr, Debian's): its daemons,
# its commands first in PATH, its own plugins (Slurm's priority/multifactor and sched/backfill
# here, none of ours), and with its own slurmdbd when it has one. Jobs run and accounting sees
# them. scripts/test-releases.sh runs it for each release it builds; after a release, Debian's
# Slurm starts in the same directory without a stop between.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

prefix=$(realpath -m "${SLURM_PREFIX:-/usr}")
release=$("$prefix/sbin/slurmctld" -V | awk '{print $2}')
accounting=()
[ -x "$prefix/sbin/slurmdbd" ] && accounting=(--accounting)
echo "== Slurm $release from $prefix, ${accounting[*]:-without slurmdbd (no $prefix/sbin/slurmdbd)}"
"$localcluster" start --slurm "$prefix" --nodes 2 --cpus 4 "${accounting[@]}" \
	--conf "PriorityType=priority/multifactor" --conf "SchedulerType=sched/backfill" || {
	echo "cluster did not start"
	exit 1
}
trap stop_cluster EXIT
eval "$("$localcluster" env)"
run=$("$localcluster" path dir)/run
quiet() { "$@" >/dev/null; }

echo "== the cluster's daemons and commands are the prefix's"
check_equal "the recorded prefix" "$prefix" "$("$localcluster" path slurm-prefix)"
# Debian's daemons are links (slurmctld -> slurmctld-wlm): the process runs the link's target.
check_equal "slurmctld runs $prefix/sbin/slurmctld" "$(realpath "$prefix/sbin/slurmctld")" \
	"$(readlink "/proc/$(cat "$run/slurmctld.pid")/exe")"
check_equal "slurmd n1 runs $prefix/sbin/slurmd" "$(realpath "$prefix/sbin/slurmd")" \
	"$(readlink "/proc/$(cat "$run/slurmd.n1.pid")/exe")"
[ ${#accounting[@]} -eq 0 ] || check_equal "slurmdbd runs $prefix/sbin/slurmdbd" "$(realpath "$prefix/sbin/slurmdbd")" \
	"$(readlink "/proc/$(cat "$run/slurmdbd.pid")/exe")"
for command in sbatch squeue scontrol sprio sshare; do
	check_equal "$command comes from $prefix/bin through PATH" "$prefix/bin/$command" "$(command -v "$command")"
done
check_equal "scontrol -V is the release's" "$release" "$(scontrol -V | awk '{print $2}')"
plugin_dir=$(sed -n 's/^PluginDir=//p' "$SLURM_CONF")
check "slurmctld mapped priority_multifactor.so from the prefix's PluginDir ($plugin_dir)" \
	grep -q "$plugin_dir/priority_multifactor.so" "/proc/$(cat "$run/slurmctld.pid")/maps"
check "slurmctld mapped sched_backfill.so from there" \
	grep -q "$plugin_dir/sched_backfill.so" "/proc/$(cat "$run/slurmctld.pid")/maps"
# A key the release renamed or dropped would be logged at start-up.
check_equal "slurmctld logged no complaint about slurm.conf" "" \
	"$(grep -iE 'unknown|deprecat|obsolete|invalid|not recognized' "$(ctld_log)")"

echo "== jobs of two users run, sprio and sshare answer"
jobs=()
for user in camp1 camp2 camp1 camp2 camp1 camp2; do
	jobs+=("$(submit "$user" -n 2 -t 1 --wrap "sleep 2")")
done
check_equal "six jobs queued" 6 "${#jobs[@]}"
check "sprio answers" quiet sprio -h
check "sshare answers" quiet sshare -h
check "the queue drains within 60 s" wait_until 60 queue_empty
check_equal "jobs completed (jobcomp)" 6 "$(completed_count)"
# all_recorded: slurmdbd holds the six jobs as COMPLETED.
all_recorded() {
	[ "$(sacct -n -X -P -o state -j "$(IFS=, && echo "${jobs[*]}")" 2>/dev/null | grep -c '^COMPLETED$')" = 6 ]
}
[ ${#accounting[@]} -eq 0 ] || check "slurmdbd records the six jobs COMPLETED (sacct) within 30 s" \
	wait_until 30 all_recorded

if [ "$prefix" != /usr ]; then
	# localcluster reads the running cluster's prefix first (to stop it) and once put that
	# prefix's commands first in PATH for good: Debian's cluster started next then answered no
	# ping from the release's scontrol, and the start failed.
	echo "== Debian's Slurm started next in the same directory, without a stop between"
	debian=$("$localcluster" start --slurm /usr --nodes 1 --cpus 2 2>&1)
	check "it starts (${debian##*$'\n'})" grep -q "^localcluster: up: .* Slurm .* from /usr," <<<"$debian"
	check_equal "the recorded prefix is /usr" /usr "$("$localcluster" path slurm-prefix)"
	check_equal "slurmctld runs Debian's" "$(realpath /usr/sbin/slurmctld)" \
		"$(readlink "/proc/$(cat "$run/slurmctld.pid")/exe")"
	check "Debian's scontrol reaches it" eval '/usr/bin/scontrol ping | grep -q "is UP"'
fi

echo "== stop leaves nothing of the prefix running"
"$localcluster" stop >/dev/null 2>&1
check_equal "no daemon is left" "" "$("$localcluster" status)"
check_equal "no pid file is left" "" "$(ls "$run"/*.pid 2>/dev/null)"
finish
