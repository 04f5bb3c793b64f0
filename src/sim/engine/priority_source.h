// PrioritySource: how the simulation asks a policy to rank the pending jobs. The core-backed
// source (fifo, ostrich, faircamp) and the Slurm-style fair-share baselines implement it.
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>
#include <vector>

namespace campaign::sim
{

// Jobs are named by their index in Workload::jobs. Events arrive in time order; at one instant
// the engine sends ends first, then submits, then asks for a rank, then reports starts.
class PrioritySource
{
public:
	virtual ~PrioritySource() = default;
	virtual Status submit(uint32_t job, const SimJob &fields, int64_t now_s) = 0;
	virtual Status start(uint32_t job, int64_t now_s) = 0;
	virtual Status end(uint32_t job, int64_t now_s) = 0;
	// Every pending (submitted, not started) job, best first; the order is total.
	virtual Result<std::vector<uint32_t>> rank(int64_t now_s) = 0;
	// The head of that order, its first `max_jobs` jobs at least (a source that cannot list a
	// head lists them all). A pass that needs more asks longer_head at the same instant.
	virtual Result<std::vector<uint32_t>> rank_head(int64_t now_s, size_t max_jobs)
	{
		(void)max_jobs;
		return rank(now_s);
	}
	// A longer head of the order rank_head gave at this instant (not ranked again).
	virtual Result<std::vector<uint32_t>> longer_head(int64_t now_s, size_t max_jobs)
	{
		return rank_head(now_s, max_jobs);
	}
	// The campaign this policy puts the job in (per_campaign reservations); 0: none.
	virtual uint64_t campaign_of(uint32_t job) const = 0;
	// The run time this policy expects of the job (its user's recent runs); 0: unknown.
	virtual int64_t expected_run_s(uint32_t job) const
	{
		(void)job;
		return 0;
	}
};

} // namespace campaign::sim
