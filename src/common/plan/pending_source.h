// PendingSource: a ranked queue the planner pulls from one job at a time (starts_only), so that
// a caller with a deep queue can pass over the jobs that cannot matter to this plan instead of
// listing them all (campsim's per_campaign passes on an overloaded log). No Slurm types.
#pragma once

#include "plan/plan_types.h"

#include <cstdint>

namespace campaign::plan
{

class Planner;

// The fewest CPUs and the shortest limit among some pending jobs.
struct RestBound {
	int32_t cpus = 1;
	int64_t limit_s = 1;
};

class PendingSource
{
public:
	virtual ~PendingSource() = default;
	// The next job in rank order after the one returned last (nullptr: none left). A job may
	// be passed over only if, on `planner` as it stands, it would take no place in the plan:
	// planner.reserves_for(its campaign) is false and its limit exceeds
	// planner.longest_limit_now_s(its CPUs, at least its nodes_min): it could neither start
	// now nor reserve. The returned job stays valid until the next call.
	virtual const PendingJob *next(const Planner &planner) = 0;
	// The fewest CPUs and shortest limit of the job next() returned last and of every job
	// ranked below it, passed over or not (the planner's bound on what could still start).
	virtual RestBound rest() const = 0;
	// Back to the first job (the planner starts again after an error).
	virtual void restart() = 0;
};

} // namespace campaign::plan
