#!/usr/bin/env bash
# Every test: the C++ format check (clang-format 14), unit and simulator tests (make check), the
# same under ASan/UBSan, then the integration tests against a real local Slurm cluster with our
# plugins. Root, Debian 12.
# Prints one closing line "N passed, N failed" over all suites.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
build=${BUILD_DIR:-$repo/build}
passed=0
failed=0
record() { # name status
	if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "PASS: $1"; else failed=$((failed + 1)); echo "FAIL: $1"; fi
}
source "$repo/scripts/lib.sh"

bash "$repo/scripts/build.sh" || { echo "0 passed, 1 failed"; exit 1; }

step "clang-format 14 (scripts/check-format.sh)"
bash "$repo/scripts/check-format.sh"
record "clang-format" $?

step "make check (unit and simulator tests)"
(cd "$build" && make -j"$(nproc)" check >check.out 2>&1)
status=$?
grep -E '^(PASS|FAIL|ERROR|XPASS|SKIP):' "$build/check.out"
[ $status -eq 0 ] || find "$build/testsuite" -name '*.log' -newer "$build/make.out" \
	-exec grep -l -E '^(FAIL|ERROR)' {} + 2>/dev/null | xargs -r tail -n 30
record "make check" $status

step "make install with DESTDIR, and make distcheck"
stage=$work/destdir
rm -rf "$stage"
(cd "$build" && make install DESTDIR="$stage" >install-destdir.out 2>&1 &&
	plugindir=$(sed -n 's/^plugindir = //p' Makefile) &&
	for file in priority_campaign.so sched_campaign.so libslurm_campaign.so \
		libslurm_campaign_runtime.so; do
		test -f "$stage$plugindir/$file" || { echo "missing in DESTDIR: $plugindir/$file"; exit 1; }
	done &&
	make -j"$(nproc)" distcheck >distcheck.out 2>&1)
status=$?
[ $status -eq 0 ] || tail -n 20 "$build/distcheck.out" 2>/dev/null
record "make install DESTDIR and make distcheck" $status

if [ "${SKIP_SANITIZERS:-0}" != 1 ]; then
	step "make check under ASan and UBSan"
	san=$work/build-sanitizers
	# Kept between runs to save time, so it may hold another clone's tree: reuse only our own.
	reset_foreign_build_tree "$san" "$repo" && mkdir -p "$san" &&
		(cd "$san" && { [ -f Makefile ] || "$repo/configure" --enable-sanitizers >configure.out 2>&1; } &&
			make -j"$(nproc)" check >check.out 2>&1)
	status=$?
	grep -E '^(FAIL|ERROR):' "$san/check.out" 2>/dev/null
	record "make check (ASan+UBSan)" $status
fi

step "cluster tests (real slurmctld, slurmd and munge on 127.0.0.1)"
for test in "$repo"/testsuite/cluster/test_*.sh; do
	[ -e "$test" ] || continue
	name=$(basename "$test" .sh)
	step "$name"
	PLUGIN_DIR="$work/plugins" BUILD_DIR="$build" bash "$test" 2>&1 | tee "$work/$name.out"
	record "$name" "${PIPESTATUS[0]}"
done

step "Slurm's own expect tests, with Slurm's default plugins and with ours"
PLUGIN_DIR="$work/plugins" WORK_DIR="$work" bash "$repo/testsuite/slurm/run_slurm_suite.sh" --list ci 2>&1 |
	tee "$work/slurm_suite.out"
record "Slurm's expect tests (no regression against Slurm's plugins)" "${PIPESTATUS[0]}"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
