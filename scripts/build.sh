#!/usr/bin/env bash
# Build everything on a Debian/Ubuntu machine: dependencies, the matching Slurm source, configure,
# make, and install the plugins into a private plugin directory the local cluster uses.
# Env: WORK_DIR (default /var/tmp/slurm-campaign), BUILD_DIR (default <repo>/build).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
build=${BUILD_DIR:-$repo/build}
plugins=$work/plugins
source "$repo/scripts/lib.sh"

step "installing Debian packages"
bash "$repo/scripts/install-deps.sh"

step "fetching the Slurm source matching the installed slurmctld"
slurm_tree=$(bash "$repo/build-aux/fetch-slurm-source.sh" "$work/src")

step "configuring"
if [ ! -x "$repo/configure" ] || [ "$repo/configure.ac" -nt "$repo/configure" ]; then
	(cd "$repo" && autoreconf -fi >/dev/null)
fi
reset_foreign_build_tree "$build" "$repo" # a tree copied or kept from another clone
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ] || ! grep -q -- "--with-plugindir=$plugins" config.status 2>/dev/null; then
	"$repo/configure" --with-slurm-source="$slurm_tree" --with-plugindir="$plugins" \
		--prefix="$work/install" >configure.out 2>&1 || { tail -20 configure.out; exit 1; }
	make clean >/dev/null 2>&1 || true # libraries carry the old install path
fi

step "building"
make -j"$(nproc)" >make.out 2>&1 || { grep -E 'error|Error' make.out | head -20; exit 1; }
make install >install.out 2>&1 || { tail -20 install.out; exit 1; }
step "built; plugins in $plugins"
