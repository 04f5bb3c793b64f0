#!/usr/bin/env bash
# Builds the Debian package for the installed Slurm, as an admin would (README): a tree configured
# for the system layout (--prefix=/usr --sysconfdir=/etc) against the installed slurmctld's
# source, then `make deb`. Prints the .deb's path on its last line.
# Env: WORK_DIR (default /var/tmp/slurm-campaign: the Slurm source and the tree, build-deb).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/scripts/lib.sh" # reset_foreign_build_tree
work=${WORK_DIR:-/var/tmp/slurm-campaign}
tree=$(bash "$repo/build-aux/fetch-slurm-source.sh" "$work/src") || exit 1
build=$work/build-deb
reset_foreign_build_tree "$build" "$repo" || exit 1
mkdir -p "$build"
(cd "$build" && { grep -q -- "--prefix=/usr" config.status 2>/dev/null ||
	"$repo/configure" --prefix=/usr --sysconfdir=/etc --with-slurm-source="$tree" >configure.out 2>&1; } &&
	make -j"$(nproc)" >make.out 2>&1) || {
	echo "build-deb: the system-layout build failed (see $build/configure.out and make.out)" >&2
	tail -n 20 "$build/make.out" >&2 2>/dev/null
	exit 1
}
deb=$(make -s -C "$build" deb 2>"$build/deb.err" | tail -n 1)
[ -f "$deb" ] || {
	echo "build-deb: make deb built no package" >&2
	cat "$build/deb.err" >&2
	exit 1
}
echo "$deb"
