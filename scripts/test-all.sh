#!/usr/bin/env bash
# Every test: the C++ format check (clang-format 14), DESTDIR install, make distcheck with the
# unit and simulator tests (its make check), fuzz_core.sh, the same tests under ASan/UBSan (in the
# background beside the Debian package build and the cluster tests), then the integration tests
# against real local Slurm clusters with our plugins and Slurm's own expect tests, in three lanes
# side by side (CLUSTER_LANES; the lanes mostly wait on jobs: load average 0.1 with two). Root,
# Debian 12. The CPU-bound stages run first, so the cluster tests' timing never competes with a
# compiler at full priority (the Slurm releases build in the background at nice 19 from the
# start, on the CPU the stages leave idle).
# Then, if SLURM_RELEASE_TARBALLS names SchedMD release tarballs, the same plugins and a subset
# of the cluster tests against each of those releases (scripts/test-releases.sh).
# Prints each stage's time, then one closing line "N passed, N failed" over all suites.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
build=${BUILD_DIR:-$repo/build}
passed=0
failed=0
stages=() # "seconds name" per stage, printed at the end
record() { # name status
	if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "PASS: $1"; else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
source "$repo/scripts/lib.sh"
stage_started=$(date +%s)
# stage_done NAME: the time since the previous stage ended, kept for the summary.
stage_done() {
	local now
	now=$(date +%s)
	stages+=("$((now - stage_started)) $1")
	echo "-- $1: $((now - stage_started)) s"
	stage_started=$now
}

bash "$repo/scripts/build.sh" || { echo "0 passed, 1 failed"; exit 1; }
stage_done "dependencies and build"

# The Slurm releases' builds (Slurm itself, our plugins and the release unit tests against it;
# about 840 CPU-seconds for two releases on a quiet machine of this kind) run in the background
# from here to the releases stage, at nice 19 with a make job per core: they take the CPU the
# stages leave idle (configure runs, test tails, the fuzzer's single core, then the cluster tests,
# which mostly wait on jobs) and yield it at once to everything else. At -j1 nice 10 beside the
# cluster tests alone, a loaded CI machine still had 843 s of them left after the lanes ended.
# scripts/test-releases.sh --build-only; the releases stage then finds everything built
# (build-slurm-release.sh's cache and lock, make's up-to-date trees). Their Debian packages were
# installed by scripts/build.sh (scripts/debian-packages.txt), so nothing needs apt while
# test_debian_package holds dpkg's lock. A build that fails here is built again, and reported,
# in the releases stage.
prebuild_pid=""
if [ -n "${SLURM_RELEASE_TARBALLS:-}" ]; then
	mkdir -p "$work/releases"
	prebuild_log=$work/releases/prebuild.log
	MAKE_JOBS=$(nproc) WORK_DIR="$work" BUILD_DIR="$build" nice -n 19 bash "$repo/scripts/test-releases.sh" \
		--build-only "$work/releases/prebuild.results" >"$prebuild_log" 2>&1 &
	prebuild_pid=$!
	echo "Slurm releases building in the background at nice 19 (pid $prebuild_pid, log $prebuild_log)"
fi

step "clang-format 14 (scripts/check-format.sh)"
bash "$repo/scripts/check-format.sh"
record "clang-format" $?
stage_done "clang-format"

# The unit and simulator tests run once without sanitizers, inside make distcheck (a VPATH build
# of the release tarball: the same sources, so a separate make check in the build tree would run
# the same tests again, 190 s on a fast 2-core machine, 380 s on a slow one), and once under
# ASan/UBSan below. Only fuzz_core.sh needs clang++, which distcheck leaves out: it runs in the
# build tree.
step "make install with DESTDIR; make distcheck, which runs make check (unit and simulator tests)"
stage=$work/destdir
rm -rf "$stage"
(cd "$build" && make install DESTDIR="$stage" >install-destdir.out 2>&1 &&
	plugindir=$(sed -n 's/^plugindir = //p' Makefile) &&
	for file in priority_campaign.so sched_campaign.so libslurm_campaign.so \
		libslurm_campaign_runtime.so; do
		test -f "$stage$plugindir/$file" || { echo "missing in DESTDIR: $plugindir/$file"; exit 1; }
	done) ||
	{ tail -n 20 "$build/install-destdir.out" 2>/dev/null; false; }
record "make install DESTDIR" $?
(cd "$build" && make -j"$(nproc)" distcheck CLANGXX=no-clang >distcheck.out 2>&1)
status=$?
grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' "$build/distcheck.out"
tests_status=0
grep -q -E '^(FAIL|ERROR|XPASS):' "$build/distcheck.out" && tests_status=1
# No summary at all: the tests never ran (the tarball did not build).
grep -q -E '^# TOTAL:' "$build/distcheck.out" || tests_status=1
if [ $status -ne 0 ]; then
	# A failed make check leaves distcheck's tree in place: the failing tests' logs.
	find "$build" -path '*/_build/*' -name '*.log' -exec grep -l -E '^(FAIL|ERROR)' {} + 2>/dev/null |
		xargs -r tail -n 30
	tail -n 20 "$build/distcheck.out"
fi
record "make check (unit and simulator tests, in make distcheck's build of the tarball)" $tests_status
record "make distcheck" $status
step "fuzz_core.sh (libFuzzer, clang++) in the build tree"
(cd "$build/testsuite/unit" && make -j"$(nproc)" check TESTS=fuzz_core.sh check_PROGRAMS= >fuzz.out 2>&1)
status=$?
grep -E '^(PASS|FAIL|ERROR|SKIP):' "$build/testsuite/unit/fuzz.out"
[ $status -eq 0 ] || tail -n 30 "$build/testsuite/unit/fuzz.out"
record "the libFuzzer run in the build tree" $status
stage_done "make install DESTDIR, make distcheck with make check, fuzz_core.sh"

# ASan and UBSan: the same make check in a sanitized build, in the background at nice 19 from
# here to the end (the Debian package build, the lanes and the releases' lanes, which mostly
# wait on jobs: about 90 % of the CPU idle in stop 51's rehearsal, against 720-780 s of this stage
# when it ran alone). CK_TIMEOUT_MULTIPLIER: Check's per-test timeouts (4 s unless a test sets
# its own) count wall time, and at nice 19 a test may wait for the CPU while the package builds.
san_pid=""
if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
	step "make check under ASan and UBSan, in the background at nice 19 (its result at the end)"
	san=$work/build-sanitizers
	# -O1 -g1 (line tables: stack traces keep file:line) instead of -O2 -g: the sanitized build
	# compiles in about half the time (12 of its 18 minutes on a slow 2-core machine were the
	# compiler), and -O1 is what ASan's documentation suggests.
	san_cxxflags=${SANITIZER_CXXFLAGS:--O1 -g1}
	san_log=$work/sanitizers.log
	(
		renice -n 19 -p $BASHPID >/dev/null
		started=$(date +%s)
		# Kept between runs to save time, so it may hold another clone's tree: reuse only our own.
		reset_foreign_build_tree "$san" "$repo" && mkdir -p "$san" &&
			(cd "$san" && { [ -f Makefile ] || "$repo/configure" --enable-sanitizers CXXFLAGS="$san_cxxflags" >configure.out 2>&1; } &&
				CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-10} make -j"$(nproc)" check CLANGXX=no-clang >check.out 2>&1)
		status=$?
		echo "ASan and UBSan: make check ended with status $status after $(($(date +%s) - started)) s in the background"
		exit $status
	) >"$san_log" 2>&1 &
	san_pid=$!
	echo "ASan and UBSan running in the background (pid $san_pid, log $san_log, make check's in $san/check.out)"
fi

step "the Debian package for the cluster test (scripts/build-deb.sh)"
deb=$(WORK_DIR="$work" bash "$repo/scripts/build-deb.sh" | tail -n 1)
[ -f "$deb" ] || record "the Debian package builds (scripts/build-deb.sh)" 1
stage_done "Debian package build"

lanes=${CLUSTER_LANES:-3}
step "cluster tests and Slurm's own expect tests, $lanes lanes side by side"
# Longest first, so that the lanes end together; the rest in name order.
long_first=(slurm_suite test_mixed_vs_backfill test_debian_package test_usage_accounting test_failover test_accounting test_preemption_qos test_replay_smoke)
# Tests not run here, each with its reason beside it (run by hand: bash testsuite/cluster/NAME.sh).
# None now: test_mixed_vs_backfill is back since its refused starts were fixed (issue 15 point 7).
outside_ci=()
tests=()
for name in "${long_first[@]}"; do
	case $name in
	slurm_suite) tests+=("slurm_suite=bash '$repo/testsuite/slurm/run_slurm_suite.sh' --list ci") ;;
	test_debian_package) tests+=("$name=DEB='$deb' bash '$repo/testsuite/cluster/$name.sh'") ;;
	*) tests+=("$name=bash '$repo/testsuite/cluster/$name.sh'") ;;
	esac
done
for test in "$repo"/testsuite/cluster/test_*.sh; do
	name=$(basename "$test" .sh)
	[[ " ${long_first[*]} ${outside_ci[*]} " == *" $name "* ]] || tests+=("$name=bash '$test'")
done
results=$work/lanes/results
PLUGIN_DIR="$work/plugins" BUILD_DIR="$build" WORK_DIR="$work" LANES=$lanes \
	bash "$repo/testsuite/cluster/run_lanes.sh" "$results" "${tests[@]}"
while read -r name status seconds; do
	[ "$name" = slurm_suite ] && name="Slurm's expect tests (no regression against Slurm's plugins)"
	record "$name ($seconds s)" "$status"
done <"$results"
ran=$(wc -l <"$results")
[ "$ran" -eq "${#tests[@]}" ] || record "every cluster test ran (${#tests[@]} queued, $ran ran)" 1
stage_done "cluster tests and Slurm's suite"

# The newer Slurm releases (SLURM_RELEASE_TARBALLS: SchedMD's tarballs; .ci/run names them).
if [ -n "${SLURM_RELEASE_TARBALLS:-}" ]; then
	if [ -n "$prebuild_pid" ]; then
		wait "$prebuild_pid"
		stage_done "Slurm releases built in the background (the rest of their build)"
	fi
	step "Slurm releases: $SLURM_RELEASE_TARBALLS (scripts/test-releases.sh)"
	releases_results=$work/releases/results
	LANES=$lanes WORK_DIR="$work" BUILD_DIR="$build" bash "$repo/scripts/test-releases.sh" "$releases_results"
	status=$?
	while read -r name result seconds; do
		record "$name ($seconds s)" "$result"
	done <"$releases_results"
	# A stage that stopped without recording its failure still fails.
	[ $status -eq 0 ] || awk '$2 != 0 { seen = 1 } END { exit !seen }' "$releases_results" ||
		record "scripts/test-releases.sh ended with status $status" 1
	stage_done "Slurm releases"
fi

# Counted last: the releases' cluster tests, which mostly wait on jobs too, run beside its tail
# (stop 51's rehearsal: 650 s of it left after the lanes).
if [ -n "$san_pid" ]; then
	wait "$san_pid"
	status=$?
	cat "$san_log"
	grep -E '^(FAIL|ERROR):' "$san/check.out" 2>/dev/null
	[ $status -eq 0 ] || tail -n 20 "$san/configure.out" "$san/check.out" 2>/dev/null
	record "make check (ASan+UBSan)" $status
	stage_done "ASan and UBSan (the rest of its run, after the cluster tests and the releases)"
fi

echo "== stage times"
for entry in "${stages[@]}"; do printf '  %6s s  %s\n' "${entry%% *}" "${entry#* }"; done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
