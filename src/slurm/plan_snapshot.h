// The planner's view of slurmctld: nodes, running jobs' allocations and expected ends, and the
// pending queue in Slurm's scheduling order, copied into plan types, less the jobs that QOS and
// association limits hold now. Caller holds the job write lock (the limit checks set pending
// reasons) and the node and partition locks: sched/campaign's pass holds them throughout.
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"
#include "policy/scheduler_metrics.h"

namespace campaign::slurm
{

struct PlanInput {
	plan::Cluster cluster;
	std::vector<plan::RunningJob> running;
	std::vector<plan::PendingJob> pending; // rank order; array records: one per task
	// pending[i]'s partitions (valid under the lock): [0] that of allowed_nodes, [k] that of
	// other_node_sets[k - 1] (a job submitted to several partitions), so [node_set].
	std::vector<std::vector<part_record_t *>> partitions_of;
	// Pending jobs not planned, by reason: Slurm's pending reason for the jobs build_job_queue
	// or a QOS/association limit held back, our own name for the pass's other pre-checks.
	ReasonCounts left_out;
};

// Plan ids: the job id, with the task's index above it for the further tasks of a pending array
// record (task 0 is the record itself).
inline plan::JobId plan_id(uint32_t job_id, uint32_t task)
{
	return (plan::JobId{task} << 32) | job_id;
}
// The running job that stands for a powered-down node's resume (plan_snapshot.cc): above every
// plan_id.
inline plan::JobId power_up_id(uint32_t node_index)
{
	return (plan::JobId{1} << 62) | node_index;
}
inline uint32_t job_id_of(plan::JobId id)
{
	return static_cast<uint32_t>(id & 0xffffffffu);
}
inline bool first_task(plan::JobId id)
{
	return (id >> 32) == 0;
}

// `queue`: build_job_queue's records, already sorted (sort_job_queue). Records are read, not
// consumed. Unset and INFINITE limits count as resolve_limit_s maps them, with `limit_cap_s`.
PlanInput plan_input_from(list_t *queue, time_t now, int64_t limit_cap_s);

// Whether the plan gives the job a task layout of its own (more than one CPU a task, tasks per
// node, --spread-job): then the start requires every planned node (sched_pass.cc).
bool has_task_layout(const job_record_t *job);

// Node names of a planned allocation, xmalloc'd for job->sched_nodes.
char *node_names_of(const std::vector<plan::NodeAllocation> &allocations);

// A bitmap of the allocation's nodes (caller frees with FREE_NULL_BITMAP).
bitstr_t *node_bitmap_of(const std::vector<plan::NodeAllocation> &allocations);

} // namespace campaign::slurm
