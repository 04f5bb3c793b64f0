// What sched/campaign's passes add up to, for scampaign and the stats file: cycle times, jobs
// planned, starts Slurm refused and jobs the pass left out, each by reason, over the last passes
// and since start. Plain values; the scheduler fills it, no Slurm types.
#pragma once

#include "util/result.h"

#include <cstdint>
#include <deque>
#include <map>
#include <string>

namespace campaign
{

// Count per reason (Slurm's error text or pending reason); ordered, so output is stable.
using ReasonCounts = std::map<std::string, uint64_t>;

struct SchedulerMetrics {
	uint64_t passes = 0;
	uint64_t jobs_started = 0;
	uint64_t last_pass_us = 0;
	uint64_t max_pass_us = 0;
	uint64_t last_queue_length = 0;
	uint64_t last_planned = 0;  // started now plus reserved, last pass
	uint32_t window_passes = 0; // passes the *_recent counts cover (at most the window's size)
	ReasonCounts refused_total;
	ReasonCounts refused_recent;
	ReasonCounts left_out_last; // jobs the last pass's pre-checks left out of the plan
	ReasonCounts left_out_recent;
};

// One pass's figures as sched/campaign measured them.
struct PassCounts {
	uint64_t took_us = 0;
	uint64_t queue_length = 0;
	uint64_t started = 0;
	uint64_t reserved = 0;
	ReasonCounts refused;
	ReasonCounts left_out;
};

// Adds passes up: totals since start plus sums over the last `window` passes.
class SchedulerMetricsWindow
{
public:
	explicit SchedulerMetricsWindow(uint32_t window) : window_(window ? window : 1) {}
	void add(const PassCounts &pass);
	const SchedulerMetrics &metrics() const { return metrics_; }

private:
	uint32_t window_;
	std::deque<PassCounts> recent_;
	SchedulerMetrics metrics_;
};

// {"passes":..., "refused_total":{"reason":n,...}, ...}; and back, with errors naming the key.
std::string scheduler_metrics_to_json(const SchedulerMetrics &metrics);
Result<SchedulerMetrics> scheduler_metrics_from_json(const std::string &text);

} // namespace campaign
