#!/bin/bash
# make check: the three layers of doc/architecture.md hold. Fails when an #include crosses a layer
# the wrong way, when a Slurm header is included outside src/slurm, when a plugin folder reads
# Slurm's data itself, when campsim or the core library needs libmunge, or when the core library
# references sockets or starts threads (pthread_create, std::thread).
# Env: TOP_SRCDIR, TOP_BUILDDIR (default: from this script's and the current directory's place).
set -u
top_srcdir=${TOP_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${TOP_BUILDDIR:-../..}
failures=0
fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# layer_of_file PATH (relative to src/): the layer a source file belongs to.
layer_of_file() {
	case $1 in
	common/*) echo core ;;
	runtime/*) echo runtime ;;
	slurm/*) echo slurm ;;
	plugins/*) echo plugin ;;
	sim/*) echo sim ;;
	scampaign/*) echo tool ;;
	*) echo other ;;
	esac
}

# layer_of_include FILE INCLUDE QUOTE: the layer an include names ("system" for the C and C++
# libraries, "slurm-header" for Slurm's own headers, "munge", "socket", "thread").
layer_of_include() {
	local file=$1 name=$2 quote=$3 dir
	dir=$(dirname "$file")
	if [ "$quote" = '<' ]; then
		case $name in
		slurm/*) echo slurm-header ;;
		munge.h) echo munge ;;
		sys/socket.h | netinet/* | arpa/* | netdb.h) echo socket ;;
		thread | pthread.h) echo thread ;;
		*) echo system ;;
		esac
		return
	fi
	case $name in
	src/* | slurm/* | config.h) echo slurm-header; return ;;
	runtime/*) [ -f "$top_srcdir/src/$name" ] && { echo runtime; return; } ;;
	esac
	if [ -f "$top_srcdir/src/$dir/$name" ]; then # beside the includer: its own layer
		layer_of_file "$dir/$name"
	elif [ -f "$top_srcdir/src/common/$name" ]; then
		echo core
	elif [ -f "$top_srcdir/src/slurm/$name" ]; then
		echo slurm
	elif [ -f "$top_srcdir/src/sim/$name" ]; then
		echo sim
	elif ls "$top_srcdir"/src/plugins/*/campaign/"$name" >/dev/null 2>&1; then
		echo plugin
	else
		echo unknown
	fi
}

# allowed FROM TO: may a FROM-layer file include a TO-layer header?
allowed() {
	case "$1:$2" in
	*:system | *:unknown) return 0 ;;
	core:core) return 0 ;;
	runtime:core | runtime:runtime | runtime:munge | runtime:socket | runtime:thread) return 0 ;;
	slurm:core | slurm:runtime | slurm:slurm | slurm:slurm-header | slurm:thread) return 0 ;;
	plugin:core | plugin:runtime | plugin:slurm | plugin:plugin | plugin:thread) return 0 ;;
	sim:core | sim:sim | sim:thread) return 0 ;;
	tool:core | tool:runtime | tool:tool | tool:socket) return 0 ;;
	esac
	return 1
}

check_includes() {
	local file line quote name from to
	while IFS= read -r file; do
		from=$(layer_of_file "$file")
		while IFS= read -r line; do
			quote=${line:0:1}
			name=${line:1}
			name=${name%?}
			to=$(layer_of_include "$file" "$name" "$quote")
			# The same folder of another plugin is another plugin.
			if [ "$from:$to" = plugin:plugin ] && [ "${name#*/}" = "$name" ] &&
				[ ! -f "$top_srcdir/src/$(dirname "$file")/$name" ]; then
				to=other-plugin
			fi
			allowed "$from" "$to" || fail "src/$file includes $line ($from layer must not include $to)"
		done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' \
			"$top_srcdir/src/$file")
	done < <(cd "$top_srcdir/src" && find . -name '*.h' -o -name '*.cc' -o -name '*.c' |
		sed 's|^\./||' | sort)
}

# Plugin folders keep entry points and their own flow: Slurm's data (job records, slurm.conf,
# the job, node and partition tables) is read and written in src/slurm only.
check_plugin_reads() {
	local hits
	hits=$(cd "$top_srcdir/src" && grep -n -E \
		'slurm_conf\.|slurmctld_conf\.|find_job_record|\bjob_list\b|node_record_table_ptr|\bpart_list\b|\bjob(_ptr)?->' \
		plugins/*/campaign/*.cc plugins/*/campaign/*.h 2>/dev/null)
	[ -z "$hits" ] || fail "plugin folders read Slurm's data (move it to src/slurm): $hits"
}

# The real binary (libtool leaves a wrapper script beside it when it links shared libraries).
real_binary() {
	local dir name
	dir=$(dirname "$1")
	name=$(basename "$1")
	for candidate in "$dir/.libs/$name" "$dir/.libs/lt-$name" "$1"; do
		[ -f "$candidate" ] && readelf -h "$candidate" >/dev/null 2>&1 &&
			{ echo "$candidate"; return 0; }
	done
	return 1
}

# needs_munge BINARY: BINARY or a library it needs, found through its RUNPATH (our own libraries
# in the build tree), is linked against libmunge (readelf -d).
needs_munge() {
	local binary=$1 depth=${2:-0} dynamic runpath library dir
	dynamic=$(readelf -d "$binary" 2>/dev/null)
	echo "$dynamic" | grep -q 'NEEDED.*\[libmunge' && return 0
	[ "$depth" -lt 3 ] || return 1
	runpath=$(echo "$dynamic" | sed -n 's/.*R[UN]*PATH.*\[\(.*\)\]/\1/p' | tr ':' ' ')
	for library in $(echo "$dynamic" | sed -n 's/.*NEEDED.*\[\(libslurm_campaign[^]]*\)\]/\1/p'); do
		for dir in $runpath; do
			if [ -f "$dir/$library" ]; then
				needs_munge "$dir/$library" $((depth + 1)) && return 0
				break
			fi
		done
	done
	return 1
}

check_no_munge() {
	local what=$1 binary
	binary=$(real_binary "$what") || { fail "$what: not built"; return; }
	if needs_munge "$binary"; then
		fail "$binary needs libmunge (readelf -d, with the libraries it needs)"
	fi
}

check_core_symbols() {
	local library symbols bad
	library=$top_builddir/src/common/.libs/libslurm_campaign.so
	if [ -f "$library" ]; then
		symbols=$(nm -D --undefined-only "$library")
	else
		library=$top_builddir/src/common/.libs/libslurm_campaign.a
		[ -f "$library" ] || { fail "core library not built"; return; }
		symbols=$(nm --undefined-only "$library" 2>/dev/null)
	fi
	bad=$(echo "$symbols" | awk '{ print $NF }' | sed 's/@.*//' |
		grep -E '^(socket|bind|listen|accept|accept4|connect|pthread_create|munge_.*|_ZNSt6thread15_M_start_thread.*)$' | sort -u)
	[ -z "$bad" ] || fail "core library $library references $(echo $bad) (nm -u)"
}

check_includes
check_plugin_reads
check_no_munge "$top_builddir/src/sim/campsim"
[ ! -f "$top_builddir/src/common/.libs/libslurm_campaign.so" ] ||
	check_no_munge "$top_builddir/src/common/libslurm_campaign.so"
check_core_symbols
if [ $failures -ne 0 ]; then
	echo "$failures layer rule(s) broken: see doc/architecture.md"
	exit 1
fi
echo "layers hold: includes, campsim and core library links, core symbols"
