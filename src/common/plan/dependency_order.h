// Dependency order: a ranked queue reordered so that each job comes after the pending jobs it
// waits for (PendingJob::after), rank order kept otherwise. The planner places jobs in queue
// order, and a job can only be planned after the end of one already placed.
#pragma once

#include "plan/plan_types.h"

#include <unordered_set>
#include <vector>

namespace campaign::plan
{

struct DependencyOrder {
	std::vector<size_t> order;   // indices into the queue, in the order to plan them
	std::vector<size_t> dropped; // wait for a job neither running nor queued, or in a cycle
};

// A job waiting for one ranked below it moves down to just after it (it could not start before
// it anyway, and takes no higher rank than its own); jobs ranked between keep their places.
// A job waiting for a dropped job is dropped too.
DependencyOrder order_after_waited_for(const std::vector<PendingJob> &queue,
                                       const std::unordered_set<JobId> &running);

} // namespace campaign::plan
