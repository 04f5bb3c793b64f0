#!/usr/bin/env bash
# Build and install a Slurm release from SchedMD's release tarball into its own prefix, so the
# plugins can be built against it (configure --with-slurm-source=TREE) and the local cluster can
# run its daemons. Minimal features: munge, no GUI, --enable-multiple-slurmd (several slurmd on
# one host, as the local cluster runs them). Cached by version and checksum: a second call with
# the same tarball only prints the tree.
#
# Usage: build-slurm-release.sh TARBALL [PREFIX]
#   TARBALL  e.g. slurm-26.05.3.tar.bz2 from SchedMD's download page (or its git tag's archive)
#   PREFIX   install prefix (default /opt/slurm-<version>)
# Prints the configured source tree's path on stdout (the --with-slurm-source argument).
# Env: SLURM_BUILD_CACHE (default /var/tmp/slurm-releases), MAKE_JOBS (default: nproc).
set -euo pipefail

log() { echo "build-slurm-release: $*" >&2; }
die() {
	log "$*"
	exit 1
}

tarball=${1:?usage: build-slurm-release.sh TARBALL [PREFIX]}
[ -f "$tarball" ] || die "no such tarball: '$tarball'"
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
cache=${SLURM_BUILD_CACHE:-/var/tmp/slurm-releases}
jobs=${MAKE_JOBS:-$(nproc)}

checksum=$(sha256sum "$tarball" | cut -c1-64)
top=$(tar -tf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1 || true) # head closes the pipe early
[ -n "$top" ] || die "'$tarball' is empty or not a tar archive"
# The release's own META file names it (Major: 26, Minor: 05, Micro: 3).
meta=$(tar -xOf "$tarball" "$top/META" 2>/dev/null) || die "'$tarball' has no $top/META: not a Slurm source tarball"
meta_field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*//p" <<<"$meta" | head -n 1; }
version=$(meta_field Major).$(meta_field Minor).$(meta_field Micro)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "'$tarball': META gives no version (saw '$version')"
prefix=${2:-/opt/slurm-$version}
work=$cache/$version-${checksum:0:12}
tree=$work/$top
stamp=$work/.installed-$(echo -n "$prefix" | sha256sum | cut -c1-12)

if [ -f "$stamp" ] && [ -x "$prefix/sbin/slurmctld" ] && [ -f "$tree/config.h" ]; then
	log "reusing Slurm $version in $prefix (built from $tarball, sha256 ${checksum:0:12})"
	echo "$tree"
	exit 0
fi

log "building Slurm $version from $tarball into $prefix (a few minutes)"
rm -rf "$work"
mkdir -p "$work"
tar -xf "$tarball" -C "$work"
cd "$tree"
./configure --prefix="$prefix" --sysconfdir="$prefix/etc" --enable-multiple-slurmd \
	--with-munge --disable-debug --without-gtk2 --without-hdf5 --without-rrdtool \
	>"$work/configure.log" 2>&1 || { tail -n 20 "$work/configure.log" >&2; die "configure failed; see $work/configure.log"; }
make -j"$jobs" >"$work/make.log" 2>&1 || { grep -E 'error' "$work/make.log" | head -n 20 >&2; die "make failed; see $work/make.log"; }
make install >"$work/install.log" 2>&1 || { tail -n 20 "$work/install.log" >&2; die "make install failed; see $work/install.log"; }
[ -x "$prefix/sbin/slurmctld" ] || die "no $prefix/sbin/slurmctld after make install"
touch "$stamp"
log "installed Slurm $version in $prefix"
echo "$tree"
