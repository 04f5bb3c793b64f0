# Shared helpers of the build and CI scripts (sourced): progress lines, and the check that a
# build tree about to be reused was configured from this checkout.

# step TEXT...: a progress line with the time.
step() { printf '== %s (%s)\n' "$*" "$(date +%T)"; }

# configured_source BUILD: the source tree BUILD was configured from (its Makefile's
# abs_top_srcdir, else config.status's srcdir); empty if BUILD holds no configured tree.
configured_source() {
	local build=$1 source=""
	[ -f "$build/Makefile" ] && source=$(sed -n 's/^abs_top_srcdir = //p' "$build/Makefile")
	[ -n "$source" ] || [ ! -f "$build/config.status" ] ||
		source=$(sed -n "s/^srcdir='\(.*\)'\$/\1/p" "$build/config.status" | head -n 1)
	# config.status may hold a path relative to the build tree.
	[ -z "$source" ] || [[ $source == /* ]] || source=$build/$source
	echo "$source"
}

# build_tree_belongs BUILD REPO: BUILD was configured from REPO (the same directory, links
# resolved). False for a tree of another clone, even one that no longer exists.
build_tree_belongs() {
	local source
	source=$(configured_source "$1")
	[ -n "$source" ] && [ -d "$source" ] &&
		[ "$(cd "$source" && pwd -P)" = "$(cd "$2" && pwd -P)" ]
}

# reset_foreign_build_tree BUILD REPO: empties BUILD if it holds a tree configured from another
# source tree, which would otherwise build and test that tree's sources (or fail once it is
# gone); the caller then configures afresh. A tree of REPO, or no tree at all, is left alone.
reset_foreign_build_tree() {
	local build=$1 repo=$2 source
	source=$(configured_source "$build")
	[ -n "$source" ] || return 0
	build_tree_belongs "$build" "$repo" && return 0
	if ! grep -qs "PACKAGE='slurm-campaign'" "$build/config.status"; then
		echo "$build holds no slurm-campaign build tree (configured from $source): not touching it" >&2
		return 1
	fi
	echo "build tree $build was configured from $source, not $repo: removing it"
	rm -rf "$build"
	mkdir -p "$build"
}
