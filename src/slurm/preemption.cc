// PreemptableJobs and preemption_under_way: Slurm's preemption plugin as the plan sees it.
#include "preemption.h"

#include <algorithm>

namespace campaign::slurm
{
namespace
{

// node_scheduler.c's window: a preemption started less than this ago may still be removing
// its preemptees, and select_nodes preempts no more jobs for the preemptor meanwhile.
bool within_preemption_window(const job_record_t *job, time_t now)
{
	const time_t started = job->details ? job->details->preempt_start_time : 0;
	return started != 0 && started > now - slurm_conf.kill_wait - slurm_conf.msg_timeout;
}

} // namespace

PreemptableJobs::PreemptableJobs() : enabled_(slurm_preemption_enabled()) {}

std::vector<plan::JobId> PreemptableJobs::of(job_record_t *job, part_record_t *partition,
                                             time_t now)
{
	if (!enabled_ || !partition || !partition->node_bitmap || job->het_job_id ||
	    within_preemption_window(job, now))
		return {};
	const auto key = std::make_pair(static_cast<const void *>(partition),
	                                static_cast<const void *>(job->qos_ptr));
	if (auto found = by_partition_qos_.find(key); found != by_partition_qos_.end())
		return found->second;
	part_record_t *own = job->part_ptr;
	job->part_ptr = partition; // the preemptor's partition decides (partition_prio)
	list_t *preemptees = slurm_find_preemptable_jobs(job);
	job->part_ptr = own;
	std::vector<plan::JobId> ids;
	if (preemptees) {
		list_itr_t *jobs = list_iterator_create(preemptees);
		while (auto *preemptee = static_cast<job_record_t *>(list_next(jobs)))
			ids.push_back(preemptee->job_id);
		list_iterator_destroy(jobs);
		FREE_NULL_LIST(preemptees);
	}
	std::sort(ids.begin(), ids.end());
	by_partition_qos_.emplace(key, ids);
	return ids;
}

bool preemption_under_way(const job_record_t *job, int rc, time_t now)
{
	return rc == ESLURM_NODES_BUSY && within_preemption_window(job, now);
}

} // namespace campaign::slurm
