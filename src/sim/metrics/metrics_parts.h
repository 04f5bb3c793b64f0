// The parts of compute_metrics, one file each (campaigns, users, utilization), over the jobs
// already scored. Internal to src/sim/metrics; no output formatting.
#pragma once

#include "metrics/run_metrics.h"

#include <vector>

namespace campaign::sim::metrics_detail
{

// A run with every outcome scored (times[i] belongs to run.jobs[i]).
struct ScoredRun {
	const Workload &workload;
	const RunResult &run;
	std::vector<JobTimes> times;
	uint32_t machine_cpus = 1; // >= 1
	// The job's CPU count, clamped to the machine (only for non-Invalid outcomes).
	uint32_t cpus(size_t outcome) const;
};

// Campaign rows, distributions, shares and the stretch histogram.
void score_campaigns(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out);
// Per-user rows, user stretch, Jain, NUWT and profiles (after score_campaigns).
void score_users(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out);
// Bounded campaign stretch of all, light and heavy users (after score_campaigns).
void score_user_groups(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out);
// Utilization and its series.
void score_utilization(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out);

} // namespace campaign::sim::metrics_detail
