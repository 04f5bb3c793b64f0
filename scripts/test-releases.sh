#!/usr/bin/env bash
# CI stage for the Slurm releases beside Debian's 22.05: for each SchedMD release tarball in
# SLURM_RELEASE_TARBALLS (space-separated paths; empty or unset: nothing to do), build and install
# the release (build-aux/build-slurm-release.sh, cached), build our plugins against its tree, run
# the release-dependent unit tests, then the cluster tests against its daemons through
# testsuite/cluster/run_lanes.sh (SLURM_PREFIX). Root, Debian 12; run after scripts/build.sh.
#
#   test-releases.sh [RESULTS]   RESULTS gets "NAME STATUS SECONDS" per check (test-all.sh counts
#                                them); default $WORK_DIR/releases/results
#   test-releases.sh --build-only [RESULTS]
#                                only the builds (each release, our plugins, the unit test programs),
#                                so that a later full run finds them done: test-all.sh runs this
#                                in the background from its start, at nice 19
#
# Time: only what depends on Slurm is built per release (the core, runtime, adapter and plugins;
# campsim, scampaign and the core's unit tests are Slurm-free, so the 22.05 build in BUILD_DIR
# serves them), and make check runs RELEASE_UNIT_TESTS only (default: the parameter parsers
# slurmctld runs at start-up, and the check of our keys against Slurm's SchedulerParameters list).
# Env: WORK_DIR (default /var/tmp/slurm-campaign), BUILD_DIR (the 22.05 build, default
# <repo>/build), MAKE_JOBS (default: the number of cores), RELEASE_CLUSTER_TESTS,
# RELEASE_UNIT_TESTS, RELEASE_CFLAGS and RELEASE_CXXFLAGS (the release's and our plugins' compiler
# flags, default "-O0 -g0": these builds serve only these tests, and drop 41 % and 32 % of their
# CPU against Slurm's -ggdb3 -O1 and our -O2 -g; the 22.05 build keeps the shipped flags),
# LANES (default 2), LANE_PORT_BASE (default 19800), RELEASE_SLURM_SUITE=1
# (also Slurm's expect tests of each release that ships them, testsuite/slurm/run_slurm_suite.sh:
# about 7 more lane-minutes per release).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
build_2205=${BUILD_DIR:-$repo/build}
build_only=0
[ "${1:-}" = --build-only ] && { build_only=1; shift; }
results=${1:-$work/releases/results}
jobs=${MAKE_JOBS:-$(nproc)}
cluster_tests=${RELEASE_CLUSTER_TESTS:-test_slurm_prefix test_skeleton test_ostrich_order test_faircamp_order test_backfill test_restart test_state_and_reconfigure test_reconfigure_in_pass test_visibility test_gres_plan test_scampaign_auth}
unit_tests=${RELEASE_UNIT_TESTS:-test_scheduler_parameters test_priority_parameters}
release_cflags=${RELEASE_CFLAGS--O0 -g0}
release_cxxflags=${RELEASE_CXXFLAGS--O0 -g0}
source "$repo/scripts/lib.sh"

mkdir -p "$work/releases"
: >"$results"
stages=()
stage_started=$(date +%s)
stage_done() { # NAME: the time since the previous stage ended
	local now
	now=$(date +%s)
	stages+=("$((now - stage_started)) $1")
	echo "-- $1: $((now - stage_started)) s"
	stage_started=$now
}
record() { # NAME STATUS [SECONDS]
	[ "$2" -eq 0 ] && echo "PASS: $1" || echo "FAIL: $1"
	echo "${1// /_} $2 ${3:-0}" >>"$results"
}

read -r -a tarballs <<<"${SLURM_RELEASE_TARBALLS:-}"
if [ ${#tarballs[@]} -eq 0 ]; then
	echo "test-releases: SLURM_RELEASE_TARBALLS is empty: no Slurm release to test (22.05 only)"
	exit 0
fi

# release_version TREE: Major.Minor.Micro from the release's META.
release_version() {
	awk '$1 == "Major:" { a = $2 } $1 == "Minor:" { b = $2 } $1 == "Micro:" { c = $2 }
		END { if (a != "") print a "." b "." c }' "$1/META"
}

# sha256_listed TARBALL: the checksum a SHA256SUMS file beside the tarball lists for it, if any.
sha256_listed() {
	local sums
	sums=$(dirname "$1")/SHA256SUMS
	[ -f "$sums" ] && awk -v f="$(basename "$1")" '$2 == f || $2 == "*" f { print $1 }' "$sums"
}

# build_ours VERSION TREE PREFIX: configure against TREE (its build tree kept between runs) and
# build and install the Slurm-dependent part into $work/plugins-slurm-VERSION.
build_ours() {
	local version=$1 tree=$2 prefix=$3
	local build=$work/build-slurm-$version plugins=$work/plugins-slurm-$version
	reset_foreign_build_tree "$build" "$repo" || return 1
	mkdir -p "$build"
	# The installed release is named to configure (which checks the tree against it): make's own
	# re-run of configure (a fresh checkout's configure is newer than a kept build tree's
	# config.status) would otherwise check against the first slurmctld in PATH, the system's.
	local installed
	installed=$("$prefix/sbin/slurmctld" -V 2>/dev/null | sed -n 's/^slurm[^ ]* \([0-9.]*\).*/\1/p')
	[ -n "$installed" ] || { echo "$prefix/sbin/slurmctld -V names no release"; return 1; }
	if [ ! -f "$build/Makefile" ] || ! grep -q -- "--with-slurm-source=$tree" "$build/config.status" 2>/dev/null ||
		! grep -q -F -- "--with-slurm-version=$installed" "$build/config.status" ||
		! grep -q -F -- "CXXFLAGS=$release_cxxflags'" "$build/config.status"; then
		(cd "$build" && "$repo/configure" --with-slurm-source="$tree" \
			--with-slurm-version="$installed" --with-plugindir="$plugins" \
			--prefix="$work/install-slurm-$version" CXXFLAGS="$release_cxxflags" >configure.out 2>&1) ||
			{ tail -n 20 "$build/configure.out"; return 1; }
	fi
	local dir
	for dir in src/common src/runtime src/slurm src/plugins; do
		nice -n 10 make -C "$build/$dir" -j"$jobs" >>"$build/make.out" 2>&1 ||
			{ grep -E 'error|Error' "$build/make.out" | head -n 20; return 1; }
	done
	for dir in src/common src/runtime src/plugins; do
		make -C "$build/$dir" install >>"$build/install.out" 2>&1 || { tail -n 20 "$build/install.out"; return 1; }
	done
}

lane_tests=()
for tarball in "${tarballs[@]}"; do
	name=$(basename "$tarball")
	step "Slurm release $name: build and install (cached)"
	tree=$(SLURM_TARBALL_SHA256=${SLURM_TARBALL_SHA256:-$(sha256_listed "$tarball")} \
		SLURM_CFLAGS=$release_cflags bash "$repo/build-aux/build-slurm-release.sh" "$tarball" | tail -n 1)
	version=""
	[ -n "$tree" ] && [ -f "$tree/META" ] && version=$(release_version "$tree")
	if [ -z "$version" ]; then
		record "Slurm release $name builds and installs (build-aux/build-slurm-release.sh)" 1
		stage_done "Slurm $name build"
		continue
	fi
	prefix=/opt/slurm-$version
	stage_done "Slurm $version build"

	step "our plugins against Slurm $version ($tree)"
	build_ours "$version" "$tree" "$prefix"
	built=$?
	record "our plugins build against Slurm $version" $built
	stage_done "plugins against $version"
	if [ $build_only = 1 ]; then
		if [ $built -eq 0 ]; then
			(cd "$work/build-slurm-$version/testsuite/unit" &&
				nice -n 10 make -j"$jobs" check_PROGRAMS="$unit_tests" $unit_tests >build.out 2>&1)
			record "the unit test programs build against Slurm $version" $?
			stage_done "unit test programs against $version"
		fi
		continue
	fi
	if [ $built -eq 0 ]; then
		# check_PROGRAMS and check_SCRIPTS too: make check would build every unit test, not only
		# those it runs, and fuzz_core.sh's libFuzzer program (70 s of clang++ per release).
		step "make check against Slurm $version ($unit_tests)"
		(cd "$work/build-slurm-$version/testsuite/unit" &&
			nice -n 10 make -j"$jobs" check TESTS="$unit_tests" check_PROGRAMS="$unit_tests" \
				check_SCRIPTS= >check.out 2>&1)
		status=$?
		grep -E '^(PASS|FAIL|ERROR):' "$work/build-slurm-$version/testsuite/unit/check.out"
		record "make check against Slurm $version" $status
		stage_done "make check against $version"
	fi

	# Tests that load our plugins need them; test_slurm_prefix runs Slurm's own.
	for test in $cluster_tests; do
		if [ $built -ne 0 ] && [ "$test" != test_slurm_prefix ]; then
			echo "FAIL: $test@$version not run: our plugins did not build against Slurm $version"
			echo "$test@$version 1 0" >>"$results"
			continue
		fi
		# WORK_DIR: the 22.05 install (test_visibility runs its scampaign), not the lanes' directory.
		lane_tests+=("$test@$version=SLURM_PREFIX='$prefix' PLUGIN_DIR='$work/plugins-slurm-$version' WORK_DIR='$work' bash '$repo/testsuite/cluster/$test.sh'")
	done
	if [ "${RELEASE_SLURM_SUITE:-0}" = 1 ] && [ $built -eq 0 ]; then
		if [ -d "$tree/testsuite/expect" ]; then
			# In its lane's port range (the lane's CLUSTER_PORT_BASE, expanded when it runs).
			lane_tests=("slurm_suite@$version=SLURM_PREFIX='$prefix' PLUGIN_DIR='$work/plugins-slurm-$version' WORK_DIR='$work/releases/suite-$version' SUITE_PORT_BASE=\$CLUSTER_PORT_BASE bash '$repo/testsuite/slurm/run_slurm_suite.sh' --list ci --source '$tree'" "${lane_tests[@]}")
		else
			echo "note: Slurm $version's tarball has no testsuite/expect: its expect tests are not run"
		fi
	fi
done

if [ ${#lane_tests[@]} -gt 0 ]; then
	step "cluster tests against the releases, ${LANES:-2} lanes side by side"
	lane_results=$work/releases/lanes/results
	# The 22.05 build's campsim and scampaign (Slurm-free) serve the tests.
	BUILD_DIR="$build_2205" WORK_DIR="$work/releases" LANES=${LANES:-2} \
		LANE_PORT_BASE=${LANE_PORT_BASE:-19800} \
		bash "$repo/testsuite/cluster/run_lanes.sh" "$lane_results" "${lane_tests[@]}"
	while read -r name status seconds; do
		[ "$status" -eq 0 ] && echo "PASS: $name ($seconds s)" || echo "FAIL: $name ($seconds s)"
		echo "$name $status $seconds" >>"$results"
	done <"$lane_results"
	ran=$(wc -l <"$lane_results")
	[ "$ran" -eq "${#lane_tests[@]}" ] || record "every release cluster test ran (${#lane_tests[@]} queued, $ran ran)" 1
	stage_done "cluster tests against the releases"
fi

echo "== Slurm releases: stage times"
for entry in "${stages[@]}"; do printf '  %6s s  %s\n' "${entry%% *}" "${entry#* }"; done
echo "== Slurm releases: $(awk '$2 == 0' "$results" | wc -l) passed, $(awk '$2 != 0' "$results" | wc -l) failed"
! awk '$2 != 0 { bad = 1 } END { exit !bad }' "$results"
