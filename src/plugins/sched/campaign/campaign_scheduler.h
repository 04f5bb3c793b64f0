// The sched/campaign pass, in three steps: under the scheduler locks, copy Slurm's nodes,
// running jobs and sorted queue; without any lock (the pass's yield), plan the copy with the
// core planner; under the locks again, start through select_nodes the jobs the plan places now,
// on the plan's nodes, and publish the reserved jobs' starts for squeue --start. Only job ids,
// partition names and node indices cross the unlocked step, never a Slurm pointer.
#pragma once

#include "sched_pass.h"

#include "plan/plan_keeper.h"
#include "policy/scheduler_metrics.h"
#include "runtime/campaign_directory.h"
#include "util/parameters.h"

#include <chrono>
#include <ctime>
#include <memory>
#include <mutex>
#include <optional>
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

	// Called every poll by the plugin thread; plans when a job ended or something else
	// changed, a completing node may have come free, or the period elapsed, and at least
	// campaign_min_gap_ms after the last pass began. Takes and releases the slurmctld locks
	// itself.
	void tick();
	void set_parameters(ParameterValues parameters);
	int64_t period_s() const;

private:
	using Clock = std::chrono::steady_clock;
	std::chrono::milliseconds min_gap() const;
	bool due(Clock::time_point now, time_t wall_now);
	// After the copy: when to look again for the CPUs of completing nodes.
	void note_completing(bool nodes_completing, Clock::time_point began);
	struct PassFigures {
		uint32_t queue_length = 0, started = 0, refused = 0, reserved = 0;
		uint32_t preempting = 0; // starts answered busy while Slurm removes preemptees
		ReasonCounts refused_by_reason, left_out_by_reason;
	};
	// The ranking the copy's queue order came from (read under the copy's lock: its
	// priorities were written before it was published); holds: priority/campaign ranks and
	// applies its priorities.
	struct RankingSeen {
		CampaignDirectory::Stamp stamp;
		bool holds = false;
	};
	static RankingSeen ranking_seen();
	struct PlanOutcome plan_queue(const PassInput &input, const ParameterValues &parameters);
	PassFigures apply_plan(const PassInput &input, const struct PlanOutcome &outcome,
	                       const ParameterValues &parameters, const RankingSeen &ranking);
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
	Clock::time_point last_pass_began_{};
	// The stamps as the last copy read them (under its lock), and the second it read them in:
	// a change later in that second leaves the whole-second stamps equal.
	UpdateStamps seen_updates_;
	time_t seen_second_ = 0;
	bool seen_second_checked_ = true;
	// A pass that saw a node completing looks again after campaign_min_gap_ms, doubling up to
	// the period while nodes stay completing (a hung epilog costs no pass every gap).
	std::optional<Clock::time_point> retry_at_;
	// Jobs eligible after the ranking the pass saw were not started: a newer ranking, or the
	// end of the first one's wait, brings the next pass.
	struct RankingWait {
		uint64_t stamp_count = 0;
		time_t until_s = 0;
	};
	std::optional<RankingWait> ranking_wait_;
	uint32_t completing_passes_ = 0;
	// The plan kept across passes (scheduler thread only); made anew when parameters change.
	std::unique_ptr<plan::PlanKeeper> keeper_;
	std::string keeper_parameters_;
};

} // namespace campaign::slurm
