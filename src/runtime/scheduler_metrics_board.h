// The latest SchedulerMetrics of this slurmctld: sched/campaign publishes after each pass,
// priority/campaign's scampaign service reads it for each request. Like the campaign directory,
// the one instance lives in libslurm_campaign_runtime.so, the two plugins' meeting point.
#pragma once

#include "policy/scheduler_metrics.h"

#include <mutex>
#include <optional>

namespace campaign
{

class SchedulerMetricsBoard
{
public:
	void publish(const SchedulerMetrics &metrics);
	// None until sched/campaign has passed once (or when it is not the scheduler).
	std::optional<SchedulerMetrics> latest() const;
	void clear();

private:
	mutable std::mutex mutex_;
	std::optional<SchedulerMetrics> metrics_;
};

// Takes only its own mutex, never held while waiting for anything: callers may hold Slurm locks
// or not.
SchedulerMetricsBoard &process_scheduler_metrics();

} // namespace campaign
