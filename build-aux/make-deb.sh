#!/usr/bin/env bash
# make-deb.sh BUILD_DIR [OUT_DIR]: a Debian package of a configured, built tree, for the Slurm it
# was configured against: slurm-campaign_<ours>+slurm<version>_<arch>.deb with the plugins in that
# Slurm's PluginDir, campsim, scampaign, the man pages, the documentation and slurm.conf example,
# and a dependency on exactly the installed slurmctld (Slurm loads a plugin only into the release
# it was built for). The tree must be configured for the system layout:
#   configure --prefix=/usr --sysconfdir=/etc --with-slurm-source=TREE   (PluginDir detected)
# `make deb` in the build tree runs this. Needs dpkg-deb and dpkg-shlibdeps (dpkg-dev).
set -euo pipefail
build=$(cd "${1:?usage: make-deb.sh BUILD_DIR [OUT_DIR]}" && pwd)
out=$(mkdir -p "${2:-$build}" && cd "${2:-$build}" && pwd)
die() { echo "make-deb: $*" >&2; exit 1; }

value_of() { sed -n "s|^$1 = ||p" "$build/Makefile" | head -n 1; }
prefix=$(value_of prefix)
plugindir=$(value_of plugindir)
version=$(value_of PACKAGE_VERSION)
tree=$(value_of with_slurm_tree)
[ "$prefix" = /usr ] ||
	die "$build is configured with --prefix=$prefix; a package needs --prefix=/usr --sysconfdir=/etc"
[ -n "$plugindir" ] && [ -n "$tree" ] || die "$build was configured without Slurm (--with-slurm-source)"
slurm_version=$(sed -n 's/^#define SLURM_VERSION_STRING "\(.*\)"/\1/p' "$tree/config.h" | head -n 1)
ctld_version=$(dpkg-query -W -f='${Version}' slurmctld 2>/dev/null) ||
	die "slurmctld is not installed as a Debian package: nothing to pin the plugins to"
[[ $ctld_version == "$slurm_version"* ]] ||
	die "the installed slurmctld is $ctld_version, the tree was configured against Slurm $slurm_version"
arch=$(dpkg --print-architecture)
command -v dpkg-shlibdeps >/dev/null || die "dpkg-shlibdeps missing (Debian package dpkg-dev)"

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
make -C "$build" install DESTDIR="$stage/root" >"$stage/install.out" 2>&1 ||
	{ tail -n 20 "$stage/install.out" >&2; die "make install failed"; }
root=$stage/root
[ -f "$root$plugindir/priority_campaign.so" ] || die "no priority_campaign.so staged in $plugindir"
# libtool's archives and the tests' leftovers are not for a binary package.
find "$root" -name '*.la' -delete
rm -rf "$root/usr/include"

# Shared libraries the binaries need, as Debian names them (the project's own, in PluginDir, and
# Slurm's, provided by slurmctld, are not packages of their own).
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
binaries=()
while IFS= read -r file; do
	is_elf "$file" && binaries+=("$file")
done < <(find "$root" -type f \( -name '*.so*' -o -perm -u+x \))
for file in "${binaries[@]}"; do # as dh_strip: no debug sections in the binary package
	strip --strip-unneeded "$file"
done
gzip -9n "$root"/usr/share/man/man*/*
mkdir -p "$stage/debian"
printf 'Source: slurm-campaign\n\nPackage: slurm-campaign\nArchitecture: %s\n' "$arch" >"$stage/debian/control"
shlibs=$(cd "$stage" && dpkg-shlibdeps -O -l"$root$plugindir" --ignore-missing-info \
	-xslurm-campaign "${binaries[@]}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')

package_version="$version+slurm$slurm_version"
size_kb=$(du -sk "$root" | cut -f1)
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: slurm-campaign
Version: $package_version
Architecture: $arch
Maintainer: slurm-campaign developers <root@localhost>
Installed-Size: $size_kb
Depends: slurmctld (= $ctld_version)${shlibs:+, $shlibs}
Section: admin
Priority: optional
Homepage: https://github.com/slurm-campaign/slurm-campaign
Description: campaign-aware fair scheduling plugins for Slurm $slurm_version
 priority/campaign ranks pending jobs by campaign (OStrich: virtual fair
 time-sharing; FairCamp: campaign deadlines); sched/campaign plans the whole
 queue and backfills without delaying reserved jobs. With campsim, a
 trace-driven simulator running the same core code, and scampaign, which
 lists campaigns. Built for Slurm $slurm_version only: PriorityType and
 SchedulerType in slurm.conf switch them on (see slurm-campaign(7)).
EOF
deb=$out/slurm-campaign_${package_version}_$arch.deb
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null
echo "$deb"
