// GresKinds: Slurm's GRES as the planner's counted kinds, for one pass. "gpu" counts every GPU of
// a node, typed or not; "gpu:a100" those of one type. A typed request books both, an untyped one
// only the first: exact on nodes with one type per GRES name; on a node with several types the
// type an untyped job gets is Slurm's choice at the start (its typed kind is not booked).
// Caller holds the node and job locks (sched/campaign's pass does).
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"

namespace campaign::slurm
{

class GresKinds
{
public:
	// The node's available count of each kind (gres_list), adding kinds first seen; GRES that
	// are not consumed (no_consume) are not counted.
	plan::GresCounts node_counts(const node_record_t *node);
	const std::vector<std::string> &names() const { return names_; }
	// What a running job holds on the slot-th node of its allocation (gres_list_alloc).
	plan::GresCounts job_allocated(const job_record_t *job, int slot) const;
	// The job's GRES request (gres_list_req) per node, into `pending`, with the CPUs and memory
	// tied to it (--cpus-per-gpu, --mem-per-gpu). --gpus and --gpus-per-task without
	// --ntasks-per-node are spread evenly over the job's least node count, which the plan then
	// keeps. False if it asks for a kind the plan does not count (no node has it).
	bool add_request(const job_record_t *job, plan::PendingJob &pending,
	                 bool memory_counted) const;

private:
	int find(const std::string &name) const; // -1: not counted
	int add(const std::string &name, const char *node_name);

	std::vector<std::string> names_;
};

} // namespace campaign::slurm
