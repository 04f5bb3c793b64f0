// PriorityRanker: lock discipline of the internals brief (§1.3, §8): copy, unlock, compute,
// re-lock, revalidate by job id. Never keeps a job_record_t* across a lock release.
#include "priority_ranker.h"

#include "ctld_lock.h"
#include "priority_factors.h"
#include "util/rank_priority.h"

#include <chrono>

namespace campaign::slurm {
namespace {

// A job whose priority we own: pending, not held (0), not set by an administrator.
bool rankable(const job_record_t *job)
{
	return IS_JOB_PENDING(job) && !IS_JOB_REVOKED(job) && job->priority != 0 &&
	       !job->direct_set_prio && job->details;
}

} // namespace

PriorityRanker::PriorityRanker(ParameterValues parameters) : parameters_(std::move(parameters)) {}

void PriorityRanker::set_parameters(ParameterValues parameters)
{
	std::lock_guard<std::mutex> hold(mutex_);
	parameters_ = std::move(parameters);
}

int64_t PriorityRanker::calc_period_s() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return parameters_.integer("calc_period");
}

uint32_t PriorityRanker::priority_at_submit(uint32_t last_priority, job_record_t *job)
{
	if (job->direct_set_prio && job->priority > 1)
		return job->priority;
	// FIFO: a new job ranks after every pending job; the next pass writes the exact rank.
	uint32_t priority = last_priority >= 2 ? last_priority - 1 : 1;
	if (last_priority == 0 || last_priority > kTopPriority)
		priority = kTopPriority;
	set_priority_factors(job, priority, 0);
	return priority;
}

CampaignReport PriorityRanker::report() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return report_;
}

bool PriorityRanker::private_jobs() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return private_jobs_;
}

std::vector<PriorityRanker::PendingJob> PriorityRanker::snapshot_pending()
{
	std::vector<PendingJob> pending;
	CtldLock hold(kReadConfigAndJobs);
	{
		std::lock_guard<std::mutex> guard(mutex_);
		private_jobs_ = slurm_conf.private_data & PRIVATE_DATA_JOBS;
	}
	ListIterator it = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(it)))
		if (rankable(job))
			pending.push_back({job->job_id, static_cast<int64_t>(job->details->submit_time)});
	list_iterator_destroy(it);
	return pending;
}

size_t PriorityRanker::apply(const std::vector<uint32_t> &order) const
{
	size_t changed = 0;
	CtldLock hold(kWriteJobs);
	for (size_t rank = 0; rank < order.size(); rank++) {
		job_record_t *job = find_job_record(order[rank]);
		if (!job || !rankable(job))
			continue; // started, held or re-prioritized by an admin since the snapshot
		const uint32_t priority = priority_for_rank(rank);
		if (job->priority != priority)
			changed++;
		job->priority = priority;
		set_priority_factors(job, priority, 0);
	}
	if (changed)
		last_job_update = time(nullptr);
	return changed;
}

void PriorityRanker::rank_pass()
{
	const auto started = std::chrono::steady_clock::now();
	std::vector<FifoEntry> entries;
	for (const PendingJob &job : snapshot_pending())
		entries.push_back({job.job_id, job.submit_s});
	const size_t ranked = entries.size();
	const size_t changed = apply(fifo_order(std::move(entries)));
	const auto took_us = std::chrono::duration_cast<std::chrono::microseconds>(
				     std::chrono::steady_clock::now() - started)
				     .count();
	std::lock_guard<std::mutex> hold(mutex_);
	passes_++;
	report_.policy = parameters_.text("policy");
	report_.generated_s = time(nullptr);
	log_flag(PRIO, "priority/campaign: pass %lu ranked %zu pending jobs, %zu changed, %ld us",
		 static_cast<unsigned long>(passes_), ranked, changed, static_cast<long>(took_us));
}

} // namespace campaign::slurm
