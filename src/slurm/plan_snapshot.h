// The planner's view of slurmctld: nodes, running jobs' allocations and expected ends, and the
// pending queue in Slurm's scheduling order, copied into plan types. Caller holds the job, node
// and partition locks (sched/campaign's pass holds them throughout).
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"

namespace campaign::slurm {

struct PlanInput {
	plan::Cluster cluster;
	std::vector<plan::RunningJob> running;
	std::vector<plan::PendingJob> pending;      // rank order, one entry per job
	std::vector<part_record_t *> partition_of;  // pending[i]'s partition (valid under the lock)
};

// `queue`: build_job_queue's records, already sorted (sort_job_queue). Records are read, not
// consumed.
PlanInput plan_input_from(List queue, time_t now);

// Node names of a planned allocation, xmalloc'd for job->sched_nodes.
char *node_names_of(const std::vector<plan::NodeAllocation> &allocations);

// A bitmap of the allocation's nodes (caller frees with FREE_NULL_BITMAP).
bitstr_t *node_bitmap_of(const std::vector<plan::NodeAllocation> &allocations);

} // namespace campaign::slurm
