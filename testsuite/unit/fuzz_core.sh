#!/bin/sh
# make check: seeded libFuzzer runs from the seed corpus (copied, so found inputs never land in
# the source tree): a fixed 100,000 inputs through the state loader and the parameter parser,
# then byte-coded event sequences through the core, bounded in time.
set -e
if ! test -x ./fuzz_core_inputs; then
	echo "fuzz_core_inputs not built (clang++ with libFuzzer missing): skipped"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/inputs" "$work/events"
cp "${srcdir:-.}"/fuzz_seeds/good_state_* "${srcdir:-.}"/fuzz_seeds/good_parameters \
	"${srcdir:-.}"/fuzz_seeds/bad_* "$work/inputs"/
cp "${srcdir:-.}"/fuzz_seeds/good_events* "$work/events"/
FUZZ_EVENTS=0 ./fuzz_core_inputs -runs=${FUZZ_RUNS:-100000} -seed=1 -max_len=4096 \
	-rss_limit_mb=2048 -print_final_stats=1 "$work/inputs"
# Event sequences cost far more per input; FUZZ_EVENT_SECONDS raises the bound.
./fuzz_core_inputs -runs=${FUZZ_RUNS:-100000} -max_total_time=${FUZZ_EVENT_SECONDS:-30} -seed=1 \
	-max_len=4096 -rss_limit_mb=2048 -print_final_stats=1 "$work/events"
