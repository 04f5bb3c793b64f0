#!/usr/bin/env python3
"""Replay a trace window (or a campsim workload) on the real local cluster, and score it.

  scripts/replay.py (--swf FILE [--from S --to S] | --jobs FILE | --generate NAME ...)
                    --setup a|b|c|d [--nodes 16 --node-cpus 32] --compress F [--out BUNDLE]
  scripts/replay.py --rerun BUNDLE [--out BUNDLE2]
  scripts/replay.py --rescore BUNDLE [--out DIR]    (scoring only, no cluster)

`campsim replay-plan` maps the window (users -> rp<user>, CPUs scaled to the cluster, time
compressed by F, limits rounded up to whole minutes); this script starts testsuite/cluster's
localcluster with slurmdbd and the chosen plugins, creates one local user per trace user,
submits every job with `sbatch --uid=USER --begin=MOMENT` (ahead of its moment by --lead
seconds) running `sleep`, shows progress, waits, exports sacct and scores it with `campsim run
--sacct --observed` beside campsim's prediction of the same set-up. Everything goes to a bundle
directory that `--rerun` repeats exactly. doc/replay.md has the details and the distortions.

Env: CLUSTER_DIR, CLUSTER_PORT_BASE (localcluster's), PLUGIN_DIR (our plugins), BUILD_DIR or
CAMPSIM (campsim), SLURM_PREFIX (another Slurm). Root only (daemons, useradd, sbatch --uid).
"""

import argparse
import concurrent.futures
import csv
import gzip
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
LOCALCLUSTER = os.path.join(REPO, "testsuite", "cluster", "localcluster")
SACCT_FIELDS = ("JobID,JobIDRaw,JobName,User,Account,Partition,Submit,Eligible,Start,End,"
                "ElapsedRaw,TimelimitRaw,AllocCPUS,ReqCPUS,State")
ACCOUNT = "replay"
# The plugins this script replays rank jobs at their begin times (priority/campaign wakes in
# that second, sched/campaign waits for that ranking): bundles say so, and are predicted
# without --rank-lag.
RANKS_AT_BEGIN = True

# Each set-up: its slurm.conf lines (filled in by setup_conf) and the policy campsim predicts
# it with.
SETUPS = {
    # sched/backfill: conservative to bf_max_job_test, reservations holding whole nodes, on
    # the cluster's nodes (campsim --nodes, slurm_backfill; doc/replay.md, fidelity).
    "a": ("priority/multifactor (Fair Tree) + sched/backfill", "fairtree/slurm_backfill"),
    "b": ("priority/campaign (OStrich) + sched/backfill", "ostrich/slurm_backfill"),
    "c": ("priority/campaign (OStrich) + sched/campaign", "ostrich/conservative"),
    "d": ("priority/campaign (FairCamp) + sched/campaign", "faircamp/conservative"),
}


def die(message):
    print("replay: " + message, file=sys.stderr)
    sys.exit(1)


def log(message):
    print("replay: " + message, file=sys.stderr, flush=True)


def run(command, **kwargs):
    """The command's stdout; its stderr and the command itself in the error."""
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(command), done.returncode,
                                    (done.stderr or done.stdout).strip()[-800:]))
    return done.stdout


def campsim_binary():
    if os.environ.get("CAMPSIM"):
        return os.environ["CAMPSIM"]
    build = os.environ.get("BUILD_DIR", os.path.join(REPO, "build"))
    path = os.path.join(build, "src", "sim", "campsim")
    if not os.access(path, os.X_OK):
        die("campsim not found at %s: set BUILD_DIR or CAMPSIM" % path)
    return path


def minutes(seconds):
    """Slurm's minute fields: whole minutes, at least 1."""
    return max(1, int(math.ceil(seconds / 60.0 - 1e-9)))


def setup_conf(setup, compression, port_base, short_room=None):
    """slurm.conf lines for a set-up, with Slurm's periods scaled by the compression as far as
    Slurm allows: PriorityCalcPeriod at least 1 minute, the scheduler intervals at least 2 s.
    short_room: {"campaign_short_room": "0.1", "campaign_short_limit": "60", ...}, added to
    sched/campaign's SchedulerParameters (set-ups c and d)."""
    bf_interval = max(2, round(30 / compression))
    sched_interval = max(2, round(60 / compression))
    campaign_calc = max(1, round(5 / compression))
    query = "query_port=%d" % (port_base + 99)
    if setup == "a":
        # campsim's fair-share baseline (engine/fair_share_priority.h): weights 10000 and 1000,
        # 7-day half-life and max age, a 300 s calc period; each scaled.
        return [
            "PriorityType=priority/multifactor",
            "PriorityWeightFairshare=10000", "PriorityWeightAge=1000",
            "PriorityWeightJobSize=0", "PriorityWeightPartition=0", "PriorityWeightQOS=0",
            "PriorityDecayHalfLife=%d" % minutes(7 * 86400 / compression),
            "PriorityMaxAge=%d" % minutes(7 * 86400 / compression),
            "PriorityCalcPeriod=%d" % minutes(300 / compression),
            "SchedulerType=sched/backfill",
            "SchedulerParameters=bf_interval=%d,sched_interval=%d,bf_continue,bf_max_job_test=5000"
            % (bf_interval, sched_interval),
        ]
    policy = "faircamp" if setup == "d" else "ostrich"
    lines = ["PriorityType=priority/campaign",
             "PriorityParameters=policy=%s,calc_period=%d,%s" % (policy, campaign_calc, query)]
    if setup == "b":
        lines += ["SchedulerType=sched/backfill",
                  "SchedulerParameters=bf_interval=%d,sched_interval=%d,bf_continue,"
                  "bf_max_job_test=5000" % (bf_interval, sched_interval)]
    else:
        room = "".join(",%s=%s" % item for item in sorted((short_room or {}).items()))
        lines += ["SchedulerType=sched/campaign",
                  "SchedulerParameters=sched_interval=-1,defer,campaign_period=1" + room]
    return lines


DEFAULT_ROOM_NOTE = "sched/campaign default room, compressed: "


def default_room_from_notes(notes):
    """sched/campaign's default room at the replay's compression, from `campsim replay-plan`'s
    notes (src/sim/replay/replay_plan.cc: plan/scheduler_defaults.h's values, their times
    compressed as the jobs' are), so this script keeps no copy of the defaults."""
    for line in notes.splitlines():
        _, found, settings = line.partition(DEFAULT_ROOM_NOTE)
        if found:
            return dict(item.split("=", 1) for item in settings.strip().split(","))
    die("campsim replay-plan's notes name no default room (a campsim older than this script?)")


def short_room_settings(params, notes):
    """sched/campaign's room for short jobs (replay seconds), named in full so the prediction
    reads what the cluster ran. Without --short-room: sched/campaign's default room (read from
    the plan's notes); --short-room 0: no room. A bundle recorded before the room became the
    default (no "default_room") ran without one, and its rerun does too."""
    if params.get("short_room") is None and not params.get("default_room"):
        return {"campaign_short_room": "0"}
    if params.get("short_room") is None:
        return default_room_from_notes(notes)
    if not params["short_room"]:
        return {"campaign_short_room": "0"}
    room = {"campaign_short_room": "%g" % params["short_room"],
            "campaign_short_limit": "%d" % params.get("short_limit", 60)}
    if params.get("short_room_recent"):
        room["campaign_short_room_recent"] = "%d" % params["short_room_recent"]
    return room


def conf_settings(conf):
    """The periods and decay of slurm.conf lines: {"PriorityDecayHalfLife": "68",
    "bf_interval": "2", "calc_period": "1", ...} (PriorityParameters' and
    SchedulerParameters' items by their own names)."""
    settings = {}
    for line in conf:
        key, _, value = line.partition("=")
        if key in ("PriorityParameters", "SchedulerParameters"):
            for item in value.split(","):
                name, _, item_value = item.partition("=")
                settings[name] = item_value
        else:
            settings[key] = value
    return settings


def prediction_options(setup, conf, compression, slurmctld_started=None, ranks_at_begin=False):
    """campsim run's options that give its prediction the cluster's own periods, read from
    the slurm.conf lines the cluster ran (replay seconds, as the sacct export): Fair Tree's
    half-life, max age and calc period (minutes in slurm.conf), priority/campaign's
    calc_period, and the scheduler's pass period (sched/backfill's bf_interval,
    sched/campaign's campaign_period)."""
    settings = conf_settings(conf)
    options = []
    if setup == "a":
        for key, option in (("PriorityDecayHalfLife", "--fs-half-life"),
                            ("PriorityMaxAge", "--fs-max-age"),
                            ("PriorityCalcPeriod", "--fs-calc-period")):
            if key in settings:
                options += [option, str(int(settings[key]) * 60)]
        # The decay thread recalculates every PriorityCalcPeriod from slurmctld's start; sacct's
        # times are epoch seconds, so the phase is the start modulo the period.
        if slurmctld_started and "PriorityCalcPeriod" in settings:
            period = int(settings["PriorityCalcPeriod"]) * 60
            options += ["--fs-calc-phase", str(int(slurmctld_started) % period)]
    else:
        options += ["--calc-period",
                    settings.get("calc_period", str(max(1, round(5 / compression))))]
    # sched/campaign's room for short jobs, in replay seconds as the cluster ran it. A
    # sched/campaign bundle that names no room was recorded before the room became the
    # default (replay.py names it since) and ran without one.
    if settings.get("SchedulerType") == "sched/campaign" and "campaign_short_room" not in settings:
        options += ["--short-room", "0"]
    for key, option in (("campaign_short_room", "--short-room"),
                        ("campaign_short_limit", "--short-limit"),
                        ("campaign_short_room_recent", "--short-room-recent"),
                        ("campaign_short_room_demand", "--short-room-demand")):
        if key in settings:
            options += [option, settings[key]]
    if settings.get("SchedulerType") == "sched/campaign":
        # The pass wakes within 50-250 ms of a job end, under the export's whole seconds:
        # campaign_period's 1 s predicts every final-default bundle exactly as 0 (starts at the
        # event) does, since every submit and run time is whole seconds; 2 s puts 22 of 50
        # metrics inside the goal against 36 (doc/replay.md, scheduler passes).
        period = float(settings.get("campaign_period", "1"))
        # A bundle recorded before priority/campaign ranked at begin times (no
        # "ranks_at_begin"): the pass at each new second (it polls every 50 ms) came before
        # the ranking of the jobs whose begin time just passed (nothing woke its thread then),
        # so they started in submission order if CPUs were free (ostrich's first second: 64
        # jobs in job-id order in both final-default runs; doc/replay-results.md, "Why the
        # ostrich medians differ"). Since, the ranking comes in that second and sched/campaign
        # starts no job eligible after the last ranking: no lag to predict.
        if not ranks_at_begin:
            options.append("--rank-lag")
    else:
        # sched/backfill (campsim's slurm_backfill): at most bf_max_job_test jobs planned,
        # reservations within bf_window (minutes), the main scheduler's in-order starts at
        # each submission and end. Two streams of passes: the main scheduler every
        # sched_interval at a steady phase, backfill every bf_interval at a phase that drifts
        # (it sleeps bf_interval after each cycle). Interleaved they pass every half interval
        # on average: calibrated on one LPC-EGEE window (doc/replay.md, fidelity), where 1 s
        # put 8 of 10 metrics inside the goal and 1.5 or 2 s 6 of 10.
        options += ["--depth", settings.get("bf_max_job_test", "500"),
                    "--horizon", str(int(settings.get("bf_window", "1440")) * 60),
                    # Reservations in whole bf_resolution (default 60 s) of the clock:
                    # sdsc-a's tail (doc/replay.md, fidelity).
                    "--bf-resolution", settings.get("bf_resolution", "60")]
        period = min(float(settings.get("bf_interval", "30")),
                     float(settings.get("sched_interval", "60"))) / 2
    return options + ["--sched-period", "%g" % max(1.0, period)]


def machine_options(params):
    """The cluster as campsim sees it: its nodes, for every set-up. sched/backfill's
    reservations hold whole nodes (set-ups a and b); sched/campaign plans CPUs within nodes
    (c and d), as campsim's conservative planner does on --nodes."""
    return ["--nodes", str(params["nodes"]), "--node-cpus", str(params["node_cpus"])]


def keep_slurmctld_log(bundle):
    """slurmctld's log into the bundle (slurmctld.log.gz): the next start of the cluster wipes
    it, and it holds what the export does not (refused starts, start times to the ms)."""
    try:
        path = run([LOCALCLUSTER, "path", "ctld-log"]).strip()
        with open(path, "rb") as source, \
                gzip.open(os.path.join(bundle, "slurmctld.log.gz"), "wb") as kept:
            shutil.copyfileobj(source, kept)
    except (OSError, SystemExit) as error:  # run() exits on failure: the replay goes on
        log("slurmctld's log not kept in the bundle: %s" % error)


def metrics_command(params, conf, sacct_path, report_dir, slurmctld_started=None,
                    ranks_at_begin=False):
    """campsim's score of the sacct export beside its prediction of the same set-up;
    ranks_at_begin: the bundle's plugins ranked jobs at their begin times (bundles record
    it)."""
    compression = params["compress"]
    return ([campsim_binary(), "run", "--sacct", sacct_path]
            + machine_options(params)
            + ["--observed", "--policy", SETUPS[params["setup"]][1]]
            + prediction_options(params["setup"], conf, compression, slurmctld_started,
                                 ranks_at_begin)
            + ["--tau", "%g" % (10.0 / compression), "--out", report_dir])


# The fidelity of campsim's prediction (issue 17 point 3): each metric, and the goal its
# difference should meet (medians and utilization 10 %, p95 20 %; None: shown, no goal).
FIDELITY_METRICS = (
    ("bounded_campaign_stretch.all.p50", 0.10),
    ("bounded_campaign_stretch.all.p95", 0.20),
    ("bounded_campaign_stretch.light_cpu.p50", 0.10),
    ("bounded_campaign_stretch.light_cpu.p95", 0.20),
    ("bounded_campaign_stretch.heavy_cpu.p50", 0.10),
    ("bounded_campaign_stretch.heavy_cpu.p95", 0.20),
    ("bounded_campaign_stretch.all.user_worst.p95", 0.20),
    ("bounded_campaign_stretch.all.max", None),
    ("utilization", 0.10),
    ("bounded_slowdown.mean", None),
    ("wait_s.mean", None),
    ("response_s.p50", 0.10),
    ("response_s.p95", 0.20),
)


def fidelity_table(table):
    """Observed against predicted, from campsim's table (its first two value columns): the
    difference in % of the observed value, and whether it meets the goal."""
    values = {}
    for line in table.splitlines():
        words = line.split()
        if len(words) >= 3:
            values[words[0]] = words[1:3]
    return fidelity_lines(values)


def fidelity_verdict(metric, observed, predicted):
    """(difference in % of the observed value as text, the goal's verdict as text, inside or
    None where the metric has no goal) of one metric's observed and predicted values."""
    goal = dict(FIDELITY_METRICS)[metric]
    if observed != 0:
        diff = "%+.1f" % (100.0 * (predicted - observed) / observed)
    else:
        diff = "0.0" if predicted == 0 else "n/a"
    if goal is None:
        return diff, "-", None
    inside = diff != "n/a" and abs(float(diff)) <= 100 * goal + 1e-9
    return diff, "%s (%d %%)" % ("inside" if inside else "OUTSIDE", round(100 * goal)), inside


def fidelity_lines(values):
    """The fidelity table of {metric: (observed text, predicted text)}, FIDELITY_METRICS' order;
    a metric missing from values is left out."""
    lines = ["%-44s %10s %10s %8s  %s" % ("fidelity", "observed", "predicted", "diff %",
                                          "goal")]
    for metric, _ in FIDELITY_METRICS:
        if metric not in values:
            continue
        observed, predicted = values[metric]
        diff, verdict, _ = fidelity_verdict(metric, float(observed), float(predicted))
        lines.append("%-44s %10s %10s %8s  %s" % (metric, observed, predicted, diff, verdict))
    return "\n".join(lines) + "\n"


def rescore(bundle, out):
    """Scoring only: the bundle's sacct export scored again with this campsim and this
    script's prediction options; no cluster, no root."""
    with open(os.path.join(bundle, "parameters.json")) as handle:
        saved = json.load(handle)
    command = metrics_command(saved["parameters"], saved["slurm_conf_lines"],
                              os.path.join(bundle, "sacct.txt"),
                              out or os.path.join(bundle, "rescore"),
                              saved.get("summary", {}).get("slurmctld_started"),
                              saved.get("ranks_at_begin", False))
    log("campsim " + " ".join(command[1:]))
    table = run(command)
    print(table, end="")
    print(fidelity_table(table), end="")
    return 0


def parse_arguments():
    parser = argparse.ArgumentParser(
        description="Replay a trace window on the local Slurm cluster (doc/replay.md).")
    source = parser.add_argument_group("workload (as campsim run takes it)")
    source.add_argument("--swf")
    source.add_argument("--jobs")
    source.add_argument("--generate", help="ostrich-profiles | faircamp-zipf")
    source.add_argument("--users", type=int)
    source.add_argument("--seed", type=int)
    source.add_argument("--job-count", type=int)
    source.add_argument("--cpus", type=int, help="the trace machine's CPUs, if not in the file")
    source.add_argument("--from", dest="from_s", type=int)
    source.add_argument("--to", dest="to_s", type=int)
    parser.add_argument("--setup", choices=sorted(SETUPS), default="c",
                        help="; ".join("%s: %s" % (k, v[0]) for k, v in sorted(SETUPS.items())))
    parser.add_argument("--nodes", type=int, default=16)
    parser.add_argument("--node-cpus", type=int, default=32)
    parser.add_argument("--compress", type=float)
    parser.add_argument("--cpu-map", choices=["scale", "identity"], default="scale")
    parser.add_argument("--wide", choices=["drop", "clamp"], default="drop")
    parser.add_argument("--user-prefix", default="rp")
    parser.add_argument("--lead", type=float,
                        help="submit each job this many seconds before its moment (--begin; "
                        "default 120)")
    parser.add_argument("--submitters", type=int,
                        help="sbatch calls at once (threads; default 4)")
    parser.add_argument("--start-delay", type=float, default=20,
                        help="seconds from the first submission to the window's start")
    parser.add_argument("--short-room", type=float,
                        help="set-ups c, d: sched/campaign's campaign_short_room (part of the "
                        "CPUs long jobs leave to short ones; 0: none; default sched/campaign's "
                        "default room, its times scaled by the compression)")
    parser.add_argument("--short-limit", type=int, default=60,
                        help="with --short-room: campaign_short_limit in replay seconds, the "
                        "longest limit of a short job (default 60: the jobs submitted with "
                        "a 1-minute limit, the shortest there is)")
    parser.add_argument("--short-room-recent", type=int,
                        help="with --short-room: campaign_short_room_recent in replay seconds "
                        "(default 0: a fixed room)")
    parser.add_argument("--debug-flags",
                        help="slurmctld's DebugFlags for this run (e.g. Priority,Backfill,"
                        "BackfillMap), logged at SlurmctldDebug=verbose into the bundle's "
                        "slurmctld.log.gz; off by default (the log grows and slurmctld slows)")
    parser.add_argument("--slurm", help="Slurm prefix (localcluster --slurm)")
    parser.add_argument("--out", help="bundle directory (default replay-<setup>-<time>)")
    parser.add_argument("--rerun", help="repeat the replay of this bundle")
    parser.add_argument("--rescore",
                        help="score this bundle's sacct export again (campsim's table and "
                        "prediction, in --out or BUNDLE/rescore); no cluster")
    parser.add_argument("--keep-cluster", action="store_true",
                        help="leave the cluster running at the end")
    args = parser.parse_args()
    if args.rerun and args.rescore:
        parser.error("--rerun or --rescore, not both")
    if args.rerun or args.rescore:
        return args
    args.lead = 120 if args.lead is None else args.lead
    args.submitters = 4 if args.submitters is None else args.submitters
    if sum(x is not None for x in (args.swf, args.jobs, args.generate)) != 1:
        parser.error("give exactly one workload: --swf FILE, --jobs FILE or --generate NAME")
    if args.compress is None or not args.compress >= 1:
        parser.error("--compress F: a factor >= 1 (trace seconds per replay second)")
    if args.nodes < 1 or args.node_cpus < 1:
        parser.error("--nodes and --node-cpus: at least 1")
    if args.lead < 0:
        parser.error("--lead: seconds >= 0")
    if args.submitters < 1:
        parser.error("--submitters: at least 1")
    if args.short_room is not None:
        if args.setup not in ("c", "d"):
            parser.error("--short-room: sched/campaign's option, for set-ups c and d only "
                         "(--setup %s)" % args.setup)
        if not 0 <= args.short_room <= 0.5:
            parser.error("--short-room %g: a part of the CPUs in [0, 0.5] (0: no room)"
                         % args.short_room)
        if args.short_limit < 1:
            parser.error("--short-limit %d: replay seconds >= 1" % args.short_limit)
        if args.short_room_recent is not None and args.short_room_recent < 0:
            parser.error("--short-room-recent %d: replay seconds >= 0"
                         % args.short_room_recent)
    elif args.short_room_recent is not None:
        parser.error("--short-room-recent needs --short-room")
    return args


def plan_command(params):
    command = [campsim_binary(), "replay-plan"]
    for key, option in (("swf", "--swf"), ("jobs", "--jobs"), ("generate", "--generate"),
                        ("users", "--users"), ("seed", "--seed"), ("job_count", "--job-count"),
                        ("cpus", "--cpus"), ("from_s", "--from"), ("to_s", "--to")):
        if params.get(key) is not None:
            command += [option, str(params[key])]
    command += ["--nodes", str(params["nodes"]), "--node-cpus", str(params["node_cpus"]),
                "--compress", str(params["compress"]), "--cpu-map", params["cpu_map"],
                "--wide", params["wide"], "--user-prefix", params["user_prefix"]]
    return command


def read_plan(path):
    with open(path) as handle:
        jobs = list(csv.DictReader(handle))
    for job in jobs:
        for key in ("submit", "cpus", "limit_min", "runtime"):
            job[key] = int(job[key])
    return jobs


def cluster_env():
    env = dict(os.environ)
    for line in run([LOCALCLUSTER, "env"]).splitlines():
        if line.startswith("export "):
            key, _, value = line[len("export "):].partition("=")
            if key == "PATH":
                value = value.replace('"$PATH"', os.environ.get("PATH", ""))
                value = value.replace("'", "").replace('"', "")
            env[key] = value
    return env


def make_users(logins, env):
    """One local user and one association per trace user; never shared."""
    for login in logins:
        if subprocess.run(["id", login], capture_output=True).returncode == 0:
            continue
        made = subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin",
                               login], capture_output=True, text=True)
        # 9: made meanwhile by a replay beside this one (clusters side by side).
        if made.returncode not in (0, 9):
            die("useradd %s failed (%d): %s" % (login, made.returncode, made.stderr.strip()))
    cluster = run(["scontrol", "show", "config"], env=env)
    name = [l.split("=", 1)[1].strip() for l in cluster.splitlines()
            if l.startswith("ClusterName")][0]
    known = set(run(["sacctmgr", "-n", "-P", "show", "account", "format=account"],
                    env=env).split())
    if ACCOUNT not in known:
        run(["sacctmgr", "-i", "add", "account", ACCOUNT, "Cluster=" + name, "Fairshare=1"],
            env=env)
    have = set(run(["sacctmgr", "-n", "-P", "show", "assoc", "format=user",
                    "where", "account=" + ACCOUNT], env=env).split())
    missing = [login for login in logins if login not in have]
    for start in range(0, len(missing), 100):
        run(["sacctmgr", "-i", "add", "user", ",".join(missing[start:start + 100]),
             "Account=" + ACCOUNT, "Cluster=" + name, "Fairshare=1"], env=env)
    # slurmctld learns associations from slurmdbd; the first submissions must find them.
    deadline = time.time() + 60
    while time.time() < deadline:
        listed = run(["scontrol", "show", "assoc_mgr", "flags=assoc"], env=env)
        if all("UserName=%s(" % login in listed for login in logins):
            return
        time.sleep(1)
    die("slurmctld did not learn the replay users' associations within 60 s")


def queue_states(env):
    """Jobs in the queue by state; "ahead": pending for their --begin moment only."""
    out = subprocess.run(["squeue", "-h", "-o", "%t %r"], capture_output=True, text=True,
                         env=env).stdout.splitlines()
    states = [line.split(" ", 1) + [""] for line in out]
    return {"PD": sum(s[0] == "PD" for s in states),
            "ahead": sum(s[0] == "PD" and s[1] == "BeginTime" for s in states),
            "R": sum(s[0] in ("R", "CG") for s in states)}


def stamp(epoch):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(epoch))


class SubmitError(Exception):
    pass


def sbatch_one(job, moment, env):
    """One sbatch as the job's user; the record of it."""
    command = ["sbatch", "--uid=" + job["user"], "--parsable", "-o", "/dev/null",
               "-D", "/tmp", "-J", "rp%s" % job["id"], "-p", "batch", "-A", ACCOUNT,
               "-n", str(job["cpus"]), "-t", str(job["limit_min"]),
               "--begin=" + stamp(moment), "--wrap", "sleep %d" % job["runtime"]]
    before = time.time()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    after = time.time()
    if done.returncode != 0:
        raise SubmitError("sbatch for trace job %s (user %s) failed: %s"
                          % (job["id"], job["user"], done.stderr.strip()))
    return {"id": job["id"], "user": job["user"],
            "jobid": done.stdout.strip().split(";")[0], "scheduled": moment,
            "sbatch_start": round(before, 3), "sbatch_end": round(after, 3),
            "lag": round(max(0.0, after - moment), 3)}


def submit_all(jobs, params, env, bundle):
    """Submits every job ahead of its moment (--begin) from --submitters threads, prints
    progress; returns the records in submission order."""
    t0 = math.ceil(time.time() + params["start_delay"])
    lead = params["lead"]
    records = []  # appended by the workers (list.append is atomic)
    next_progress = 0
    total = len(jobs)
    tty = sys.stderr.isatty()
    futures = []

    def lags():
        return [r["lag"] for r in records]

    def collect(future):
        records.append(future.result())

    with concurrent.futures.ThreadPoolExecutor(params.get("submitters", 4)) as pool:
        try:
            for job in jobs:
                moment = t0 + job["submit"]
                while time.time() < moment - lead:
                    time.sleep(min(0.2, moment - lead - time.time()))
                if time.time() >= next_progress:
                    next_progress = time.time() + 5
                    progress(records, total, lags(), t0, env, tty)
                future = pool.submit(sbatch_one, job, moment, env)
                future.add_done_callback(lambda f: f.exception() or collect(f))
                futures.append(future)
                failed = [f for f in futures if f.done() and f.exception()]
                if failed:
                    raise failed[0].exception()
            for future in futures:
                future.result()
        except SubmitError as error:
            pool.shutdown(wait=True, cancel_futures=True)
            die(str(error))
    records.sort(key=lambda r: (r["scheduled"], r["sbatch_start"]))
    progress(records, total, lags(), t0, env, tty)
    with open(os.path.join(bundle, "submissions.csv"), "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(records[0].keys()) if records else ["id"])
        writer.writeheader()
        writer.writerows(records)
    return t0, records, lags()


def lag_summary(lags):
    if not lags:
        return "no submissions"
    ordered = sorted(lags)
    p95 = ordered[min(len(ordered) - 1, int(math.ceil(0.95 * len(ordered))) - 1)]
    return "max %.2f s, p95 %.2f s" % (ordered[-1], p95)


def progress(records, total, lags, t0, env, tty):
    states = queue_states(env)
    done = len(records) - states["PD"] - states["R"]
    line = ("t%+6.0fs submitted %d/%d (%d before their moment)  pending %d  running %d  done %d"
            "  submission lag %s"
            % (time.time() - t0, len(records), total, states["ahead"],
               states["PD"] - states["ahead"], states["R"], max(0, done), lag_summary(lags)))
    print(("\r" + line + "   ") if tty else line, end="" if tty else "\n", file=sys.stderr,
          flush=True)


def wait_all(records, total, lags, t0, env):
    tty = sys.stderr.isatty()
    while True:
        states = queue_states(env)
        if states["PD"] + states["R"] == 0:
            break
        progress(records, total, lags, t0, env, tty)
        time.sleep(5)
    progress(records, total, lags, t0, env, tty)
    if tty:
        print(file=sys.stderr)


def export_sacct(records, t0, params, env, path):
    """sacct as doc/evaluate-your-cluster.md exports it; waits until every job is recorded
    finished (slurmdbd may lag slurmctld)."""
    wanted = {r["jobid"] for r in records}
    start = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t0 - params["lead"] - 120))
    command = ["sacct", "--allusers", "--duplicates", "--parsable2", "-X",
               "--starttime", start, "--endtime", "now", "--format=" + SACCT_FIELDS]
    sacct_env = dict(env, TZ="UTC")
    sacct_env.pop("SLURM_TIME_FORMAT", None)
    deadline = time.time() + 300
    while True:
        text = run(command, env=sacct_env)
        finished = set()
        for row in csv.DictReader(text.splitlines(), delimiter="|"):
            if row["End"] not in ("", "Unknown") and row["JobIDRaw"] in wanted:
                finished.add(row["JobIDRaw"])
        if finished >= wanted or time.time() > deadline:
            break
        time.sleep(3)
    with open(path, "w") as handle:
        handle.write(text)
    missing = wanted - finished
    if missing:
        log("%d jobs never reached sacct as finished (first: %s)" % (len(missing),
                                                                     sorted(missing)[0]))
    return len(missing)


def slurmctld_boot_time(env):
    """slurmctld's start (epoch seconds), scontrol show config's BOOT_TIME (local time); None
    if it does not say. (sdiag's 'Data since' is 0 on a fresh 22.05 daemon.)"""
    done = subprocess.run(["scontrol", "show", "config"], capture_output=True, text=True,
                          env=env)
    match = re.search(r"^BOOT_TIME\s*=\s*(\S+)", done.stdout, re.MULTILINE)
    try:
        return int(time.mktime(time.strptime(match.group(1), "%Y-%m-%dT%H:%M:%S")))
    except (AttributeError, ValueError):
        return None


def versions(env):
    text = run(["sinfo", "-V"], env=env).strip()
    head = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return {"slurm": text, "slurm_campaign_commit": head + (" (modified)" if dirty else ""),
            "python": sys.version.split()[0], "campsim": campsim_binary()}


def main():
    args = parse_arguments()
    if args.rescore:
        return rescore(args.rescore, args.out)
    if os.geteuid() != 0:
        die("run as root (it starts the cluster's daemons, adds users and submits as them)")
    if args.rerun:
        with open(os.path.join(args.rerun, "parameters.json")) as handle:
            saved = json.load(handle)
        params = saved["parameters"]
        params["rerun_of"] = os.path.abspath(args.rerun)
        params["keep_cluster"] = args.keep_cluster
        # How the jobs are sent may change; what is sent and to which cluster does not.
        for key in ("lead", "submitters", "debug_flags"):
            if getattr(args, key) is not None:
                params[key] = getattr(args, key)
        plan_source = os.path.join(args.rerun, "jobs.csv")
    else:
        params = {key: value for key, value in vars(args).items()
                  if key not in ("rerun", "out")}
        params["default_room"] = True  # set-ups c, d: short_room_settings
        plan_source = None
        saved = None
    bundle = args.out or "replay-%s-%s" % (params["setup"], time.strftime("%Y%m%d-%H%M%S"))
    if os.path.exists(bundle) and os.listdir(bundle):
        die("--out %s: exists and is not empty" % bundle)
    os.makedirs(bundle, exist_ok=True)
    compression = params["compress"]
    port_base = int(os.environ.get("CLUSTER_PORT_BASE", "17800"))

    plan_path = os.path.join(bundle, "jobs.csv")
    if plan_source:
        shutil.copyfile(plan_source, plan_path)
        shutil.copyfile(os.path.join(args.rerun, "plan-notes.txt"),
                        os.path.join(bundle, "plan-notes.txt"))
    else:
        notes = run(plan_command(params) + ["--out", plan_path])
        with open(os.path.join(bundle, "plan-notes.txt"), "w") as handle:
            handle.write(notes)
    jobs = read_plan(plan_path)
    if not jobs:
        die("the window has no job to replay (see %s/plan-notes.txt)" % bundle)
    with open(os.path.join(bundle, "plan-notes.txt")) as handle:
        notes = handle.read()
    sys.stderr.write(notes)

    if saved:
        # The bundle's own lines (this script's defaults may have changed since), with the
        # scampaign channel on this cluster's port.
        conf = [re.sub(r"query_port=\d+", "query_port=%d" % (port_base + 99), line)
                for line in saved["slurm_conf_lines"]]
    else:
        conf = setup_conf(params["setup"], compression, port_base,
                          short_room_settings(params, notes))
    start = [LOCALCLUSTER, "start", "--nodes", str(params["nodes"]), "--cpus",
             str(params["node_cpus"]), "--accounting", "--fresh-db"]
    if os.environ.get("PLUGIN_DIR"):
        start += ["--plugin-dir", os.environ["PLUGIN_DIR"]]
    if params.get("slurm"):
        start += ["--slurm", params["slurm"]]
    for line in conf:
        start += ["--conf", line]
    # Diagnostics only, kept out of the set-up's lines (the prediction reads those): log_flag
    # messages are printed at the verbose level.
    if params.get("debug_flags"):
        start += ["--conf", "DebugFlags=%s" % params["debug_flags"],
                  "--conf", "SlurmctldDebug=verbose"]
    log("starting the cluster: %s" % SETUPS[params["setup"]][0])
    run(start)
    env = cluster_env()
    slurmctld_started = slurmctld_boot_time(env)
    try:
        shutil.copyfile(run([LOCALCLUSTER, "path", "conf"]).strip(),
                        os.path.join(bundle, "slurm.conf"))
        version_info = versions(env)  # before the run: the code that ran it
        logins = sorted({job["user"] for job in jobs})
        make_users(logins, env)
        log("%d jobs of %d users, %gx, window of %.0f replay minutes"
            % (len(jobs), len(logins), compression, jobs[-1]["submit"] / 60.0))
        t0, records, lags = submit_all(jobs, params, env, bundle)
        wait_all(records, len(jobs), lags, t0, env)
        sacct_path = os.path.join(bundle, "sacct.txt")
        unrecorded = export_sacct(records, t0, params, env, sacct_path)
    finally:
        keep_slurmctld_log(bundle)
        if not params.get("keep_cluster"):
            subprocess.run([LOCALCLUSTER, "stop"], capture_output=True)

    scoring = metrics_command(params, conf, sacct_path, os.path.join(bundle, "report"),
                              slurmctld_started, RANKS_AT_BEGIN)
    table = run(scoring)
    with open(os.path.join(bundle, "metrics.txt"), "w") as handle:
        handle.write(table)
    with open(os.path.join(bundle, "fidelity.txt"), "w") as handle:
        handle.write(fidelity_table(table))
    summary = {
        "jobs": len(jobs), "users": len(logins), "submitted": len(records),
        "unrecorded_in_sacct": unrecorded, "t0": t0,
        "submission_lag_max_s": round(max(lags), 3),
        "submission_lag_p95_s": float(lag_summary(lags).split("p95 ")[1].split(" ")[0]),
        "sbatch_mean_s": round(sum(r["sbatch_end"] - r["sbatch_start"] for r in records)
                               / len(records), 4),
        "sbatch_max_s": round(max(r["sbatch_end"] - r["sbatch_start"] for r in records), 3),
        "submitters": params.get("submitters", 4),
        "slurmctld_started": slurmctld_started,
    }
    with open(os.path.join(bundle, "parameters.json"), "w") as handle:
        json.dump({"parameters": params, "slurm_conf_lines": conf, "versions": version_info,
                   "metrics_command": scoring[1:], "summary": summary,
                   "ranks_at_begin": RANKS_AT_BEGIN}, handle,
                  indent=2)
    with open(os.path.join(bundle, "README"), "w") as handle:
        handle.write("Replay bundle (doc/replay.md). Repeat it: scripts/replay.py --rerun %s\n"
                     "Score it again: campsim %s\n" % (bundle, " ".join(scoring[1:])))
    print(table, end="")
    print(fidelity_table(table), end="")
    print("replay: %d jobs, submission lag %s, sbatch %.3f s mean; bundle %s"
          % (len(records), lag_summary(lags), summary["sbatch_mean_s"], bundle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
