// The sched/campaign pass, in three steps: under the scheduler locks, copy Slurm's nodes,
// running jobs and sorted queue; without any lock (the pass's yield), plan the copy with the
// core planner; under the locks again, start through select_nodes the jobs the plan places now,
// on the plan's nodes, and publish the reserved jobs' starts for squeue --start. Only job ids,
// partition names and node indices cross the unlocked step, never a Slurm pointer.
#pragma once

#include "sched_pass.h"

#include "plan/plan_keeper.h"
#include "policy/scheduler_metrics.h"
#include "util/parameters.h"

#include <ctime>
#include <memory>
#include <mutex>
#include <string>

namespace campaign::slurm
{

// What the stats file adds to SchedulerMetrics (which counts passes, starts and refusals: each
// event is counted there once): the kept plan's figures.
struct PlanFigures {
	uint64_t last_reserved = 0;
	uint64_t plans_kept = 0;    // passes that updated the kept plan
	uint64_t plans_rebuilt = 0; // passes that planned afresh
};

class CampaignScheduler
{
public:
	explicit CampaignScheduler(ParameterValues parameters);

	// Called every tick by the plugin thread; plans only when something changed or the
	// period elapsed. Takes and releases the slurmctld locks itself.
	void tick();
	void set_parameters(ParameterValues parameters);
	int64_t period_s() const;

private:
	bool due(time_t now);
	struct PassFigures {
		uint32_t queue_length = 0, started = 0, refused = 0, reserved = 0;
		uint32_t preempting = 0; // starts answered busy while Slurm removes preemptees
		ReasonCounts refused_by_reason, left_out_by_reason;
	};
	struct PlanOutcome plan_queue(const PassInput &input, const ParameterValues &parameters);
	PassFigures apply_plan(const PassInput &input, const struct PlanOutcome &outcome,
	                       const ParameterValues &parameters);
	// campaign_sched_stats.json: the flat figures (from `metrics` and `plan`), then `metrics`
	// under "by_reason".
	static void publish_stats(const std::string &state_dir, const SchedulerMetrics &metrics,
	                          const PlanFigures &plan);

	mutable std::mutex mutex_;
	ParameterValues parameters_;
	PlanFigures plan_figures_;
	// Refusals and left-out jobs by reason over the last kRecentPasses passes, and in total.
	static constexpr uint32_t kRecentPasses = 60;
	SchedulerMetricsWindow metrics_{kRecentPasses};
	time_t last_pass_ = 0;
	UpdateStamps seen_updates_;
	// The plan kept across passes (scheduler thread only); made anew when parameters change.
	std::unique_ptr<plan::PlanKeeper> keeper_;
	std::string keeper_parameters_;
};

} // namespace campaign::slurm
