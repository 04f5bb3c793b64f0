#!/usr/bin/env python3
"""The replay experiments' table and plots (doc/replay-results.md), from the bundles of
scripts/replay_experiments.sh.

  scripts/replay_report.py RESULTS_DIR [--png-dir DIR] [--campsim PATH] [--repredict]

Reads every bundle RESULTS_DIR/WINDOW-SETUP-rRUN that finished (metrics in report/), and prints
per window its load and three tables: each set-up observed on the cluster (the mean over its
runs, the run count in the header); campsim's prediction of each set-up from the same sacct
export; and set-up a (Slurm's Fair Tree) against campsim's fair-share baselines (fairtree/easy,
fairshare/easy), on a's export (replay time) and on a's job list in trace time (times multiplied
back by the compression, so that the baselines' 7-day half-life and 300 s calc period mean what
they mean on the trace). With --png-dir, one PNG per window (gnuplot): the bounded campaign
stretch p50/p95/max of all, light and heavy users per set-up, and the CDF of the campaigns'
bounded stretch per set-up. --repredict: the predictions made again as scripts/replay.py makes
them now (--rescore), not those stored in the bundles. campsim: --campsim, else $CAMPSIM, else
BUILD_DIR's.
"""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import replay  # its prediction command and fidelity goals (this script's folder)

SETUP_NAMES = {
    "a": "multifactor Fair Tree + backfill",
    "b": "campaign OStrich + backfill",
    "c": "campaign OStrich + sched/campaign",
    "d": "campaign FairCamp + sched/campaign",
}
# (row label, comparison.csv metric)
ROWS = [
    ("stretch all p50", "bounded_campaign_stretch.all.p50"),
    ("stretch all p95", "bounded_campaign_stretch.all.p95"),
    ("stretch all max", "bounded_campaign_stretch.all.max"),
    ("stretch light p50", "bounded_campaign_stretch.light_cpu.p50"),
    ("stretch light p95", "bounded_campaign_stretch.light_cpu.p95"),
    ("stretch light max", "bounded_campaign_stretch.light_cpu.max"),
    ("stretch heavy p50", "bounded_campaign_stretch.heavy_cpu.p50"),
    ("stretch heavy p95", "bounded_campaign_stretch.heavy_cpu.p95"),
    ("stretch heavy max", "bounded_campaign_stretch.heavy_cpu.max"),
    ("user worst p95, all", "bounded_campaign_stretch.all.user_worst.p95"),
    ("user worst p95, light", "bounded_campaign_stretch.light_cpu.user_worst.p95"),
    ("user worst p95, heavy", "bounded_campaign_stretch.heavy_cpu.user_worst.p95"),
    ("utilization", "utilization"),
    ("bounded slowdown mean", "bounded_slowdown.mean"),
    ("wait mean (replay s)", "wait_s.mean"),
    ("makespan (replay s)", "makespan_s"),
]
BUNDLE_NAME = re.compile(
    r"^(?P<window>[a-z0-9_]+)-(?P<setup>[abcd]|c-room[0-9]+)-r(?P<run>[0-9]+)$")


def setup_name(setup):
    """The plot's name of a set-up: c-roomP is c with P % of the CPUs kept for short jobs."""
    if setup.startswith("c-room"):
        return SETUP_NAMES["c"] + ", room %s %%" % setup[len("c-room"):]
    return SETUP_NAMES[setup]


def die(message):
    print("replay_report: " + message, file=sys.stderr)
    sys.exit(1)


def read_comparison(path):
    """{column label: {metric: value}} of a campsim comparison.csv."""
    with open(path) as handle:
        rows = list(csv.reader(handle))
    labels = rows[0][1:]
    table = {label: {} for label in labels}
    for row in rows[1:]:
        for label, value in zip(labels, row[1:]):
            try:
                table[label][row[0]] = float(value)
            except ValueError:
                pass
    return table


def find_bundles(results):
    """{window: {setup: [bundle dirs, by run]}} of the finished bundles."""
    found = {}
    for name in sorted(os.listdir(results)):
        match = BUNDLE_NAME.match(name)
        path = os.path.join(results, name)
        if not match or not os.path.isfile(os.path.join(path, "report", "comparison.csv")):
            continue
        runs = found.setdefault(match["window"], {}).setdefault(match["setup"], [])
        runs.append((int(match["run"]), path))
    return {w: {s: [p for _, p in sorted(r)] for s, r in setups.items()}
            for w, setups in found.items()}


def observed_and_predicted(bundle):
    table = read_comparison(os.path.join(bundle, "report", "comparison.csv"))
    observed = [label for label in table if label.startswith("observed")]
    if len(observed) != 1 or len(table) != 2:
        die("%s: report/comparison.csv has not one observed and one predicted column" % bundle)
    predicted = [label for label in table if label != observed[0]][0]
    return table[observed[0]], table[predicted], predicted


def campsim_binary(given):
    if given:
        return given
    if os.environ.get("CAMPSIM"):
        return os.environ["CAMPSIM"]
    build = os.environ.get("BUILD_DIR", os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "build"))
    return os.path.join(build, "src", "sim", "campsim")


def fairshare_prediction(bundle, campsim, scratch):
    """campsim's fair-share baseline (fairshare/easy) on set-up a's sacct export, scored as
    replay.py scored the bundle."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        command = json.load(handle)["metrics_command"]
    policy = command.index("--policy")
    out = command.index("--out")
    command = list(command)
    command[policy + 1] = "fairshare/easy"
    command[out + 1] = os.path.join(scratch, os.path.basename(bundle))
    done = subprocess.run([campsim] + command, capture_output=True, text=True)
    if done.returncode != 0:
        die("campsim %s failed: %s" % (" ".join(command), done.stderr.strip()[-400:]))
    table = read_comparison(os.path.join(command[out + 1], "comparison.csv"))
    return table["fairshare/easy"]


def fidelity_over_runs(setups, observed, predicted):
    """Issue 17 point 3 over several runs: each set-up's mean observed value against its mean
    prediction (one run is one draw of the cluster's timing; the mean is what a prediction can
    be held to), each metric against replay.py's goal. observed and predicted: {setup: [one
    {metric: value} per run]}."""
    columns = sorted(setups)
    lines = ["Fidelity over the runs: each set-up's mean observed against its mean predicted "
             "value (difference in % of the observed; goal: medians and utilization 10 %, "
             "p95 20 %):", "",
             "| fidelity | goal | " + " | ".join("%s (%d run%s)" % (
                 s, len(setups[s]), "" if len(setups[s]) == 1 else "s") for s in columns) + " |",
             "|---" * (len(columns) + 2) + "|"]
    met = {s: [0, 0] for s in columns}
    for metric, goal in replay.FIDELITY_METRICS:
        if goal is None:
            continue
        cells = []
        for setup in columns:
            o = mean([run.get(metric, 0) for run in observed[setup]])
            p = mean([run.get(metric, 0) for run in predicted[setup]])
            diff, _, inside = replay.fidelity_verdict(metric, o, p)
            met[setup][0] += 1 if inside else 0
            met[setup][1] += 1
            cells.append("%s / %s (%s %%%s)" % (number(o), number(p), diff,
                                                 "" if inside else ", outside"))
        lines.append("| %s | %d %% | %s |" % (metric, round(100 * goal), " | ".join(cells)))
    lines += ["", "Goals met over the runs: " + ", ".join(
        "%s %d of %d" % (s, met[s][0], met[s][1]) for s in columns) + "."]
    return lines


def node_model_prediction(bundle, campsim, scratch):
    """campsim's prediction of the bundle's set-up as replay.py predicts it now (its
    metrics_command: for a, Fair Tree with sched/backfill's whole-node reservations in whole
    bf_resolution on the cluster's nodes; for c and d, sched/campaign's planner on them), on
    the bundle's sacct export: what --rescore gives."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        saved = json.load(handle)
    out = os.path.join(scratch, os.path.basename(bundle) + "-nodes")
    command = replay.metrics_command(saved["parameters"], saved["slurm_conf_lines"],
                                     os.path.join(bundle, "sacct.txt"), out,
                                     saved.get("summary", {}).get("slurmctld_started"),
                                     saved.get("ranks_at_begin", False))
    command[0] = campsim
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        die("campsim %s failed: %s" % (" ".join(command[1:]), done.stderr.strip()[-400:]))
    table = read_comparison(os.path.join(out, "comparison.csv"))
    return [values for label, values in table.items() if not label.startswith("observed")][0]


def markdown_table(columns):
    """Rows ROWS, one column per (header, {metric: value})."""
    lines = ["| metric | " + " | ".join(h for h, _ in columns) + " |",
             "|---|" + "---|" * len(columns)]
    for label, metric in ROWS:
        lines.append("| %s | %s |" % (label, " | ".join(number(c.get(metric))
                                                       for _, c in columns)))
    return lines


def trace_time_prediction(bundle, campsim, scratch):
    """campsim's fair-share baselines (fairtree/easy, fairshare/easy) on the bundle's job list
    with its times multiplied back by the compression, so that the baselines' half-life, max
    age and calc period mean what they mean on the trace; {policy: {metric: value}}, with the
    times in the table (wait, makespan) divided back to replay seconds."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        params = json.load(handle)["parameters"]
    factor = params["compress"]
    stem = os.path.join(scratch, os.path.basename(bundle) + "-trace-time")
    with open(os.path.join(bundle, "jobs.csv")) as handle, open(stem + ".csv", "w") as out:
        out.write("id,user,submit,cpus,limit,runtime\n")
        for job in csv.DictReader(handle):
            out.write("%s,%s,%d,%s,%d,%d\n" % (
                job["id"], job["user"], round(int(job["submit"]) * factor), job["cpus"],
                round(int(job["limit_min"]) * 60 * factor),
                round(int(job["runtime"]) * factor)))
    command = [campsim, "run", "--jobs", stem + ".csv", "--cpus",
               str(params["nodes"] * params["node_cpus"]), "--policy",
               "fairtree/easy,fairshare/easy", "--tau", "10", "--out", stem]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        die("%s failed: %s" % (" ".join(command), done.stderr.strip()[-400:]))
    table = read_comparison(os.path.join(stem, "comparison.csv"))
    for values in table.values():
        for metric in ("wait_s.mean", "makespan_s"):
            if metric in values:
                values[metric] /= factor
    return table


def mean(values):
    return sum(values) / len(values)


def number(value):
    if value is None:
        return "-"
    if abs(value) >= 100:
        return "%.0f" % value
    return ("%.3g" % value) if abs(value) < 10 else ("%.1f" % value)


def window_load(bundle):
    """The offered load of the job list: CPU-seconds over cluster CPUs x the submission span,
    and the jobs, users and compression."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        params = json.load(handle)["parameters"]
    with open(os.path.join(bundle, "jobs.csv")) as handle:
        jobs = list(csv.DictReader(handle))
    cpus = params["nodes"] * params["node_cpus"]
    submits = [int(j["submit"]) for j in jobs]
    span = max(1, max(submits) - min(submits))
    work = sum(int(j["cpus"]) * int(j["runtime"]) for j in jobs)
    return {"jobs": len(jobs), "users": len({j["user"] for j in jobs}),
            "compress": params["compress"], "span_s": span, "cpus": cpus,
            "load": work / (cpus * span)}


def campaigns_stretch(bundle):
    """The observed campaigns' bounded stretch (flow / max(lower bound, tau)), sorted."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        command = json.load(handle)["metrics_command"]
    tau = float(command[command.index("--tau") + 1])
    report = os.path.join(bundle, "report")
    name = [f for f in os.listdir(report) if f.startswith("observed") and
            f.endswith(".campaigns.csv")]
    if not name:
        return []
    with open(os.path.join(report, name[0])) as handle:
        rows = list(csv.DictReader(handle))
    return sorted(float(r["flow_s"]) / max(float(r["lower_bound_s"]), tau) for r in rows)


def window_table(window, setups, campsim, scratch, repredict=False):
    """The window's markdown section and the columns the plot needs."""
    first = setups[sorted(setups)[0]][0]
    load = window_load(first)
    lines = ["### %s" % window, "",
             "%d jobs of %d users; %gx; submissions over %.1f replay minutes on %d CPUs; "
             "offered load %.2f (CPU-seconds / (CPUs x submission span))."
             % (load["jobs"], load["users"], load["compress"], load["span_s"] / 60.0,
                load["cpus"], load["load"]), ""]
    observed_by_setup, predicted_columns = {}, []
    observed_runs, predicted_runs = {}, {}
    for setup in sorted(setups):
        runs = [observed_and_predicted(b) for b in setups[setup]]
        observed_runs[setup] = [r[0] for r in runs]
        predicted_runs[setup] = [r[1] for r in runs]
        observed_by_setup[setup] = {m: mean([r[0].get(m, 0) for r in runs]) for _, m in ROWS}
        if repredict:  # this replay.py's prediction, not the one stored in the bundle
            now = [node_model_prediction(b, campsim, scratch) for b in setups[setup]]
            predicted_runs[setup] = now
            predicted_columns.append(("%s: campsim, replay.py now" % setup,
                                      {m: mean([t.get(m, 0) for t in now]) for _, m in ROWS}))
            continue
        predicted_columns.append(("%s: campsim %s" % (setup, runs[0][2]),
                                  {m: mean([r[1].get(m, 0) for r in runs]) for _, m in ROWS}))
    observed_columns = [("%s observed (%d run%s)" % (setup, len(setups[setup]),
                                                     "" if len(setups[setup]) == 1 else "s"),
                         values) for setup, values in sorted(observed_by_setup.items())]
    lines += ["Observed on the cluster (each set-up's runs averaged):", ""]
    lines += markdown_table(observed_columns)
    lines += ["", "campsim's prediction of each set-up, from the same sacct export:", ""]
    lines += markdown_table(predicted_columns)
    lines += [""] + fidelity_over_runs(setups, observed_runs, predicted_runs)
    if "a" in setups:
        runs_a = setups["a"]
        replay_time = [fairshare_prediction(b, campsim, scratch) for b in runs_a]
        trace_time = [trace_time_prediction(b, campsim, scratch) for b in runs_a]
        node_model = [node_model_prediction(b, campsim, scratch) for b in runs_a]
        columns = [(observed_columns[0][0], observed_by_setup["a"]),
                   ("campsim, replay.py now (replay time)" if repredict else
                    "campsim %s (replay time, the bundle's prediction)"
                    % observed_and_predicted(runs_a[0])[2], predicted_columns[0][1]),
                   ("campsim fairtree/slurm_backfill on the nodes (replay time, replay.py's "
                    "prediction now)",
                    {m: mean([t.get(m, 0) for t in node_model]) for _, m in ROWS}),
                   ("campsim fairshare/easy (replay time)",
                    {m: mean([t.get(m, 0) for t in replay_time]) for _, m in ROWS})]
        for policy in ("fairtree/easy", "fairshare/easy"):
            columns.append(("campsim %s (trace time)" % policy,
                            {m: mean([t[policy].get(m, 0) for t in trace_time])
                             for _, m in ROWS}))
        lines += ["", "Slurm's fair-share (a, observed) against campsim's baselines: on a's sacct "
                  "export (replay time: the baselines' 7-day half-life and max age and 300 s "
                  "calc period in replay seconds; the node model: Fair Tree with "
                  "sched/backfill's whole-node reservations on the cluster's nodes, as "
                  "scripts/replay.py predicts set-up a), and on a's job list with its times "
                  "multiplied back by the compression (trace time: the parameters as on the "
                  "trace; wait and makespan divided back):", ""]
        lines += markdown_table(columns)
    lags = []
    for setup in sorted(setups):
        for bundle in setups[setup]:
            with open(os.path.join(bundle, "parameters.json")) as handle:
                summary = json.load(handle)["summary"]
            lags.append("%s %s: %g s" % (setup, os.path.basename(bundle).rsplit("-", 1)[1],
                                         summary["submission_lag_max_s"]))
    lines += ["", "Submission lag max: " + ", ".join(lags) + ".", ""]
    return lines, observed_by_setup


def plot_window(window, setups, observed, png_dir, scratch):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        die("gnuplot not found: install gnuplot-nox")
    # One cluster of bars per metric (all/light/heavy x p50/p95/max), one bar per set-up.
    bars = os.path.join(scratch, window + "-bars.dat")
    setup_list = sorted(observed)
    with open(bars, "w") as handle:
        handle.write("metric %s\n" % " ".join(setup_list))
        for label, metric in ROWS[:9]:
            handle.write("\"%s\" %s\n" % (label.replace("stretch ", ""), " ".join(
                "%g" % max(observed[setup][metric], 1e-3) for setup in setup_list)))
    cdf_files = []
    for setup in sorted(setups):
        stretches = campaigns_stretch(setups[setup][0])
        path = os.path.join(scratch, "%s-%s-cdf.dat" % (window, setup))
        with open(path, "w") as handle:
            for i, value in enumerate(stretches):
                handle.write("%g %g\n" % (value, (i + 1) / len(stretches)))
        if stretches:
            cdf_files.append((setup, path))
    png = os.path.join(png_dir, "%s.png" % window)
    script = [
        "set terminal pngcairo size 1300,520 font ',10' noenhanced",
        "set output '%s'" % png,
        "set multiplot layout 1,2 title 'Replay on Slurm, window %s: bounded campaign "
        "stretch (observed)'" % window,
        "set style data histogram", "set style histogram cluster gap 1",
        "set style fill solid 0.8 border -1", "set boxwidth 0.9", "set logscale y",
        "set yrange [0.8:*]", "set ylabel 'bounded campaign stretch (log)'",
        "set key top left", "set xtics rotate by -30",
        "set title 'p50 / p95 / max of all, light and heavy users, per set-up'",
        "plot for [col=2:%d] '%s' using col:xtic(1) title columnhead(col)"
        % (len(setup_list) + 1, bars),
        "set autoscale y",
        "unset logscale y", "set logscale x", "set style data lines", "set yrange [0:1]",
        "set xlabel 'bounded campaign stretch'", "set ylabel 'share of campaigns'",
        "set key bottom right", "set xtics norotate",
        "set title 'CDF of the campaigns (first run of each set-up)'",
        # The bars' colours: set-up i (in setup_list) is line type i + 1 in both panels.
        "plot " + ", ".join("'%s' using 1:2 with steps lw 2 lt %d title '%s: %s'" %
                            (path, setup_list.index(setup) + 1, setup, setup_name(setup))
                            for setup, path in cdf_files),
        "unset multiplot",
    ]
    gp = os.path.join(scratch, window + ".gp")
    with open(gp, "w") as handle:
        handle.write("\n".join(script) + "\n")
    done = subprocess.run([gnuplot, gp], capture_output=True, text=True)
    if done.returncode != 0:
        die("gnuplot %s failed: %s" % (gp, done.stderr.strip()[-400:]))
    return png


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", help="the bundles' directory (RESULTS_DIR)")
    parser.add_argument("--png-dir", help="write one PNG per window here")
    parser.add_argument("--campsim", help="campsim binary (fair-share baseline column)")
    parser.add_argument("--repredict", action="store_true",
                        help="predict each set-up again as scripts/replay.py does now (its "
                        "--rescore), instead of the prediction stored in each bundle")
    args = parser.parse_args()
    if not os.path.isdir(args.results):
        die("%s: not a directory" % args.results)
    bundles = find_bundles(args.results)
    if not bundles:
        die("%s: no finished bundle WINDOW-SETUP-rRUN (with report/comparison.csv)"
            % args.results)
    campsim = campsim_binary(args.campsim)
    if not os.access(campsim, os.X_OK):
        die("campsim not found at %s: give --campsim, CAMPSIM or BUILD_DIR" % campsim)
    if args.png_dir:
        os.makedirs(args.png_dir, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="replay-report.") as scratch:
        for window in sorted(bundles):
            lines, observed = window_table(window, bundles[window], campsim, scratch,
                                           args.repredict)
            print("\n".join(lines))
            if args.png_dir:
                print("Plot: %s" % plot_window(window, bundles[window], observed,
                                               args.png_dir, scratch))
                print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
