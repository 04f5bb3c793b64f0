#!/usr/bin/env bash
# CI tests the code it was given: a build tree kept between runs (scripts/test-all.sh's
# sanitizer tree, scripts/build.sh's build dir) is reused only if it was configured from this
# checkout; a tree configured from another clone's path is emptied, so that the scripts
# configure it afresh instead of building that clone's sources. Drives scripts/lib.sh.
set -uo pipefail
repo=$(cd "${SRCDIR:-$(dirname "$0")}/../.." && pwd)
source "$repo/scripts/lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$repo/testsuite/cluster/lib.sh" # check, not, finish

# fake_tree BUILD SOURCE: the two files configure leaves that name the source tree, and an object
# that a reset must remove.
fake_tree() {
	mkdir -p "$1"
	printf 'abs_top_srcdir = %s\nall:\n' "$2" >"$1/Makefile"
	printf "#! /bin/sh\nac_pwd='%s'\nsrcdir='%s'\n    PACKAGE='slurm-campaign'\n" "$1" "$2" >"$1/config.status"
	touch "$1/stale.o"
}

mkdir -p "$work/other-clone"
fake_tree "$work/foreign" "$work/other-clone"
check "a tree configured from another clone does not belong" not build_tree_belongs "$work/foreign" "$repo"
reset_foreign_build_tree "$work/foreign" "$repo" >/dev/null
check "resetting it leaves an empty directory to configure" test -d "$work/foreign" -a ! -e "$work/foreign/stale.o" -a ! -e "$work/foreign/Makefile"

fake_tree "$work/gone" "$work/removed-clone"
check "a tree of a clone that no longer exists does not belong" not build_tree_belongs "$work/gone" "$repo"
reset_foreign_build_tree "$work/gone" "$repo" >/dev/null
check "and is emptied" test ! -e "$work/gone/Makefile"

fake_tree "$work/ours" "$repo"
check "a tree configured from this checkout belongs" build_tree_belongs "$work/ours" "$repo"
reset_foreign_build_tree "$work/ours" "$repo" >/dev/null
check "and is kept as it is" test -e "$work/ours/stale.o"

ln -s "$repo" "$work/link-to-repo"
fake_tree "$work/linked" "$work/link-to-repo"
check "a tree configured through a link to this checkout belongs" build_tree_belongs "$work/linked" "$repo"

rm "$work/ours/Makefile"
printf "#! /bin/sh\nsrcdir='%s'\n" "$work/other-clone" >"$work/ours/config.status"
check "config.status alone names the source when the Makefile is missing" not build_tree_belongs "$work/ours" "$repo"

mkdir -p "$work/elsewhere"
printf 'abs_top_srcdir = %s\n' "$work/other-clone" >"$work/elsewhere/Makefile"
touch "$work/elsewhere/keep"
check "a directory holding another project's tree is refused, not removed" \
	not reset_foreign_build_tree "$work/elsewhere" "$repo" 2>/dev/null
check "its files stay" test -e "$work/elsewhere/keep"

check "a directory with no build tree is left alone" reset_foreign_build_tree "$work/empty" "$repo"

# Every script that configures a kept tree resets a foreign one first.
for script in "$repo"/scripts/*.sh; do
	grep -q '"$repo/configure"' "$script" || continue
	check "$(basename "$script") resets a foreign tree before configuring" grep -q 'reset_foreign_build_tree' "$script"
done
finish
