#!/usr/bin/env bash
# Build and install a Slurm release from SchedMD's release tarball into its own prefix, so the
# plugins can be built against it (configure --with-slurm-source=TREE) and the local cluster can
# run its daemons. Minimal features: munge, slurmdbd (MariaDB client), no GUI (sview), no
# slurmrestd, --enable-multiple-slurmd (several slurmd on one host, as the local cluster runs
# them). Installs the Debian build dependencies it lacks (root). Cached by version and checksum
# under the cache directory: the configured source tree is kept there, and a second call with the
# same tarball and prefix only checks the install (reinstalls if it is gone) and prints the tree.
# The prefix is compiled in: the same tarball with another PREFIX rebuilds that cache entry.
#
# Usage: build-slurm-release.sh TARBALL [PREFIX]
#   TARBALL  SchedMD's release tarball, e.g. slurm-24.11.5.tar.bz2 from SchedMD's download page,
#            or the archive of the release's git tag (slurm-24-11-5-1); .tar.gz/.bz2/.xz
#   PREFIX   install prefix (default /opt/slurm-<version>); sysconfdir is PREFIX/etc
# Prints the tarball's sha256 and progress on stderr, and the configured source tree's path as
# the last line on stdout (the --with-slurm-source argument).
# Env: SLURM_RELEASES_CACHE (default /var/tmp/slurm-releases); SLURM_TARBALL_SHA256 (the checksum
# SchedMD publishes: the build stops if the tarball's differs); MAKE_JOBS (default: nproc);
# SLURM_CFLAGS (set: configure --disable-debug CFLAGS=SLURM_CFLAGS, e.g. "-O0 -g0", which CI's
# releases stage uses for test daemons, 41 % less CPU than Slurm's default -ggdb3 -O1; unset:
# Slurm's own defaults; a cache entry built with other flags is rebuilt).
# make runs under nice -n 10.
set -euo pipefail

log() { echo "build-slurm-release: $*" >&2; }
die() {
	log "$*"
	exit 1
}
# Debian packages Slurm's build needs here (also in scripts/debian-packages.txt).
# libjwt-dev and libjson-c-dev: auth/slurm (and serializer/json, which it needs) are built only
# with them, and the local cluster's --auth slurm and test_scampaign_auth need auth/slurm.
build_deps=(build-essential pkg-config python3 libmunge-dev munge libmariadb-dev bzip2 xz-utils
	libjwt-dev libjson-c-dev)

tarball=${1:?usage: build-slurm-release.sh TARBALL [PREFIX]}
[ -f "$tarball" ] || die "no such tarball: '$tarball'"
[ -r "$tarball" ] || die "tarball '$tarball' is not readable"
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
cache=${SLURM_RELEASES_CACHE:-/var/tmp/slurm-releases}
jobs=${MAKE_JOBS:-$(nproc)}
cflags=${SLURM_CFLAGS:-}
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "MAKE_JOBS must be a positive number (got '$jobs')"

# --- verify the tarball: checksum, a readable archive, one top directory, META naming the release
checksum=$(sha256sum "$tarball" | cut -c1-64)
log "sha256 $checksum  $tarball"
if [ -n "${SLURM_TARBALL_SHA256:-}" ] && [ "$SLURM_TARBALL_SHA256" != "$checksum" ]; then
	die "checksum mismatch for '$tarball': SLURM_TARBALL_SHA256 is $SLURM_TARBALL_SHA256 but the file's is $checksum"
fi
listing=$(tar -tf "$tarball" 2>/dev/null) || die "'$tarball' is not a readable tar archive (truncated download?)"
top=$(cut -d/ -f1 <<<"$listing" | sort -u)
if [ -z "$top" ] || [ "$(wc -l <<<"$top")" -ne 1 ]; then
	die "'$tarball' does not unpack to one top directory (found: $(head -n 3 <<<"$top" | tr '\n' ' '))"
fi

# The release's own META file names it (Major: 26, Minor: 05, Micro: 3); the top directory
# (slurm-26.05.3, or slurm-slurm-24-11-5-1 for a git tag's archive) names it too.
version_from_top() {
	local t=${1#slurm-}
	t=${t#slurm-}
	if [[ $t =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)$ ]] || [[ $t =~ ^([0-9]+)-([0-9]+)-([0-9]+)-[0-9]+$ ]]; then
		echo "${BASH_REMATCH[1]}.${BASH_REMATCH[2]}.${BASH_REMATCH[3]}"
	fi
}
top_version=$(version_from_top "$top")
version=""
if grep -Fqx "$top/META" <<<"$listing"; then
	meta=$(tar -xOf "$tarball" "$top/META")
	meta_field() { sed -n "s/^[[:space:]]*$1:[[:space:]]*//p" <<<"$meta" | head -n 1 | tr -d '[:space:]'; }
	version=$(meta_field Major).$(meta_field Minor).$(meta_field Micro)
	[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "'$tarball': $top/META gives no version (read '$version')"
	if [ -n "$top_version" ] && [ "$top_version" != "$version" ]; then
		die "'$tarball': $top/META says Slurm $version but its top directory '$top' says $top_version"
	fi
else
	version=$top_version
	[ -n "$version" ] || die "'$tarball' is not a Slurm source tarball: no $top/META, and '$top' names no version"
	log "no $top/META in the tarball; version $version from its top directory"
fi
grep -Fqx "$top/configure" <<<"$listing" ||
	die "'$tarball' has no $top/configure (a git snapshot without it needs autoreconf; use a release tarball)"

prefix=${2:-/opt/slurm-$version}
[[ $prefix == /* ]] || die "PREFIX must be an absolute path (got '$prefix')"
prefix=${prefix%/}
work=$cache/$version-${checksum:0:12}
tree=$work/$top

# One build per cache entry at a time (CI lanes may ask for the same release together).
mkdir -p "$cache"
exec 9>"$work.lock"
if ! flock -n 9; then
	log "waiting for another build of Slurm $version ($work.lock)"
	flock -w 3600 9 || die "another build of $work holds $work.lock for an hour; giving up"
fi

installed_version() { "$prefix/sbin/slurmctld" -V 2>/dev/null | sed -n 's/^slurm[^ ]* \([0-9.]*\).*/\1/p'; }

if [ -f "$work/.built" ] && [ -f "$tree/config.h" ] && [ "$(cat "$work/.prefix" 2>/dev/null)" = "$prefix" ] &&
	[ "$(cat "$work/.cflags" 2>/dev/null)" = "$cflags" ]; then
	if [ "$(installed_version)" = "$version" ]; then
		log "reusing Slurm $version: built in $work, installed in $prefix"
		echo "$tree"
		exit 0
	fi
	log "Slurm $version is built in $work but not installed in $prefix: installing"
	make -C "$tree" install >"$work/install.log" 2>&1 ||
		die "make install failed; see $work/install.log"
	[ "$(installed_version)" = "$version" ] || die "$prefix/sbin/slurmctld -V does not report $version after make install"
	log "installed Slurm $version in $prefix"
	echo "$tree"
	exit 0
fi

# --- build dependencies
missing=()
for p in "${build_deps[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	[ "$(id -u)" -eq 0 ] || die "missing Debian packages (${missing[*]}) and not root: install them first"
	log "installing ${missing[*]} (apt-get; log in $cache/apt.log)"
	export DEBIAN_FRONTEND=noninteractive
	apt_install() { apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$cache/apt.log" 2>&1; }
	apt_install || { apt-get update -q >>"$cache/apt.log" 2>&1 && apt_install; } ||
		die "apt-get could not install ${missing[*]}; see $cache/apt.log"
fi

start=$SECONDS
elapsed() { printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }
log "building Slurm $version into $prefix in $work ($jobs jobs, CFLAGS ${cflags:-Slurm default}; several minutes)"
rm -rf "$work"
mkdir -p "$work"
tar -xf "$tarball" -C "$work"
echo "$prefix" >"$work/.prefix"
echo "$cflags" >"$work/.cflags"
echo "$tarball sha256 $checksum" >"$work/.source"
cd "$tree"
flag_options=()
[ -z "$cflags" ] || flag_options=(--disable-debug CFLAGS="$cflags")
./configure --prefix="$prefix" --sysconfdir="$prefix/etc" --enable-multiple-slurmd --with-munge \
	--disable-sview --disable-slurmrestd "${flag_options[@]}" >"$work/configure.log" 2>&1 || {
	tail -n 20 "$work/configure.log" >&2
	die "Slurm's configure failed; see $work/configure.log"
}
grep -q '^#define MULTIPLE_SLURMD 1' config.h || die "configure left MULTIPLE_SLURMD unset in $tree/config.h"
grep -q '^#define SLURM_VERSION_STRING "'"$version"'"' config.h ||
	die "$tree/config.h does not name Slurm $version (SLURM_VERSION_STRING)"
log "configured ($(elapsed)); running make"
nice -n 10 make -j"$jobs" >"$work/make.log" 2>&1 || {
	grep -E -m 20 'error' "$work/make.log" >&2 || true
	die "make failed; see $work/make.log"
}
log "built ($(elapsed)); installing"
make install >"$work/install.log" 2>&1 || {
	tail -n 20 "$work/install.log" >&2
	die "make install failed; see $work/install.log"
}
[ "$(installed_version)" = "$version" ] || die "$prefix/sbin/slurmctld -V does not report $version after make install"
[ -x "$prefix/sbin/slurmdbd" ] || log "note: no slurmdbd built (see $work/configure.log: MySQL/MariaDB client not found)"
[ -e "$prefix/lib/slurm/auth_slurm.so" ] || log "note: no auth/slurm built (see $work/configure.log: libjwt or json-c not found)"
touch "$work/.built"
log "installed Slurm $version in $prefix ($(elapsed)); configured source tree: $tree"
echo "$tree"
