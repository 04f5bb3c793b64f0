#!/usr/bin/env bash
# Slurm's own expect regression tests, twice on the same local cluster shape: once with Slurm's
# default plugins (priority/basic, sched/backfill), once with ours (priority/campaign,
# sched/campaign), on two clusters side by side. Prints one line per test with both results.
# Fails when a test that passes with Slurm's plugins does not pass with ours, unless
# testsuite/slurm/known-differences.txt lists it with the reason (a documented difference).
# A test that fails is run once more in its column; a pass then counts, printed as a flake.
#
#   run_slurm_suite.sh [--list ci|long|all] [--tests 'test3.4 test17.23'] [--source TREE]
#                      [--only slurm|campaign]   (one column, no comparison: for debugging)
#
# TREE is the Slurm source tree of the installed release (default: the one
# build-aux/fetch-slurm-source.sh fetches for the installed slurmctld); its testsuite is copied,
# never changed. Env: WORK_DIR (default /var/tmp/slurm-campaign), PLUGIN_DIR (our plugins),
# SUITE_PORT_BASE (default 16600: the two clusters use it and +300), TEST_TIMEOUT (s, default 600),
# SLURM_PREFIX (another Slurm installation, e.g. /opt/slurm-24.11.5: both clusters run it and the
# tests call its commands; --source must then name that release's tree, whose own
# testsuite/expect is run).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
plugin_dir=${PLUGIN_DIR:-$work/plugins}
port_base=${SUITE_PORT_BASE:-16600}
test_timeout=${TEST_TIMEOUT:-600}
localcluster=$repo/testsuite/cluster/localcluster
list=ci
tests=""
tree=""
only=""

usage() {
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--list) list=${2:?--list needs ci, long or all}; shift 2 ;;
	--tests) tests=${2:?--tests needs test names}; shift 2 ;;
	--source) tree=${2:?--source needs a Slurm source tree}; shift 2 ;;
	--only) only=${2:?--only needs slurm or campaign}; shift 2
		case $only in slurm | campaign) ;; *) echo "run_slurm_suite: --only takes slurm or campaign" >&2; exit 2 ;; esac ;;
	-h | --help) usage ;;
	*) echo "run_slurm_suite: unknown option '$1'" >&2; usage ;;
	esac
done
case $list in ci | long | all) ;; *) echo "run_slurm_suite: --list must be ci, long or all, not '$list'" >&2; exit 2 ;; esac
command -v expect >/dev/null || { echo "run_slurm_suite: 'expect' is not installed (Debian package expect)" >&2; exit 2; }
prefix=$(realpath -m "${SLURM_PREFIX:-/usr}")
[ -x "$prefix/sbin/slurmctld" ] || { echo "run_slurm_suite: SLURM_PREFIX '$prefix' has no sbin/slurmctld" >&2; exit 2; }
release=$("$prefix/sbin/slurmctld" -V | awk '{print $2}')
if [ "$prefix" != /usr ]; then
	[ -n "$tree" ] || { echo "run_slurm_suite: SLURM_PREFIX is $prefix (Slurm $release): give --source, that release's source tree" >&2; exit 2; }
	PATH=$prefix/bin:$prefix/sbin:$PATH # scancel and squeue between tests, and the tests' own calls
fi
[ -n "$tree" ] || tree=$(bash "$repo/build-aux/fetch-slurm-source.sh" "$work/src") || exit 2
[ -f "$tree/testsuite/expect/globals" ] || { echo "run_slurm_suite: no testsuite/expect/globals under '$tree' (SchedMD's 26.05 tarballs ship none)" >&2; exit 2; }
# The tests must be the installed release's own.
tree_release=$(awk '$1 == "Major:" { a = $2 } $1 == "Minor:" { b = $2 } $1 == "Micro:" { c = $2 }
	END { if (a != "") print a "." b "." c }' "$tree/META" 2>/dev/null)
[ -z "$tree_release" ] || [ "$tree_release" = "$release" ] ||
	{ echo "run_slurm_suite: '$tree' is Slurm $tree_release, but $prefix/sbin/slurmctld is $release" >&2; exit 2; }

if [ -z "$tests" ]; then
	tests=$(sed -e 's/#.*//' "$here/expect-tests.txt" |
		awk -v list="$list" 'NF >= 2 && (list == "all" || $2 == list) { print $1 }')
fi
for test in $tests; do
	[ -f "$tree/testsuite/expect/$test" ] || { echo "run_slurm_suite: $test is not in $tree/testsuite/expect" >&2; exit 2; }
done

suite=$work/slurm-suite
# A private copy of Slurm's expect directory: the tests write their own files beside themselves.
prepare_copy() { # column
	local copy=$suite/$1/expect
	rm -rf "$copy"
	mkdir -p "$suite/$1"
	cp -a "$tree/testsuite/expect" "$copy"
	# test7.22 checks backfill and skips itself unless SchedulerType is sched/backfill.
	sed -i 's|\[get_config_param "SchedulerType"\] ne "sched/backfill"|[get_config_param "SchedulerType"] ni {sched/backfill sched/campaign}|' \
		"$copy/test7.22"
	cat >"$suite/$1/testsuite.conf" <<EOF
SlurmInstallDir=$prefix
SlurmSourceDir=$tree
SlurmBuildDir=$tree
SlurmConfigDir=$suite/$1/cluster/etc
EOF
	cat >"$copy/globals.local" <<'EOF'
set testsuite_colorize false
set testsuite_log_level 3
set testsuite_cleanup_on_failure true
EOF
}

start_column() { # column port-base conf...
	local column=$1 base=$2
	shift 2
	CLUSTER_DIR=$suite/$column/cluster CLUSTER_PORT_BASE=$base \
		"$localcluster" start --slurm "$prefix" --nodes 4 --cpus 4 --plugin-dir "$plugin_dir" "$@" >"$suite/$column/start.out" 2>&1
}

stop_column() { # column
	CLUSTER_DIR=$suite/$1/cluster "$localcluster" stop >/dev/null 2>&1 || true
}

# run_test COLUMN TEST: prints pass, FAIL, skip or time-out; the log goes to COLUMN/TEST.log.
run_test() {
	local column=$1 test=$2 conf status
	conf=$suite/$column/cluster/etc/slurm.conf
	# Nothing of an earlier test may still hold nodes.
	SLURM_CONF=$conf scancel --quiet --full --user root 2>/dev/null || true
	local i
	for i in $(seq 1 60); do
		[ -z "$(SLURM_CONF=$conf squeue -h -o %i 2>/dev/null)" ] && break
		sleep 1
	done
	(cd "$suite/$column/expect" && SLURM_CONF=$conf SLURM_TESTSUITE_CONF=$suite/$column/testsuite.conf \
		timeout "$test_timeout" expect -f "$test" </dev/null >"$suite/$column/$test.log" 2>&1)
	status=$?
	case $status in
	0) echo pass ;;
	255) echo skip ;;
	124) echo time-out ;;
	*) echo FAIL ;;
	esac
}

run_column() { # column port-base conf...
	local column=$1 test result
	start_column "$@" || { echo "run_slurm_suite: the $column cluster did not start (see $suite/$column/start.out)" >&2; return 1; }
	for test in $tests; do
		result=$(run_test "$column" "$test")
		# Some expect tests race their own terminal (test15.11 typed its next command before
		# the shell had started, once in five CI runs): a failure gets one rerun, in either
		# column. A pass on the rerun counts as a pass and is printed as a flake, with the
		# first run's log kept.
		if [ "$result" = FAIL ]; then
			mv "$suite/$column/$test.log" "$suite/$column/$test.first.log"
			echo "  $column $test: FAIL, run again ($(date +%T))"
			result=$(run_test "$column" "$test")
			[ "$result" = pass ] && echo "$test" >>"$suite/$column/flakes"
		fi
		echo "$test $result" >>"$suite/$column/results"
		echo "  $column $test: $result ($(date +%T))"
	done
	stop_column "$column"
}

trap 'stop_column slurm; stop_column campaign' EXIT
for column in slurm campaign; do
	stop_column "$column"
	prepare_copy "$column"
	rm -f "$suite/$column/results" "$suite/$column/flakes" "$suite/$column"/*.first.log
done
# The two columns: Slurm's defaults, and ours with Slurm's main scheduler left on as a site has it.
slurm_column() { run_column slurm "$port_base" --conf "PriorityType=priority/basic" --conf "SchedulerType=sched/backfill"; }
campaign_column() {
	run_column campaign $((port_base + 300)) --conf "PriorityType=priority/campaign" \
		--conf "PriorityParameters=calc_period=1,query_port=0" --conf "SchedulerType=sched/campaign" \
		--conf "SchedulerParameters=campaign_period=1"
}

echo "== Slurm's expect tests ($(echo "$tests" | wc -w)) from $tree, against Slurm $release from $prefix"
if [ -n "$only" ]; then
	"${only}_column"
	exit
fi
# The two clusters run side by side (own ports and directories): the tests mostly wait.
slurm_column >"$suite/slurm.progress" 2>&1 &
slurm_pid=$!
campaign_column >"$suite/campaign.progress" 2>&1 &
campaign_pid=$!
wait "$slurm_pid" || { cat "$suite/slurm.progress"; exit 1; }
wait "$campaign_pid" || { cat "$suite/campaign.progress"; exit 1; }
cat "$suite/slurm.progress" "$suite/campaign.progress"

known=$here/known-differences.txt
regressions=0
regression_logs=()
printf '%-10s %-12s %-12s %s\n' test "Slurm's" ours note
for test in $tests; do
	theirs=$(awk -v t="$test" '$1 == t { print $2 }' "$suite/slurm/results")
	ours=$(awk -v t="$test" '$1 == t { print $2 }' "$suite/campaign/results")
	note=""
	if [ "$theirs" = pass ] && [ "$ours" != pass ]; then
		reason=$(sed -n "s/^$test[[:space:]]\{1,\}//p" "$known" 2>/dev/null)
		if [ -n "$reason" ]; then
			note="known difference: $reason"
		else
			note="REGRESSION (log: $suite/campaign/$test.log)"
			regressions=$((regressions + 1))
		fi
	fi
	for column in slurm campaign; do
		grep -qx "$test" "$suite/$column/flakes" 2>/dev/null &&
			note="${note:+$note; }flake: failed once in the $column column, passed on the rerun (first log: $suite/$column/$test.first.log)"
	done
	printf '%-10s %-12s %-12s %s\n' "$test" "$theirs" "$ours" "$note"
	[[ $note == REGRESSION* ]] && regression_logs+=("$test")
done
for test in "${regression_logs[@]}"; do # CI keeps only this output: what the test saw
	echo "== $test with our plugins: the end of its log"
	tail -n 40 "$suite/campaign/$test.log" | sed 's/\x1b\[[0-9;?]*[A-Za-z]//g'
	echo "== slurmctld's log meanwhile (last 20 lines)"
	tail -n 20 "$suite/campaign/cluster/log/slurmctld.log" 2>/dev/null
done
both=$(join <(sort "$suite/slurm/results") <(sort "$suite/campaign/results") | awk '$2 == "pass" && $3 == "pass"' | wc -l)
flakes=$(cat "$suite/slurm/flakes" "$suite/campaign/flakes" 2>/dev/null | wc -l)
echo "Slurm's suite: $(echo "$tests" | wc -w) tests, $both pass with both, $regressions pass with Slurm's plugins only, $flakes passed only on a rerun"
[ "$regressions" -eq 0 ]
