// usable_cpus_on: the CPUs a job could take on one node given its free amounts, the test the
// gap search makes for every candidate node at every change of its free amounts.
#pragma once

#include "plan/node_free.h"
#include "plan/plan_types.h"

#include <algorithm>
#include <cstdint>

namespace campaign::plan
{

inline bool needs_gres(const PendingJob &job)
{
	for (int32_t count : job.gres_per_node)
		if (count > 0)
			return true;
	return false;
}

// Whole tasks only (PendingJob's task layout): CPUs in multiples of cpus_per_task, and with
// tasks_per_node exactly that many tasks or none, as cons_tres's _select_cores sets a node's
// task range. Monotone in `cpus`, so the window minima may apply it to a node's least free.
[[gnu::always_inline]] inline int64_t layout_cpus(const PendingJob &job, int64_t cpus)
{
	if (job.cpus_per_task <= 1 && job.tasks_per_node <= 0)
		return cpus;
	const int64_t per_task = std::max(job.cpus_per_task, 1);
	int64_t tasks = cpus / per_task;
	if (job.tasks_per_node > 0)
		tasks = tasks < job.tasks_per_node ? 0 : job.tasks_per_node;
	return tasks * per_task;
}

// With needs_gres(job) computed once per search (inlined: the call cost as much as the test),
// so a job without GRES (most) skips their check.
[[gnu::always_inline]] inline int32_t usable_cpus_on(const PendingJob &job, bool gres_needed,
                                                     const NodeFree &free, const NodeFree &capacity)
{
	if (job.exclusive) {
		const bool whole_node_free = free.cpus >= capacity.cpus &&
		                             free.memory_mb >= capacity.memory_mb &&
		                             gres_at_least(free.gres, capacity.gres);
		// The CPUs its tasks can use; the booking takes the whole node (allocation_for).
		return whole_node_free && gres_at_least(capacity.gres, job.gres_per_node)
		           ? static_cast<int32_t>(layout_cpus(job, capacity.cpus))
		           : 0;
	}
	if (gres_needed && !gres_at_least(free.gres, job.gres_per_node))
		return 0;
	const int64_t per_node_mb = job.all_memory ? capacity.memory_mb : job.memory_per_node_mb;
	const int64_t memory_left_mb = free.memory_mb - per_node_mb;
	if (memory_left_mb < 0 || free.cpus <= 0)
		return 0;
	int64_t cpus = free.cpus;
	if (job.memory_per_cpu_mb > 0)
		cpus = std::min(cpus, memory_left_mb / job.memory_per_cpu_mb);
	return static_cast<int32_t>(layout_cpus(job, cpus));
}

} // namespace campaign::plan
