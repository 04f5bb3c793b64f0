#!/usr/bin/env bash
# Benchmark (not a test): issue 12's fairness goal on real logs, printed PASS/FAIL per line. Each
# trace is replayed by campsim under Slurm's fair-share and under the policy the plugins run with
# no parameters (ostrich with sched/campaign's default mode, conservative), plus any CANDIDATES;
# then, against the better of the two fair-share baselines of a set:
#   light users' p95 bounded campaign stretch <= 0.7x where that baseline is above 1.5, else 1.1x
#   (light: bottom half of users by CPU-seconds); all campaigns' p95 and max <= 1.1x; heavy users'
#   (top 10 %) p95 <= 1.25x; utilization within 1 point (bench/goal_lines.py judges them).
# Baseline sets (BASELINE=easy|site|both|easy1d|all, default both = easy site; all = easy site
# easy1d; every candidate is judged against each set, one block of lines per set):
#   easy  fairshare/easy and fairtree/easy (one reservation, campsim's defaults: a 7-day
#         half-life);
#   easy1d the same with a one-day half-life (PriorityDecayHalfLife=1-0, --fs-half-life 86400):
#         the sensitivity set of issue 12 point 1;
#   site  fairshare/conservative and fairtree/conservative planned as a site's sched/backfill
#         with Slurm 22.05's defaults (backfill.c): bf_max_job_test=500 (--depth 500),
#         bf_window=1440 min (--horizon 86400); bf_interval=30 only with SITE_SCHED_PERIOD=30
#         (--sched-period: then every start waits for a pass, the main scheduler's too; default
#         0, a pass at every event); bf_resolution=60 (--bf-resolution 60), which campsim applies
#         only to slurm_backfill's whole-node reservations: with the default SITE_BACKFILL=
#         conservative it changes nothing (the same output to the byte), with
#         SITE_BACKFILL=slurm_backfill (sched/backfill as campsim models it: reservations hold
#         their nodes whole, the main scheduler starts jobs in order between passes) it does.
#         Run in a campsim run of their own: --depth and --horizon apply to every policy of a
#         run.
# Loads: LOADS, "log" (the log's own) and offered loads for campsim's --load (inter-arrival times
# scaled; default "log 0.85 0.95"). Campaigns are detected once on the log (campsim's default) and
# scored alike at every load, tau = 10 s.
#
#   bench/fairness_goal.sh [TRACE.swf.gz ...]      (default: the shared traces in TRACE_DIR)
#
# Each candidate's line gives campsim's wall time for its run (what a planner option costs).
# Env: BUILD_DIR ($repo/build), TRACE_DIR ($repo/data/traces), OUT (a directory kept for the
# tables; default a temporary one), CANDIDATES ("POLICY[;PARAMETERS[;OPTIONS]] ...", e.g.
# "ostrich/per_campaign ostrich/conservative;usage_halflife_s=604800,usage_weight=3
# ostrich/conservative;;short-room=0.05,short-limit=1800": PARAMETERS for --parameters, OPTIONS
# more campsim options, name=value with commas), LOADS, BASELINE, SITE_SCHED_PERIOD, SITE_BACKFILL,
# BASELINE_OPTIONS (campsim options for every baseline run too, e.g. "--estimate exact" to judge
# a candidate planned with exact run times against baselines that know them as well),
# CAMPSIM_ARGS (campsim options for every run, baselines and candidates: e.g. a window,
# "--from 1428000 --to 1773600").
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
trace_dir=${TRACE_DIR:-$repo/data/traces}
campsim=$build/src/sim/campsim
default_policy="ostrich/conservative"
baseline=${BASELINE:-both}
site_sched_period=${SITE_SCHED_PERIOD:-0}
site_backfill=${SITE_BACKFILL:-conservative}
case $site_backfill in
conservative | slurm_backfill) ;;
*)
	echo "fairness_goal: SITE_BACKFILL='$site_backfill' is not conservative or slurm_backfill" >&2
	exit 2
	;;
esac
case $baseline in
easy) sets=(easy) ;;
site) sets=(site) ;;
both) sets=(easy site) ;;
easy1d) sets=(easy1d) ;;
all) sets=(easy site easy1d) ;;
*)
	echo "fairness_goal: BASELINE='$baseline' is not easy, site, both, easy1d or all" >&2
	exit 2
	;;
esac
[ -x "$campsim" ] || { echo "fairness_goal: $campsim not built (BUILD_DIR=$build)" >&2; exit 1; }
traces=("$@")
[ ${#traces[@]} -gt 0 ] || traces=("$trace_dir"/*.swf.gz)
out=${OUT:-}
if [ -z "$out" ]; then
	out=$(mktemp -d)
	trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

passes=0
fails=0
declare -A set_passes=([easy]=0 [site]=0 [easy1d]=0) set_fails=([easy]=0 [site]=0 [easy1d]=0)
declare -A set_label=([easy]="fairshare/easy and fairtree/easy"
	[easy1d]="fairshare/easy and fairtree/easy with a one-day half-life"
	[site]="the site's sched/backfill (fairshare/$site_backfill, fairtree/$site_backfill; depth 500, horizon 1 d, bf_resolution 60 s, sched period $site_sched_period s)")
# count STATUS SET: one judged line of SET.
count() {
	if [ "$1" -eq 0 ]; then
		passes=$((passes + 1))
		set_passes[$2]=$((set_passes[$2] + 1))
	else
		fails=$((fails + 1))
		set_fails[$2]=$((set_fails[$2] + 1))
	fi
}

# judge_set TABLE SET: the five goal lines of one candidate against one baseline set
# (bench/goal_lines.py judges them: column 3 is the candidate, columns 1 and 2 the baselines).
judge_set() {
	local judged verdict
	judged=$(python3 "$repo/bench/goal_lines.py" table "$1") || {
		echo "fairness_goal: goal_lines.py could not judge $1" >&2
		count 1 "$2"
		return
	}
	echo "$judged"
	while read -r verdict; do
		[ "$verdict" = PASS ]
		count $? "$2"
	done < <(awk '{ print $NF }' <<<"$judged")
}

candidates=("$default_policy" ${CANDIDATES:-})
read -r -a baseline_options <<<"${BASELINE_OPTIONS:-}"
read -r -a every_run <<<"${CAMPSIM_ARGS:-}"
read -r -a loads <<<"${LOADS:-log 0.85 0.95}"
for trace in "${traces[@]}"; do
	for load in "${loads[@]}"; do
		name=$(basename "$trace" .swf.gz)
		load_option=()
		if [ "$load" != log ]; then
			name="$name@$load"
			load_option=(--load "$load")
		fi
		# The baselines once per trace and load and set; each candidate alone against them.
		failed=no
		for set in "${sets[@]}"; do
			base=$out/$name/baselines-$set
			mkdir -p "$base"
			if [ "$set" = easy ]; then
				run=(--policy "fairshare/easy,fairtree/easy")
			elif [ "$set" = easy1d ]; then
				run=(--policy "fairshare/easy,fairtree/easy" --fs-half-life 86400)
			else
				run=(--policy "fairshare/$site_backfill,fairtree/$site_backfill" --depth 500
					--horizon 86400 --bf-resolution 60 --sched-period "$site_sched_period")
			fi
			if ! "$campsim" run --swf "$trace" "${run[@]}" "${baseline_options[@]}" "${every_run[@]}" "${load_option[@]}" \
				--out "$base" >"$base/log" 2>&1; then
				echo "fairness_goal: campsim failed on $name (see $base/log)" >&2
				fails=$((fails + 1))
				failed=yes
			fi
		done
		[ $failed = no ] || continue
		for index in "${!candidates[@]}"; do
			candidate=${candidates[$index]}
			policy=${candidate%%;*}
			parameters=""
			[[ $candidate == *";"* ]] && parameters=${candidate#*;}
			options=()
			if [[ $parameters == *";"* ]]; then
				IFS=, read -r -a named <<<"${parameters#*;}"
				for option in "${named[@]}"; do options+=("--${option%%=*}" "${option#*=}"); done
				parameters=${parameters%%;*}
			fi
			dir=$out/$name/$index
			mkdir -p "$dir"
			started=$(date +%s.%N)
			if ! "$campsim" run --swf "$trace" --policy "$policy" "${load_option[@]}" \
				${parameters:+--parameters "$parameters"} "${options[@]}" "${every_run[@]}" \
				--out "$dir" >"$dir/log" 2>&1; then
				echo "fairness_goal: campsim failed on $name (see $dir/log)" >&2
				fails=$((fails + 1))
				continue
			fi
			wall=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
			for set in "${sets[@]}"; do
				# Column 3 is the candidate, columns 1 and 2 the baselines, as the judges read.
				table=$dir/goal-$set.txt
				paste -d' ' "$out/$name/baselines-$set/comparison.txt" \
					<(awk '{ print $2 }' "$dir/comparison.txt") >"$table"
				echo "== $name: $policy${parameters:+ ($parameters)}${options[*]:+ ${options[*]}} against ${set_label[$set]} (campsim ${wall} s wall)"
				judge_set "$table" "$set"
			done
		done
	done
done
for set in "${sets[@]}"; do
	echo "fairness_goal: against $set: ${set_passes[$set]} PASS, ${set_fails[$set]} FAIL"
done
echo "fairness_goal: $passes PASS, $fails FAIL"
