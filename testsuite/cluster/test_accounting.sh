#!/usr/bin/env bash
# Real accounting in the local cluster: MariaDB and slurmdbd started from an empty data directory
# and stopped by pid, accounts, users and a QOS registered with sacctmgr, sacct showing the jobs
# run under our plugins; a slurmdbd outage mid-workload (slurmctld goes on starting jobs, and the
# records catch up once slurmdbd is back); a second start that reuses the database.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

pid_alive_file() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
all_completed_in_jobcomp() { local id; for id in "$@"; do job_completed "$id" || return 1; done; }
no_daemon_left() { # cluster dir
	local pidfile
	for pidfile in "$1"/run/*.pid "$1"/run/mariadb/*.pid; do
		pid_alive_file "$pidfile" && return 1
	done
	return 0
}

start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 4 --accounting --fresh-db
started_at=$(date +%s)
dir=$("$localcluster" path dir)

echo "== from an empty data directory"
check "mariadbd runs from its pid file" pid_alive_file "$dir/run/mariadb/mariadb.pid"
check "slurmdbd runs from its pid file" pid_alive_file "$dir/run/slurmdbd.pid"
check_equal "slurmdbd.conf is mode 0600" 600 "$(stat -c %a "$dir/etc/slurmdbd.conf")"
check_equal "MariaDB and slurmdbd listen on 127.0.0.1 only" "" \
	"$(ss -Hltnp | grep -E '"(mariadbd|slurmdbd)"' | awk '{print $4}' | grep -v '^127\.0\.0\.1:')"
check_equal "accounts and their Fairshare" "biology|10 physics|30" \
	"$(sacctmgr -n -P show account format=account,fairshare withassoc where user= 2>/dev/null |
		grep -E '^(physics|biology)\|' | sort -u | tr '\n' ' ' | sed 's/ $//')"
check_equal "camp1 is in physics, camp8 in biology" "camp1|physics camp8|biology" \
	"$(sacctmgr -n -P show assoc format=user,account where user=camp1,camp8 | sort | tr '\n' ' ' | sed 's/ $//')"
check_equal "QOS limited holds two jobs per user" 2 \
	"$(sacctmgr -n -P show qos limited format=maxjobspu)"

echo "== sacct shows jobs run under priority/campaign and sched/campaign"
first=$(submit camp1 -p batch -n 1 -t 1 -J acct_a --wrap "sleep 1")
second=$(submit camp5 -p batch -n 2 -t 1 -J acct_b --wrap "sleep 1")
recorded() { # id account: sacct has the job COMPLETED under that account
	[ "$(sacct -n -X -P -j "$1" -o state,account 2>/dev/null | head -n 1)" = "COMPLETED|$2" ]
}
check "camp1's job is recorded COMPLETED under physics" wait_until 60 recorded "$first" physics
check "camp5's job is recorded COMPLETED under biology" wait_until 60 recorded "$second" biology
no_account=$(sbatch --uid=nobody --parsable -o /dev/null -D /tmp -p batch -t 1 --wrap true 2>&1)
check "a user without an association is refused (AccountingStorageEnforce): '$no_account'" \
	grep -qi 'association\|account' <<<"$no_account"

echo "== a slurmdbd outage mid-workload"
"$localcluster" stop-dbd
check "slurmdbd is stopped" test ! -s "$dir/run/slurmdbd.pid"
during=()
for i in 1 2 3; do during+=("$(submit camp2 -p batch -n 1 -t 1 -J outage --wrap "sleep 1")"); done
check "slurmctld goes on running and finishing jobs without slurmdbd" \
	wait_until 60 all_completed_in_jobcomp "${during[@]}"
"$localcluster" start-dbd
check "slurmdbd is back" pid_alive_file "$dir/run/slurmdbd.pid"
caught_up() { local id; for id in "${during[@]}"; do recorded "$id" physics || return 1; done; }
check "the three jobs' records reach the database once slurmdbd is back" wait_until 120 caught_up

echo "== a second start reuses the database"
stop_cluster
check "every daemon stopped (no pid file left running)" no_daemon_left "$dir"
start_ranked_cluster policy=ostrich,calc_period=1 --nodes 2 --cpus 4 --accounting
check_equal "the accounts are still there" "biology physics" \
	"$(sacctmgr -n -P show account format=account | grep -E '^(physics|biology)$' | sort | tr '\n' ' ' | sed 's/ $//')"
check "the first run's jobs are still in sacct" \
	wait_until 30 sh -c "sacct -n -X -P -S '$(at_time "$started_at")' -a -o jobname | grep -q acct_a"
check "slurmctld is up" ctld_ping
check_equal "no error from our plugins in slurmctld's log" "" "$(plugin_errors)"
finish
