#!/usr/bin/env bash
# Lists the C and C++ files of the repository that are not formatted as .clang-format says, with
# the formatter pinned to Debian 12's clang-format 14 (another release formats differently);
# exit 1 if any. --fix rewrites them in place instead. Usage: check-format.sh [--fix] [FILE...]
# (default: every tracked *.c, *.cc, *.h).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
fix=0
if [ "${1:-}" = --fix ]; then
	fix=1
	shift
fi

# The pinned formatter: clang-format-14 (package clang-format-14), else a clang-format that
# says it is release 14.
formatter=""
for candidate in clang-format-14 clang-format; do
	command -v "$candidate" >/dev/null 2>&1 || continue
	if "$candidate" --version | grep -qE 'clang-format version 14\.'; then
		formatter=$candidate
		break
	fi
done
if [ -z "$formatter" ]; then
	echo "check-format: no clang-format 14 found (install clang-format-14, scripts/install-deps.sh)" >&2
	exit 2
fi

cd "$repo" || exit 2
if [ $# -gt 0 ]; then
	files=("$@")
else
	mapfile -t files < <(git ls-files '*.c' '*.cc' '*.h')
fi

if [ "$fix" = 1 ]; then
	"$formatter" -i --style=file "${files[@]}" || exit 2
	echo "check-format: formatted ${#files[@]} files with $formatter"
	exit 0
fi
# One run over every file: --dry-run -Werror reports each misformatted line as FILE:LINE:COL.
report=$("$formatter" --style=file --dry-run -Werror "${files[@]}" 2>&1)
status=$?
mapfile -t unclean < <(sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' <<<"$report" | sort -u)
if [ $status -ne 0 ] && [ ${#unclean[@]} -eq 0 ]; then
	echo "$report" >&2
	echo "check-format: $formatter failed" >&2
	exit 2
fi
if [ ${#unclean[@]} -gt 0 ]; then
	printf '%s\n' "${unclean[@]}"
	echo "check-format: ${#unclean[@]} of ${#files[@]} files not clean under" \
		"$("$formatter" --version | sed 's/.*version //') (scripts/check-format.sh --fix formats them)"
	exit 1
fi
echo "check-format: all ${#files[@]} files clean under $formatter"
