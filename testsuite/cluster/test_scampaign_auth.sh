#!/usr/bin/env bash
# scampaign's channel under each AuthType the Slurm in use has: auth/munge (every release) and
# auth/slurm (24.11 and later: a slurm.key, sackd, no munged). Under each, the caller's uid comes
# from the credential (PrivateData=jobs: a user sees only their own campaigns, root every one),
# and a missing, malformed, forged, expired or wrong-type credential is refused with an error
# saying why. On 22.05, which has no auth/slurm, localcluster --auth slurm must say so.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
port=$((${CLUSTER_PORT_BASE:-17800} + 97))
prefix=$(realpath -m "${SLURM_PREFIX:-/usr}")
release=$("$prefix/sbin/slurmctld" -V | awk '{print $2}')
echo "== Slurm $release from $prefix"

as_user() { runuser -u "$1" -- env SLURM_CONF="$SLURM_CONF" "${@:2}"; }
users_seen() { # USER: the users whose campaigns USER's scampaign lists
	as_user "$1" "$scampaign_bin" --json | python3 -c '
import json, sys
print(" ".join(sorted({r["user"] for r in json.load(sys.stdin)["campaigns"]})))'
}
ask() { # line -> the channel's first reply line
	local reply=""
	exec 3<>"/dev/tcp/127.0.0.1/$port" || { echo "no connection"; return; }
	printf '%s\n' "$1" >&3 2>/dev/null
	IFS= read -r -t 10 reply <&3
	exec 3>&-
	echo "$reply"
}
refused() { grep -q '"ok": *false' <<<"$1" && grep -qi -- "$2" <<<"$1"; }
answered() { grep -q '"campaigns"' <<<"$1"; }
# conf_with KEY=VALUE: a copy of the cluster's slurm.conf with that key replaced.
conf_with() {
	local copy
	copy=$("$localcluster" path dir)/etc/slurm-${1%%=*}.conf
	sed "/^${1%%=*}=/d" "$SLURM_CONF" >"$copy"
	echo "$1" >>"$copy"
	echo "$copy"
}

# A cluster with both plugins, PrivateData=jobs, camp1 and camp2 each with pending campaigns.
start_workload() { # auth
	start_ranked_cluster "policy=ostrich,calc_period=1,query_port=$port" --nodes 2 --cpus 4 \
		--auth "$1" --conf "PrivateData=jobs" || return 1
	hold_cpus 8
	submit camp1 -p batch -n 2 -t 1 --wrap "sleep 1" >/dev/null
	submit camp2 -p batch -n 2 -t 1 --wrap "sleep 1" >/dev/null
	sleep 3 # a ranking pass
}

check_users_told_apart() { # auth
	check_equal "slurm.conf has AuthType=auth/$1" "auth/$1" "$(sed -n 's/^AuthType=//p' "$SLURM_CONF")"
	check_equal "camp1's scampaign shows camp1's campaigns only" "camp1" "$(users_seen camp1)"
	check_equal "camp2's scampaign shows camp2's campaigns only" "camp2" "$(users_seen camp2)"
	check_equal "root's scampaign shows every user's" "camp1 camp2 camp8" "$(users_seen root)"
	check "an empty line is refused: no credential" refused "$(ask '')" 'no credential'
	check "a request without a credential is refused" \
		refused "$(ask '{"op":"campaigns"}')" 'neither a munge credential nor an auth/slurm token'
}

echo "== auth/munge"
start_workload munge
check_users_told_apart munge
socket=$("$localcluster" path munge-socket)
good=$(munge -S "$socket" -s '{"op":"campaigns"}')
check "a munge credential of the cluster's munged is answered" answered "$(ask "$good")"
tampered=$(munge -S "$socket" -s '{"op":"campaigns"}' | python3 -c '
import sys
c = sys.stdin.read().strip()
i = len(c) // 2
print(c[:i] + ("A" if c[i] != "A" else "B") + c[i + 1:])')
check "a tampered munge credential is refused by munge" refused "$(ask "$tampered")" 'credential refused: '
token_shaped='eyJhbGciOiJIUzI1NiJ9.eyJ1aWQiOjB9.c2lnbmF0dXJl'
check "an auth/slurm token is refused: this cluster uses auth/munge (or the release has none)" \
	refused "$(ask "$token_shaped")" 'auth/munge\|has no auth/slurm'
output=$(SLURM_CONF=$(conf_with AuthInfo=socket=/nonexistent/munge.socket) "$scampaign_bin" 2>&1)
check "scampaign fails when munged is not there, with munge's error ($output)" \
	grep -q '^scampaign: munge: cannot create a credential' <<<"$output"
check_equal "the plugins logged no error" "" "$(plugin_errors)"
stop_cluster

echo "== auth/slurm"
slurm_plugins=$prefix/lib/slurm
[ "$prefix" != /usr ] || slurm_plugins=/usr/lib/$(gcc -print-multiarch)/slurm-wlm
if [ ! -e "$slurm_plugins/auth_slurm.so" ] && [ ! -e "$plugin_dir/auth_slurm.so" ]; then
	output=$("$localcluster" start --slurm "$prefix" --plugin-dir "$plugin_dir" --auth slurm 2>&1)
	check "Slurm $release has no auth/slurm, and localcluster --auth slurm says so ($output)" \
		grep -q "has no auth/slurm" <<<"$output"
	finish
	exit
fi
start_workload slurm
check_users_told_apart slurm
check "no munged runs for this cluster" not grep -q munged <<<"$("$localcluster" status)"
check "sackd serves the cluster's clients at $("$localcluster" path sack-socket)" \
	test -S "$("$localcluster" path sack-socket)"
cluster=$(sed -n 's/^ClusterName=//p' "$SLURM_CONF")
# forge UID RUID LIFETIME_S KEYFILE: an auth/slurm token made as Slurm makes one (HS256 over
# the claims Slurm's create_internal writes), for a request of campaigns.
forge() {
	python3 - "$@" "$cluster" <<'PY'
import base64, hashlib, hmac, json, sys, time
uid, ruid, lifetime, keyfile, cluster = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
part = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()
now = int(time.time())
claims = {"iat": now, "exp": now + lifetime, "ver": 0, "ruid": ruid, "context": "sack",
          "cluster": cluster, "uid": uid, "gid": uid, "host": "forger",
          "payload": base64.b64encode(b'{"op":"campaigns"}').decode()}
signed = part(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + part(json.dumps(claims).encode())
key = open(keyfile, "rb").read()
print(signed + "." + part(hmac.new(key, signed.encode(), hashlib.sha256).digest()))
PY
}
key=$("$localcluster" path slurm-key)
other_key=$("$localcluster" path dir)/etc/other.key
head -c 1024 /dev/urandom >"$other_key"
camp2_uid=$(id -u camp2)
reply=$(ask "$(forge "$camp2_uid" 0 60 "$key")")
check "a token signed with the cluster's slurm.key is answered, as its uid (camp2's only)" \
	test "$(python3 -c 'import json, sys; print(" ".join(sorted({r["user"] for r in json.loads(sys.argv[1])["campaigns"]})))' "$reply" 2>/dev/null)" = camp2
check "the same token signed with another key is refused" \
	refused "$(ask "$(forge "$camp2_uid" 0 60 "$other_key")")" "not signed with this cluster's slurm.key"
check "an expired token is refused" refused "$(ask "$(forge "$camp2_uid" 0 -10 "$key")")" 'credential refused by auth/slurm'
check "a token for another user than SlurmUser is refused" \
	refused "$(ask "$(forge "$camp2_uid" 4242 60 "$key")")" 'credential refused by auth/slurm'
check "a munge credential is refused: this cluster uses auth/slurm" \
	refused "$(ask 'MUNGE:AwQFAAB7InJlcXVlc3QiOiJub25lIn0=:')" 'authenticates with auth/slurm'
output=$(SLURM_SACK_SOCKET=/nonexistent/sack.socket "$scampaign_bin" 2>&1)
check "scampaign without a SACK fails, naming the socket it tried ($output)" \
	grep -q 'no SACK socket answers.*/nonexistent/sack.socket' <<<"$output"
output=$(SLURM_CONF=$(conf_with AuthType=auth/jwt) "$scampaign_bin" 2>&1)
check "scampaign under an AuthType it cannot speak says so ($output)" \
	grep -q 'AuthType=auth/jwt: scampaign authenticates with auth/munge or auth/slurm only' <<<"$output"
check "slurmctld is still up" ctld_ping
check_equal "the plugins logged no error" "" "$(plugin_errors)"
finish
