#!/bin/sh
# make check: a fixed, seeded libFuzzer run of the state loader and the parameter parser,
# starting from the seed corpus (copied, so found inputs never land in the source tree).
set -e
if ! test -x ./fuzz_core_inputs; then
	echo "fuzz_core_inputs not built (clang++ with libFuzzer missing): skipped"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "${srcdir:-.}"/fuzz_seeds/good_* "${srcdir:-.}"/fuzz_seeds/bad_* "$work"/
# Bounded in runs and in time (make check must stay quick); FUZZ_RUNS/FUZZ_SECONDS raise both.
./fuzz_core_inputs -runs=${FUZZ_RUNS:-100000} -max_total_time=${FUZZ_SECONDS:-30} -seed=1 \
	-max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 "$work"
