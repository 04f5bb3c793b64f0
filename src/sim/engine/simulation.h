// simulate(): one discrete-event run of a workload under one priority policy, one backfill
// mode and one estimate model. Ranks with the core (or a fair-share baseline) and dispatches
// with the core's Planner; jobs run their real run time.
#pragma once

#include "campaign/campaign_detector.h"
#include "config/priority_plugin_defaults.h"
#include "engine/estimates.h"
#include "engine/job_dispatch.h"
#include "engine/run_result.h"
#include "plan/plan_types.h"
#include "plan/scheduler_defaults.h"
#include "trace/sim_job.h"

#include <functional>
#include <optional>
#include <string>

namespace campaign::sim
{

struct SimulationOptions {
	// fcfs (the plain submission-order queue, campsim's speed floor), fifo (the core's FIFO,
	// campaigns tracked), fifo-blocks (whole-machine campaign blocks in arrival order),
	// ostrich, ostrich-strict, faircamp, faircamp-paper (whole-machine blocks in EDF order, the
	// FairCamp paper's exact mode), fairshare (Slurm classic), fairtree.
	std::string priority = "ostrich";
	std::string core_parameters; // more PriorityParameters for the core policies
	BackfillKind backfill = BackfillKind::per_campaign;
	EstimateOptions estimate;
	PlannerEstimateOptions planner_estimate; // the planner's alone (estimates.h)
	DetectionRule scoring_rule; // the shared campaigns the metrics score (MAX rule)
	// Score each job in the campaign the policy's own online detection put it in (core
	// policies; others keep the shared campaigns) instead of the shared ones.
	bool online_campaigns = false;
	// Closed loop: release campaigns in generation order (a campaign whose owner is still busy
	// holds back all later ones) instead of each user's own chain from t = 0.
	bool release_in_generation_order = false;
	// Trace replay with dependencies (Pinheiro's thesis, Sec. 5.4.3): a job enters the queue
	// only once the jobs of its campaign that ended in the log before its submission have
	// completed in the replay. Ignored for closed-loop workloads.
	bool dependencies = false;
	// > 0: cut the trace at downtimes of at least this many seconds (no job running or
	// submitted in the log) and replay each piece on its own (thesis Sec. 5.4); 0: no cut.
	int64_t downtime_gap_s = 0;
	// Core policies rank afresh at most once per this many simulated seconds unless a job
	// ended since (jobs submitted between go below the last order), as priority/campaign
	// with its calc_period (default 5, the plugin's); 0: afresh at every pass (exact).
	int64_t calc_period_s = priority_plugin_defaults::calc_period_s;
	// Core policies: a job is ranked from the second after it arrives; in its first second it
	// comes after the ranked jobs, in arrival order (engine/rank_lag_priority.h:
	// sched/campaign's pass at a begin time comes before priority/campaign's ranking of the
	// arrivals).
	bool rank_lag = false;
	// The fairshare and fairtree baselines' PriorityDecayHalfLife, PriorityMaxAge and
	// PriorityCalcPeriod (FairShareOptions; a replay's prediction gives the cluster's, which
	// are the trace's divided by the compression).
	int64_t fair_share_half_life_s = 7 * 86400;
	int64_t fair_share_max_age_s = 7 * 86400;
	int64_t fair_share_calc_period_s = 300;
	int64_t fair_share_calc_phase_s = 0; // the passes at phase + k * period
	// > 0: jobs start only at scheduler passes, at the whole seconds ceil(k * sched_period_s)
	// (Slurm's bf_interval / sched_interval, sched/campaign's campaign_period; 1.5 passes in
	// two seconds of three, as sched/backfill's drifting passes did beside the main
	// scheduler's, doc/replay.md); 0: a pass at every event (submission, end).
	double sched_period_s = 0;
	// > 0: the machine is `nodes` nodes of `node_cpus` CPUs (their product is the machine's
	// CPUs), a job any CPUs on any of them (cons_tres, CR_CPU); 0: one pool of CPUs.
	uint32_t nodes = 0;
	uint32_t node_cpus = 0;
	// The planner's options (plan::PlannerConfig). Unset: what the policy's Slurm set-up runs
	// with no parameters: a core policy sched/campaign's defaults (plan/scheduler_defaults.h),
	// a fair-share or fcfs baseline sched/backfill's, which has no room for short jobs and
	// (campsim's model) reserves up to 100000 jobs. Set: for every policy of the run.
	std::optional<int32_t>
	    depth; // reservation depth (conservative, per_campaign, slurm_backfill)
	int64_t horizon_s = plan::scheduler_defaults::horizon_s;
	// slurm_backfill: bf_resolution (plan::PlannerConfig::reservation_resolution_s); 0: exact.
	int64_t bf_resolution_s = 0;
	std::optional<double> short_room; // plan::PlannerConfig::short_room, short_limit_s
	int64_t short_limit_s = plan::scheduler_defaults::short_limit_s;
	double short_room_wide = plan::scheduler_defaults::short_room_wide;
	std::optional<int64_t> short_room_recent_s; // plan::PlannerConfig::short_room_recent_s
	std::optional<plan::ShortRoomDemand> short_room_demand;
	// plan::PlannerConfig::short_by_expected (expected run times from the core's predictor)
	std::optional<bool> short_by_expected;
	int32_t local_search = plan::scheduler_defaults::local_search_iterations;
	int64_t local_search_ms = plan::scheduler_defaults::local_search_ms;
	int64_t freeze_slip_s = plan::scheduler_defaults::freeze_slip_s;         // PlannerConfig's
	double freeze_wide = plan::scheduler_defaults::freeze_wide;              // PlannerConfig's
	bool freeze_keeps_room = plan::scheduler_defaults::freeze_keeps_room;    // PlannerConfig's
	int32_t freeze_skip_first = plan::scheduler_defaults::freeze_skip_first; // PlannerConfig's
	std::function<void(double done_fraction)> progress;                      // optional
	// The plans made from dump_plan.from_s to .to_s seconds after the workload's first
	// submission, each whole to dump_plan.line (campsim run --dump-plan); plan dispatchers
	// only.
	PlanDump dump_plan;
};

// The policy names simulate() accepts, for option checking and help.
const std::vector<std::string> &priority_names();

// The planner configuration a run of options.priority plans with (the unset options resolved
// as SimulationOptions says); an unknown priority is planned as a baseline.
plan::PlannerConfig planner_config(const SimulationOptions &options);

Result<RunResult> simulate(const Workload &workload, const SimulationOptions &options);

// The first scheduler pass at or after now_s with passes every period_s (> 0) seconds.
int64_t next_sched_pass_s(int64_t now_s, double period_s);

} // namespace campaign::sim
