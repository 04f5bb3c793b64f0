#!/usr/bin/env bash
# The evaluation in one command (issue 12): every trace in a directory, at the log's own load and
# at scaled offered loads, under a list of policies, in one table (compare.txt), one JSON file
# (compare.json) and PNG plots (compare-<load>.png, with gnuplot): utilization, makespan, bounded
# campaign stretch (flow over max(campaign lower bound, tau), tau = 10 s) p50 / p95 / max for all
# campaigns, light users (bottom half by CPU-seconds, and by job count) and heavy users (top 10 %),
# the p95 over users of each user's worst campaign, and plain campaign stretch; every line also
# gives light users' and all campaigns' p95 as ours / fairshare and ours / fairtree.
#
#   bench/compare.sh [TRACE.swf[.gz] ...]      (default: every *.swf.gz in TRACE_DIR)
#
# Env: TRACE_DIR ($repo/data/traces), POLICIES (campsim --policy list; default below), LOADS
# ("log 0.85 0.95": the log's own, then offered loads for campsim's --load, which scales
# inter-arrival times; campaigns are detected once on the log and scored alike at every load),
# PARAMETERS (--parameters for the core policies), CAMPSIM_ARGS (more campsim options, e.g. a
# window: "--from 0 --to 864000"), SYNTHETIC (campsim generators, e.g. "ostrich-profiles
# faircamp-zipf": run for every seed in SEEDS, default "1 2 3 4 5", with SYNTHETIC_ARGS such as
# "--users 20 --job-count 10000"; the table gives their p95 lines as mean +- the 95 % interval,
# Student's t over the seeds), OUT (default ./compare-out), BUILD_DIR ($repo/build) or CAMPSIM,
# JOBS (campsim runs at once, default 2: every policy of every trace, load and seed is a run of
# its own, the costliest first). OUT/timing.txt gives the stages' wall times and each run's.
# The baselines are campsim's fairshare and fairtree (Slurm's classic fair-share and Fair Tree,
# 7-day half-life, doc/man/campsim.1); ratios are printed when the policy list holds them.
# SITE=yes adds the site's sched/backfill baselines (bench/fairness_goal.sh, doc/fairness-results.md):
# fairshare/conservative and fairtree/conservative with Slurm 22.05's backfill defaults
# (--depth 500 --horizon 86400 --bf-resolution 60; the resolution acts only with
# SITE_BACKFILL=slurm_backfill, campsim's sched/backfill model), in runs of their own (rows
# fairshare/site and fairtree/site), and a column l95/site: light users' p95 over the better of
# the two. HALF_LIFE_1D=yes adds the sensitivity lines for a one-day half-life: fairshare/easy and
# fairtree/easy with PriorityDecayHalfLife=1-0 (--fs-half-life 86400), in runs of their own (rows
# fairshare/easy-1d and fairtree/easy-1d), and columns l95/1d and a95/1d: light users' and all
# campaigns' p95 over the better of the two.
# OUT/goal.txt: issue 12's goal lines (bench/goal_lines.py) of GOAL_POLICY (default
# ostrich/conservative, what the plugins run with no parameters) at every trace and load, against
# each baseline set the run holds (easy, and site and easy-1d with SITE and HALF_LIFE_1D), each
# line PASS or FAIL, and per goal line how many trace-loads are better, equal or worse than
# fair-share; the counts are printed after the table.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$repo/build}
campsim=${CAMPSIM:-$build/src/sim/campsim}
trace_dir=${TRACE_DIR:-$repo/data/traces}
policies=${POLICIES:-fcfs/no_backfill,fairshare/easy,fairtree/easy,ostrich/conservative,ostrich/per_campaign,faircamp/per_campaign}
read -r -a loads <<<"${LOADS:-log 0.85 0.95}"
read -r -a extra <<<"${CAMPSIM_ARGS:-}"
out=${OUT:-compare-out}
[ -x "$campsim" ] || { echo "compare: $campsim not built (BUILD_DIR=$build)" >&2; exit 1; }
read -r -a synthetic <<<"${SYNTHETIC:-}"
read -r -a seeds <<<"${SEEDS:-1 2 3 4 5}"
read -r -a synthetic_args <<<"${SYNTHETIC_ARGS:-}"
traces=("$@")
if [ ${#traces[@]} -eq 0 ]; then
	for trace in "$trace_dir"/*.swf.gz; do [ -e "$trace" ] && traces+=("$trace"); done
fi
[ ${#traces[@]} -gt 0 ] || [ ${#synthetic[@]} -gt 0 ] ||
	{ echo "compare: no trace given or found in $trace_dir, and no SYNTHETIC workload" >&2; exit 1; }
mkdir -p "$out/runs" "$out/synthetic"

# Every campsim run is split into one run per policy (a policy's schedule and scores do not depend on
# the other policies of a run), and JOBS of them run at once, the costliest first (largest trace,
# highest load, conservative planning), so both cores stay busy until the end. Each run writes to
# DIR/pN; merge_runs then puts DIR/comparison.csv and DIR/campsim.txt together in policy order.
started=$(date +%s.%N)
jobs_at_once=${JOBS:-2}
IFS=, read -r -a policy_list <<<"$policies"
site_backfill=${SITE_BACKFILL:-conservative}
site_policies=("fairshare/$site_backfill" "fairtree/$site_backfill")
site_args=(--depth 500 --horizon 86400 --bf-resolution 60)
day_policies=(fairshare/easy fairtree/easy)
day_args=(--fs-half-life 86400)
declare -a queue # "COST<TAB>DIR<TAB>arguments separated by the unit separator"
sep=$'\x1f'
# weigh_trace TRACE: jobs^2 / CPUs (the header's MaxProcs), what a kept plan's cost grows with:
# a queue as deep as the jobs per CPU, planned at every job's events (on the shared traces it
# orders the default's runs as their CPU seconds do: LPC-EGEE 560 s at 0.95, HPC2N 107 s, the
# SP2 logs 3-13 s; the file's size put HPC2N first and LPC-EGEE's longest run late). The file's
# size in kB without a MaxProcs line.
declare -A trace_weights
weigh_trace() { # TRACE: into trace_weights (not in a subshell, so it is kept)
	trace_weights[$1]=$(zcat -f "$1" 2>/dev/null | awk -v size="$(stat -c %s "$1" 2>/dev/null || echo 1000)" '
		/^;/ { if (tolower($0) ~ /maxprocs:/) { sub(/.*[Mm][Aa][Xx][Pp][Rr][Oo][Cc][Ss]:[ \t]*/, ""); procs = $1 + 0 }; next }
		NF { jobs++ }
		END { if (procs > 0) printf "%d\n", jobs * jobs / procs / 1000 + 1; else printf "%d\n", size / 1000 + 1 }')
}
# cost TRACE LOAD POLICY: a rough order of a run's cost, for running the costliest first.
cost() {
	local size load_rank=1 policy_rank=1
	size=${trace_weights[$1]:-1}
	# Offered loads: 0.85 ranks 3, 0.95 4, the log's own (0.24 to 0.8 on the shared traces) 2.
	[ "$2" = log ] && load_rank=2 || load_rank=$(awk -v offered="$2" 'BEGIN { printf "%d", offered * 4 + 0.5 }')
	case $3 in *conservative* | *per_campaign*) policy_rank=3 ;; fairshare* | fairtree*) policy_rank=2 ;; esac
	echo $((size * load_rank * policy_rank))
}
enqueue() { # DIR COST ARGUMENTS...
	local dir=$1 weight=$2
	shift 2
	local joined
	joined=$(printf "%s$sep" "$@")
	queue+=("$weight	$dir	$joined")
}
run_dirs=()
# enqueue_set FOLDER TRACE NAME LOAD POLICY,... [OPTION...]: one run per policy of a set into
# OUT/FOLDER/NAME@LOAD, with the set's own campsim options.
enqueue_set() {
	local folder=$1 trace=$2 name=$3 load=$4 set_policies=$5 index
	shift 5
	local load_option=() list
	[ "$load" = log ] || load_option=(--load "$load")
	IFS=, read -r -a list <<<"$set_policies"
	local dir=$out/$folder/$name@$load
	run_dirs+=("$dir:$set_policies")
	for index in "${!list[@]}"; do
		enqueue "$dir/p$index" "$(cost "$trace" "$load" "${list[$index]}")" \
			run --swf "$trace" --policy "${list[$index]}" "$@" "${load_option[@]}" "${extra[@]}"
	done
}
for trace in "${traces[@]+"${traces[@]}"}"; do
	weigh_trace "$trace"
	name=$(basename "$trace")
	name=${name%.gz}
	name=${name%.swf}
	for load in "${loads[@]}"; do
		enqueue_set runs "$trace" "$name" "$load" "$policies" ${PARAMETERS:+--parameters "$PARAMETERS"}
		[ "${SITE:-no}" = yes ] &&
			enqueue_set site "$trace" "$name" "$load" "$(IFS=,; echo "${site_policies[*]}")" "${site_args[@]}"
		[ "${HALF_LIFE_1D:-no}" = yes ] &&
			enqueue_set halflife1d "$trace" "$name" "$load" "$(IFS=,; echo "${day_policies[*]}")" "${day_args[@]}"
	done
done
# Synthetic workloads (closed loop, the log's load does not apply): every seed, for intervals.
for generator in "${synthetic[@]+"${synthetic[@]}"}"; do
	for seed in "${seeds[@]}"; do
		dir=$out/synthetic/$generator@$seed
		run_dirs+=("$dir:$policies")
		for index in "${!policy_list[@]}"; do
			enqueue "$dir/p$index" 1 run --generate "$generator" --seed "$seed" \
				--policy "${policy_list[$index]}" "${synthetic_args[@]}" \
				${PARAMETERS:+--parameters "$PARAMETERS"}
		done
	done
done

# run_one DIR ARGUMENTS...: one campsim run into DIR, its wall time in DIR/wall_s and its CPU
# seconds (user + system, what a quiet machine's wall time follows) in DIR/cpu_s.
run_one() {
	local dir=$1 begin
	shift
	mkdir -p "$dir"
	begin=$(date +%s.%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f "%U %S" -o "$dir/time" "$campsim" "$@" --out "$dir" >"$dir/campsim.txt" 2>&1 ||
			return 1
		awk '{ printf "%.1f\n", $1 + $2 }' "$dir/time" >"$dir/cpu_s"
	else
		"$campsim" "$@" --out "$dir" >"$dir/campsim.txt" 2>&1 || return 1
	fi
	awk -v a="$begin" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f\n", b - a }' >"$dir/wall_s"
}
failed=0
running=0
while IFS=$'\t' read -r _ dir joined; do
	IFS=$sep read -r -a arguments <<<"$joined"
	if [ "$running" -ge "$jobs_at_once" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	echo "compare: ${dir#"$out"/}: ${arguments[*]:1}" >&2
	run_one "$dir" "${arguments[@]}" || { echo "compare: campsim failed (see $dir/campsim.txt)" >&2; exit 1; } &
	running=$((running + 1))
done < <(printf '%s\n' "${queue[@]+"${queue[@]}"}" | sort -t$'\t' -k1,1nr -s)
while [ "$running" -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
[ $failed = 0 ] || { echo "compare: a campsim run failed (see above)" >&2; exit 1; }
simulated=$(date +%s.%N)

# merge_runs: each run directory's comparison.csv (metric column, then one column per policy in
# the policy list's order) and campsim.txt from its one-policy runs.
python3 - "${run_dirs[@]+"${run_dirs[@]}"}" <<'EOF_MERGE'
import csv, os, sys
for spec in sys.argv[1:]:
    folder, _, policies = spec.rpartition(":")
    parts = [os.path.join(folder, f"p{i}") for i in range(len(policies.split(",")))]
    merged = None
    for part in parts:
        with open(os.path.join(part, "comparison.csv"), newline="") as f:
            rows = list(csv.reader(f))
        if merged is None:
            merged = [row[:1] for row in rows]
        if [row[0] for row in rows] != [row[0] for row in merged]:
            sys.exit(f"compare: {part}/comparison.csv lists other metrics than {parts[0]}")
        for row, into in zip(rows, merged):
            into.extend(row[1:])
    with open(os.path.join(folder, "comparison.csv"), "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(merged)
    with open(os.path.join(folder, "campsim.txt"), "w") as f:
        for part in parts:
            f.write(open(os.path.join(part, "campsim.txt")).read())
EOF_MERGE

# One table, the JSON, and the gnuplot data from every run's comparison.csv.
python3 - "$out" "${loads[@]}" <<'EOF'
import csv, json, os, sys

out, loads = sys.argv[1], sys.argv[2:]
columns = [  # (header, metric)
    ("util", "utilization"), ("makespan_s", "makespan_s"),
    ("all50", "bounded_campaign_stretch.all.p50"), ("all95", "bounded_campaign_stretch.all.p95"),
    ("allmax", "bounded_campaign_stretch.all.max"),
    ("light50", "bounded_campaign_stretch.light_cpu.p50"),
    ("light95", "bounded_campaign_stretch.light_cpu.p95"),
    ("lightmax", "bounded_campaign_stretch.light_cpu.max"),
    ("ljobs95", "bounded_campaign_stretch.light_jobs.p95"),
    ("heavy50", "bounded_campaign_stretch.heavy_cpu.p50"),
    ("heavy95", "bounded_campaign_stretch.heavy_cpu.p95"),
    ("heavymax", "bounded_campaign_stretch.heavy_cpu.max"),
    ("worst95", "bounded_campaign_stretch.all.user_worst.p95"),
    ("plain95", "campaign_stretch.p95"),
]
def read_runs(folder):
    """Every policy's metrics of every run in out/folder/<name>@<load or seed>."""
    found = []
    for entry in sorted(os.listdir(os.path.join(out, folder))):
        trace, _, load = entry.rpartition("@")
        with open(os.path.join(out, folder, entry, "comparison.csv")) as f:
            rows = list(csv.reader(f))
        policies = rows[0][1:]
        values = {row[0]: row[1:] for row in rows[1:]}
        for i, policy in enumerate(policies):
            metrics = {}
            for _, metric in columns:
                text = values.get(metric, [""] * len(policies))[i]
                metrics[metric] = float(text) if text not in ("", "nan") else None
            found.append({"trace": trace, "load": load, "policy": policy, "metrics": metrics})
    return found

runs = read_runs("runs")
# The extra baseline sets, each in runs of its own: folder, the suffix its rows' policies get.
extra_sets = [("site", "/site"), ("halflife1d", "/easy-1d")]
present = {}
for folder, suffix in extra_sets:
    found = read_runs(folder) if os.path.isdir(os.path.join(out, folder)) else []
    for run in found:
        run["policy"] = run["policy"].split("/")[0] + suffix
    present[folder] = bool(found)
    runs += found
site = present["site"]
def is_extra(policy):
    return any(policy.endswith(suffix) for _, suffix in extra_sets)

runs.sort(key=lambda r: (r["trace"], loads.index(r["load"]) if r["load"] in loads else len(loads)))


def value(trace, load, policy, metric):
    for run in runs:
        if (run["trace"], run["load"], run["policy"]) == (trace, load, policy):
            return run["metrics"][metric]
    return None

def baseline(run, prefix, metric):
    policy = next((p for p in sorted({r["policy"] for r in runs})
                   if p.split("/")[0] == prefix and not is_extra(p)), None)
    base = value(run["trace"], run["load"], policy, metric) if policy else None
    ours = run["metrics"][metric]
    return ours / base if ours is not None and base else None

light, allc = "bounded_campaign_stretch.light_cpu.p95", "bounded_campaign_stretch.all.p95"
for run in runs:
    run["ratios"] = {f"{name}_vs_{prefix}": baseline(run, prefix, metric)
                     for name, metric in (("light95", light), ("all95", allc))
                     for prefix in ("fairshare", "fairtree")}
    for name, metric, suffix, key in (("light95", light, "/site", "site"),
                                      ("light95", light, "/easy-1d", "1d"),
                                      ("all95", allc, "/easy-1d", "1d")):
        bases = [value(run["trace"], run["load"], p + suffix, metric) for p in ("fairshare", "fairtree")]
        bases = [b for b in bases if b]
        ours = run["metrics"][metric]
        run["ratios"][f"{name}_vs_{key}"] = ours / min(bases) if bases and ours is not None else None
ratio_columns = [("l95/fs", "light95_vs_fairshare"), ("l95/ft", "light95_vs_fairtree"),
                 ("a95/fs", "all95_vs_fairshare"), ("a95/ft", "all95_vs_fairtree")]
if site:
    ratio_columns.append(("l95/site", "light95_vs_site"))
if present["halflife1d"]:
    ratio_columns += [("l95/1d", "light95_vs_1d"), ("a95/1d", "all95_vs_1d")]

def cell(number, width):
    if number is None:
        return "-".rjust(width)
    if abs(number) >= 10000:
        return f"{number:.0f}".rjust(width)
    return f"{number:.3g}".rjust(width)

header = f"{'trace':<26} {'load':>5} {'policy':<22}" + "".join(f"{h:>11}" for h, _ in columns)
header += "".join(f"{h:>9}" for h, _ in ratio_columns)
lines = [header]
for run in runs:
    line = f"{run['trace'][:26]:<26} {run['load']:>5} {run['policy'][:22]:<22}"
    line += "".join(cell(run["metrics"][m], 11) for _, m in columns)
    line += "".join(cell(run["ratios"][k], 9) for _, k in ratio_columns)
    lines.append(line)
legend = ("columns: bounded campaign stretch (tau 10 s) p50/p95/max of all campaigns (all), light "
          "users by CPU-seconds (light) and by job count (ljobs), heavy users (heavy); worst95: p95 "
          "over users of their worst campaign; plain95: plain campaign stretch p95; l95/fs: light "
          "p95 ours / fairshare, ft: / fairtree; a95: all campaigns' p95" +
          ("; l95/site: light p95 ours / the better of fairshare/site and fairtree/site "
           "(sched/backfill's defaults)" if site else "") +
          ("; l95/1d, a95/1d: light and all campaigns' p95 ours / the better of fairshare/easy-1d "
           "and fairtree/easy-1d (a one-day half-life)" if present["halflife1d"] else ""))
# Synthetic workloads: mean and 95 % interval over the seeds (Student's t, n - 1 degrees).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
synthetic = []
for generator in sorted({r["trace"] for r in read_runs("synthetic")}):
    seeded = [r for r in read_runs("synthetic") if r["trace"] == generator]
    for policy in dict.fromkeys(r["policy"] for r in seeded):
        summary = {"workload": generator, "policy": policy, "seeds": 0, "metrics": {}}
        for _, metric in columns:
            xs = [r["metrics"][metric] for r in seeded if r["policy"] == policy and r["metrics"][metric] is not None]
            summary["seeds"] = max(summary["seeds"], len(xs))
            if not xs:
                continue
            mean = sum(xs) / len(xs)
            half = 0.0
            if len(xs) > 1:
                sd = (sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) ** 0.5
                half = T95.get(len(xs) - 1, 1.96) * sd / len(xs) ** 0.5
            summary["metrics"][metric] = {"mean": mean, "ci95": half}
        synthetic.append(summary)
if synthetic:
    lines.append("")
    lines.append(f"{'synthetic (mean +- 95 %)':<26} {'seeds':>5} {'policy':<22}" +
                 "".join(f"{h:>17}" for h, m in columns if m.startswith("bounded") and ".p95" in m))
    for row in synthetic:
        line = f"{row['workload'][:26]:<26} {row['seeds']:>5} {row['policy'][:22]:<22}"
        for _, metric in columns:
            if not (metric.startswith("bounded") and ".p95" in metric):
                continue
            cellv = row["metrics"].get(metric)
            line += (f"{cellv['mean']:.3g} +- {cellv['ci95']:.2g}" if cellv else "-").rjust(17)
        lines.append(line)
with open(os.path.join(out, "compare.txt"), "w") as f:
    f.write("\n".join(lines) + "\n" + legend + "\n")
with open(os.path.join(out, "compare.json"), "w") as f:
    json.dump({"columns": dict(columns), "runs": runs, "synthetic": synthetic}, f, indent=1)
# gnuplot data: per load, light users' p95 against the better fair-share baseline, one row per
# trace, one column per policy.
policies = []
for run in runs:
    if run["policy"] not in policies:
        policies.append(run["policy"])
for load in loads:
    traces = sorted({r["trace"] for r in runs if r["load"] == load})
    with open(os.path.join(out, f"light95-{load}.dat"), "w") as f:
        f.write("trace " + " ".join(p.replace(" ", "_") for p in policies) + "\n")
        for trace in traces:
            cells = []
            for policy in policies:
                run = next(r for r in runs if (r["trace"], r["load"], r["policy"]) == (trace, load, policy))
                best = None
                bases = [value(trace, load, p, light) for p in policies
                         if p.split("/")[0] in ("fairshare", "fairtree") and not is_extra(p)]
                bases = [b for b in bases if b]
                if bases and run["metrics"][light] is not None:
                    best = run["metrics"][light] / min(bases)
                cells.append("nan" if best is None else f"{best:.4f}")
            f.write(trace.split("-")[0] + " " + " ".join(cells) + "\n")
print("\n".join(lines))
print(legend)
EOF

goal_policy=${GOAL_POLICY:-ostrich/conservative}
if [[ ",$policies," == *",$goal_policy,"* ]]; then
	if python3 "$repo/bench/goal_lines.py" compare "$out/compare.json" --policy "$goal_policy" >"$out/goal.txt"; then
		grep -v -e '^  ' -e ": $goal_policy\$" "$out/goal.txt" || true
	else
		echo "compare: the goal lines of $goal_policy were not judged (no fair-share pair beside it)" >&2
	fi
fi
tabled=$(date +%s.%N)
if command -v gnuplot >/dev/null; then
	for load in "${loads[@]}"; do
		(cd "$out" && gnuplot -e "set terminal pngcairo size 900,500 noenhanced font 'Sans,10';
			set output 'compare-$load.png';
			set title \"light users' p95 bounded campaign stretch / the better fair-share (load $load)\";
			set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8;
			set key outside right; set logscale y; set yrange [0.1:*]; set grid ytics; set xtics nomirror;
			plot for [i=2:*] 'light95-$load.dat' using i:xtic(1) title columnhead(i), 1 with lines lc 'black' dt 2 notitle, 0.7 with lines lc 'red' dt 3 title 'goal 0.7'" \
			2>"gnuplot-$load.log") || echo "compare: gnuplot failed for load $load (see $out/gnuplot-$load.log)" >&2
	done
else
	echo "compare: gnuplot not found (install gnuplot-nox): no PNG plots" >&2
fi
# Where the time went: the stages' wall times, and each trace and load's campsim runs (wall and
# CPU seconds added up; the runs overlap, JOBS at once; "policy wall (CPU)" per run).
python3 - "$out" "$started" "$simulated" "$tabled" "$(date +%s.%N)" "$jobs_at_once" <<'EOF_TIMES' | tee "$out/timing.txt" >&2
import os, sys
out, started, simulated, tabled, ended, jobs = sys.argv[1], *map(float, sys.argv[2:6]), sys.argv[6]
print(f"compare: stages: campsim runs {simulated - started:.1f} s ({jobs} at once), "
      f"merge and table {tabled - simulated:.1f} s, plots {ended - tabled:.1f} s; "
      f"total {ended - started:.1f} s")
total_cpu = 0.0
for folder in ("runs", "site", "halflife1d", "synthetic"):
    if not os.path.isdir(os.path.join(out, folder)):
        continue
    for entry in sorted(os.listdir(os.path.join(out, folder))):
        walls = []
        for part in sorted(os.listdir(os.path.join(out, folder, entry))):
            path = os.path.join(out, folder, entry, part)
            if os.path.isfile(os.path.join(path, "wall_s")):
                policy = open(os.path.join(path, "comparison.csv")).readline().strip().split(",")[1]
                cpu = os.path.join(path, "cpu_s")
                cpu = float(open(cpu).read()) if os.path.isfile(cpu) else float("nan")
                walls.append((policy, float(open(os.path.join(path, "wall_s")).read()), cpu))
                total_cpu += cpu
        if walls:
            print(f"  {folder}/{entry}: wall {sum(w for _, w, _ in walls):.1f} s, CPU "
                  f"{sum(c for _, _, c in walls):.1f} s: " +
                  ", ".join(f"{p} {w:.1f} ({c:.1f})" for p, w, c in walls))
print(f"compare: campsim CPU {total_cpu:.1f} s in all: on {jobs} idle cores at least "
      f"{total_cpu / int(jobs):.1f} s")
EOF_TIMES
echo "compare: $out/compare.txt, $out/compare.json, goal.txt, PNG per load, timing.txt" >&2
