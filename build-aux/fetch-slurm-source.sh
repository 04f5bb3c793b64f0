#!/usr/bin/env bash
# Fetch the Slurm source matching the installed slurmctld from Debian's archive and generate
# its config.h, so plugins build against the exact release they will be loaded into.
# Usage: fetch-slurm-source.sh DEST_DIR   (prints the source tree path on stdout)
set -euo pipefail

dest=${1:?usage: fetch-slurm-source.sh DEST_DIR}
log() { echo "fetch-slurm-source: $*" >&2; }

version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null || true)
if [ -z "$version" ]; then
	log "slurmctld is not installed (dpkg-query found no package 'slurmctld'); install it first"
	exit 1
fi
upstream=${version%%-*}         # 22.05.8-4+deb12u3 -> 22.05.8
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
tree="$dest/slurm-$upstream"

if [ -f "$tree/config.h" ] && [ -f "$tree/.fetched-$version" ]; then
	log "reusing $tree (Debian $version)"
	echo "$tree"
	exit 0
fi

apt_dir="$dest/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/sources.d"
src_list=/etc/apt/sources.list.d/debian.sources
if [ -f "$src_list" ]; then
	sed 's/^Types: deb$/Types: deb-src/' "$src_list" > "$apt_dir/sources.d/src.sources"
else
	grep -h '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$apt_dir/sources.d/src.list"
fi
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$apt_dir/sources.d"
	-o "Dir::State::Lists=$apt_dir/lists")

log "downloading slurm-wlm $version source from Debian's archive"
apt-get "${apt_opts[@]}" update >&2
rm -rf "$dest/pkg" && mkdir -p "$dest/pkg"
(cd "$dest/pkg" && apt-get "${apt_opts[@]}" source --download-only "slurm-wlm=$version" >&2)
orig=$(ls "$dest"/pkg/slurm-wlm_*.orig.tar.* | head -n 1)

rm -rf "$tree" "$dest/unpack" && mkdir -p "$dest/unpack"
tar -xf "$orig" -C "$dest/unpack"
mv "$dest"/unpack/* "$tree"
rmdir "$dest/unpack"

log "running Slurm's configure to generate config.h (about 30 s)"
(cd "$tree" && ./configure --prefix=/usr --sysconfdir=/etc/slurm --with-munge \
	--enable-multiple-slurmd > "$dest/slurm-configure.log" 2>&1) || {
	log "Slurm's configure failed; see $dest/slurm-configure.log"
	exit 1
}
touch "$tree/.fetched-$version"
echo "$tree"
