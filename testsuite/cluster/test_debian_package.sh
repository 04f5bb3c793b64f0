#!/usr/bin/env bash
# The Debian package: a tree configured for the system layout builds it with `make deb`; it pins
# the installed slurmctld; `apt-get install ./...deb` puts the plugins into Slurm's own PluginDir,
# where a local cluster started on that PluginDir loads them (dpkg owns the files slurmctld has
# mapped); a job runs through both plugins; `apt-get remove` leaves none of the package's files.
# Env: WORK_DIR (default /var/tmp/slurm-campaign: its Slurm source and a build-deb tree), DEB (a
# package scripts/build-deb.sh built already: skips the build).
set -uo pipefail
source "$(dirname "$0")/lib.sh"
repo=$(cd "$cluster_dir/../.." && pwd)
work=${WORK_DIR:-/var/tmp/slurm-campaign}

if dpkg -s slurm-campaign >/dev/null 2>&1; then
	echo "test_debian_package: slurm-campaign is installed already; remove it first (apt-get remove slurm-campaign)"
	exit 1
fi

deb=${DEB:-}
if [ -z "$deb" ]; then
	echo "== make deb from a tree configured for the system layout (scripts/build-deb.sh)"
	deb=$(WORK_DIR=$work bash "$repo/scripts/build-deb.sh" | tail -n 1)
fi
check "make deb built $(basename "${deb:-nothing}")" test -f "$deb"
[ -f "$deb" ] || {
	finish
	exit 1
}
ctld_version=$(dpkg-query -W -f='${Version}' slurmctld)
check_equal "it depends on exactly the installed slurmctld" "slurmctld (= $ctld_version)" \
	"$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -o 'slurmctld ([^)]*)')"
named_for_both() { [[ $(basename "$deb") == slurm-campaign_*+slurm*_*.deb ]]; }
check "its name says our version and Slurm's: $(basename "$deb")" named_for_both

echo "== apt-get install"
removed=0
remove_package() { [ "$removed" = 1 ] || apt-get remove -y slurm-campaign >/dev/null 2>&1; removed=1; }
trap 'stop_cluster; remove_package' EXIT
check "apt-get install ./$(basename "$deb") succeeds" \
	env DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb" >/dev/null 2>&1
mapfile -t files < <(dpkg -L slurm-campaign 2>/dev/null | while read -r path; do [ -f "$path" ] && echo "$path"; done)
plugin_path=$(printf '%s\n' "${files[@]}" | grep '/priority_campaign\.so$')
slurm_plugindir=$(dirname "$plugin_path")
check "the plugins are in Slurm's own PluginDir ($slurm_plugindir, beside priority_basic.so)" \
	test -f "$slurm_plugindir/priority_basic.so" -a -f "$slurm_plugindir/sched_campaign.so"
check "campsim and scampaign are on the PATH" test -x /usr/bin/campsim -a -x /usr/bin/scampaign
check "the man pages are installed" test -f /usr/share/man/man7/slurm-campaign.7.gz

echo "== a local cluster on Slurm's PluginDir loads the packaged plugins"
plugin_dir=$slurm_plugindir
start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 4
trap 'stop_cluster; remove_package' EXIT # start_cluster set its own
mapped=$(grep -oE '/[^ ]*(priority|sched)_campaign\.so' "/proc/$(ctld_pid)/maps" | sort -u)
check_equal "slurmctld mapped both plugins from $plugin_dir" \
	"$plugin_dir/priority_campaign.so $plugin_dir/sched_campaign.so" "$(echo $mapped)"
owners=$(for file in $mapped; do dpkg -S "$file" 2>/dev/null | cut -d: -f1; done | sort -u)
check_equal "dpkg says the mapped plugins are the package's" slurm-campaign "$owners"
job=$(submit camp1 -p batch -n 2 -t 1 --wrap "sleep 1")
check "a job runs through priority/campaign and sched/campaign and completes" wait_until 60 job_completed "$job"
check "sched/campaign started it" grep -q "sched/campaign: started JobId=$job" "$(ctld_log)"
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
stop_cluster

echo "== apt-get remove"
apt-get remove -y slurm-campaign >/dev/null 2>&1
removed=1
package_installed() { dpkg -s slurm-campaign >/dev/null 2>&1; }
check "the package is gone" not package_installed
left=$(for file in "${files[@]}"; do [ -e "$file" ] && echo "$file"; done)
check_equal "none of its ${#files[@]} files is left" "" "$left"
check "Slurm's own plugins are still there" test -f "$slurm_plugindir/priority_basic.so"
finish
