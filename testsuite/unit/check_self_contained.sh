#!/usr/bin/env bash
# The repository stands alone: no file refers to a path outside it (a sibling `shared` folder, a
# design file or spec kept elsewhere, a `..` above the repository root), CI's .ci/run included.
# Design notes live in doc/, traces in data/traces/, CI's Slurm release tarballs in
# data/slurm-releases/. Checks the git-tracked files, or every file of a source tree without git
# (a `make distcheck` tree). Usage: check_self_contained.sh [ROOT]
set -uo pipefail
root=${1:-${SRCDIR:-$(dirname "$0")}/../..}
root=$(cd "$root" && pwd)

# The patterns are spelled in pieces so that this file does not match itself.
dots='\.\.'
patterns=(
	"$dots/shared"                 # the sibling folder of the original workspace
	"/work/shared"                 # the same, absolute
	"shared/(DESIGN|STYLE|spec|seeds|traces|slurm-src)"
	"DESIGN"" §"                   # sections of a design file outside the repository
	"(^|[^/a-z])internals"" §"     # sections of the internals map (now doc/slurm-internals.md §N)
	"(^|[^a-z/])spec/[a-z-]+\.md"  # the extraction notes kept outside
	"seeds/[a-z0-9-]+\.txt"        # the papers kept outside
	"(top_srcdir\)|srcdir\)|\\\$repo|\\\$root)/$dots/"
)
pattern=$(
	IFS='|'
	echo "${patterns[*]}"
)

files() {
	if [ "$(git -C "$root" rev-parse --show-toplevel 2>/dev/null)" = "$root" ]; then
		git -C "$root" ls-files -z --cached --others --exclude-standard
	else
		# No git (a release tarball, `make distcheck`): every file but build trees inside it.
		(cd "$root" && find . \( -path ./autom4te.cache -o -path ./_build -o -path './build*' \) -prune \
			-o -type f -print0 | sed -z 's|^\./||')
	fi
}

hits=$(files | grep -zv -E '^testsuite/unit/check_self_contained\.sh$' |
	(cd "$root" && xargs -0 grep -I -n -E "$pattern" -- 2>/dev/null))
if [ -n "$hits" ]; then
	echo "FAIL: files refer outside the repository (design notes: doc/, traces: data/traces/):"
	echo "$hits"
	exit 1
fi
echo "ok: no file refers outside the repository ($(files | tr -cd '\0' | wc -c) files read)"
