// Preemption (PreemptType=preempt/qos, preempt/partition_prio): which running jobs a pending job
// may preempt, for the plan, and whether a start Slurm answered "busy" is a preemption under
// way rather than a refusal. Caller holds the job write lock and the partition lock.
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"

#include <map>
#include <utility>
#include <vector>

namespace campaign::slurm
{

// slurm_find_preemptable_jobs once per partition and QOS of the preemptor (what preempt/qos and
// preempt/partition_prio decide by), for one pass: the call walks every job.
class PreemptableJobs
{
public:
	PreemptableJobs();
	// The running jobs `job` may preempt when started in `partition`, sorted; none when
	// preemption is off, or while the job's own preemption is under way (it waits for the
	// jobs it preempted, and preempts no others).
	std::vector<plan::JobId> of(job_record_t *job, part_record_t *partition, time_t now);

private:
	bool enabled_ = false;
	std::map<std::pair<const void *, const void *>, std::vector<plan::JobId>> by_partition_qos_;
};

// select_nodes preempted for `job` (or found its preemption still under way) and answered
// ESLURM_NODES_BUSY: the preemptees are being removed, within Slurm's own window for it
// (KillWait + MessageTimeout from the preemption's start, as node_scheduler.c counts it).
bool preemption_under_way(const job_record_t *job, int rc, time_t now);

} // namespace campaign::slurm
