// Never keeps a job_record_t * beyond the lock it was found under (doc/slurm-internals.md).
#include "priority_writer.h"

#include "ctld_lock.h"
#include "priority_factors.h"

#include "util/rank_priority.h"

#include <algorithm>

namespace campaign::slurm
{
namespace
{

// A job whose priority we own: pending, not held (0), not set by an administrator.
bool rankable(const job_record_t *job)
{
	return IS_JOB_PENDING(job) && !IS_JOB_REVOKED(job) && job->priority != 0 &&
	       !job->direct_set_prio && job->details;
}

} // namespace

// Slurm calls this at submit and after every update of a pending job (job_mgr.c: set_job_prio
// unless PriorityType is priority/basic), so an update must not move a ranked job.
uint32_t priority_at_submit(job_record_t *job, uint32_t last_priority)
{
	// An operator's value (scontrol update Priority=, sbatch --priority) stays until reset.
	if (job->direct_set_prio && job->priority > 0)
		return job->priority;
	int64_t rank_value = 0;
	uint32_t score = 1;
	if (std::optional<int64_t> ranked = ranked_priority_of(job)) {
		rank_value = *ranked; // same rank as the last pass, with today's nice
		score = campaign_score_of(job);
	} else { // below every ranked job until the next pass ranks it
		rank_value = last_priority >= 2 ? last_priority - 1 : 1;
		if (last_priority == 0 || last_priority > kTopPriority)
			rank_value = kTopPriority;
	}
	const uint32_t priority = published_priority(
	    static_cast<uint32_t>(std::clamp<int64_t>(rank_value, 1, kHighestPriority)),
	    nice_of(job));
	set_priority_factors(job, priority, score);
	return priority;
}

size_t write_ranked_priorities(const std::vector<uint32_t> &order)
{
	size_t changed = 0;
	CtldLock hold(kWriteJobs);
	const size_t count = order.size();
	for (size_t rank = 0; rank < count; rank++) {
		job_record_t *job = find_job_record(order[rank]);
		if (!job || !rankable(job))
			continue; // started, held or re-prioritized by an admin since the snapshot
		const uint32_t priority = published_priority(priority_for_rank(rank), nice_of(job));
		if (job->priority != priority)
			changed++;
		job->priority = priority;
		// sprio's AGE column carries the rank score (count - rank), SITE the base.
		set_priority_factors(job, priority, static_cast<uint32_t>(count - rank));
	}
	if (changed)
		last_job_update = time(nullptr);
	return changed;
}

} // namespace campaign::slurm
