#!/usr/bin/env bash
# configure against Slurm source trees: a mismatched release, an unconfigured tree and a directory
# that is no Slurm tree are refused with messages naming the culprit; the matching tree is taken
# and the plugin directory defaults to the installed Slurm's PluginDir.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
repo=$(cd "$cluster_dir/../.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

installed=$(slurmctld -V | awk '{print $2}')
real_tree=$(bash "$repo/build-aux/fetch-slurm-source.sh" "$work/src" 2>/dev/null)
[ -f "$real_tree/config.h" ] || { echo "no configured Slurm tree from fetch-slurm-source.sh"; exit 1; }

# fake_tree DIR VERSION: the files configure looks at, with VERSION in config.h ('' = no config.h).
fake_tree() {
	mkdir -p "$1/slurm" "$1/src/slurmctld"
	touch "$1/slurm/slurm.h" "$1/src/slurmctld/slurmctld.h"
	[ -z "$2" ] || echo "#define SLURM_VERSION_STRING \"$2\"" >"$1/config.h"
}

# configure_in DIR ARGS...: runs configure in a fresh directory (one shared cache: quicker).
configure_in() {
	local dir=$1
	shift
	mkdir -p "$dir"
	(cd "$dir" && "$repo/configure" --cache-file="$scratch/config.cache" "$@" >configure.out 2>&1)
}

fake_tree "$scratch/old" 21.08.8
configure_in "$scratch/b1" --with-slurm-source="$scratch/old"
check "a tree of another release is refused" test $? -ne 0
message=$(grep 'error:' "$scratch/b1/configure.out")
check "the message names the tree's release (21.08.8)" grep -q '21\.08\.8' <<<"$message"
check "the message names the installed release ($installed)" grep -qF "$installed" <<<"$message"
echo "    configure: ${message#*error: }"

fake_tree "$scratch/bare" ""
configure_in "$scratch/b2" --with-slurm-source="$scratch/bare"
check "an unconfigured tree is refused" test $? -ne 0
check "the message says config.h is missing" grep -q 'has no config.h' "$scratch/b2/configure.out"

mkdir -p "$scratch/empty"
configure_in "$scratch/b3" --with-slurm-source="$scratch/empty"
check "a directory without Slurm headers is refused" test $? -ne 0
check "the message says it is not a Slurm source tree" grep -q 'is not a Slurm source tree' "$scratch/b3/configure.out"

configure_in "$scratch/b4" --with-slurm-source="$real_tree"
check "the matching tree is accepted" test $? -eq 0
check "plugins install into the installed Slurm's PluginDir by default" \
	grep -q "installed into /usr/lib/.*/slurm-wlm" "$scratch/b4/configure.out"

finish
