// RankLagPriority: the ranked order with this second's arrivals moved last.
#include "engine/rank_lag_priority.h"

#include "policy/campaign_core.h"

namespace campaign::sim
{

RankLagPriority::RankLagPriority(std::unique_ptr<PrioritySource> ranked, size_t job_count)
    : ranked_(std::move(ranked)), arrived_now_(job_count, 0)
{
}

Status RankLagPriority::submit(uint32_t job, const SimJob &fields, int64_t now_s)
{
	if (job >= arrived_now_.size())
		return Error{"rank lag: job index " + std::to_string(job) +
		             " outside the workload"};
	if (now_s != arrivals_s_) {
		for (uint32_t earlier : arrivals_)
			arrived_now_[earlier] = 0;
		arrivals_.clear();
		arrivals_s_ = now_s;
	}
	arrived_now_[job] = 1;
	arrivals_.push_back(job);
	return ranked_->submit(job, fields, now_s);
}

Status RankLagPriority::start(uint32_t job, int64_t now_s)
{
	if (job < arrived_now_.size())
		arrived_now_[job] = 0;
	return ranked_->start(job, now_s);
}

Status RankLagPriority::end(uint32_t job, int64_t now_s)
{
	return ranked_->end(job, now_s);
}

bool RankLagPriority::unranked_pending(int64_t now_s) const
{
	if (now_s != arrivals_s_)
		return false;
	for (uint32_t job : arrivals_)
		if (arrived_now_[job])
			return true;
	return false;
}

Result<std::vector<uint32_t>> RankLagPriority::lagged(Result<std::vector<uint32_t>> order,
                                                      int64_t now_s)
{
	if (!order || !unranked_pending(now_s))
		return order;
	std::vector<uint32_t> moved;
	moved.reserve(order.value().size());
	for (uint32_t job : order.value())
		if (!arrived_now_[job])
			moved.push_back(job);
	for (uint32_t job : arrivals_)
		if (arrived_now_[job])
			moved.push_back(job);
	return moved;
}

Result<std::vector<uint32_t>> RankLagPriority::rank(int64_t now_s)
{
	return lagged(ranked_->rank(now_s), now_s);
}

// A head of the order cannot be lagged (an arrival cut from it would belong below the head's
// jobs, and a job below the head above the arrivals): while arrivals are pending, the whole
// order.
Result<std::vector<uint32_t>> RankLagPriority::rank_head(int64_t now_s, size_t max_jobs)
{
	if (!unranked_pending(now_s))
		return ranked_->rank_head(now_s, max_jobs);
	return lagged(ranked_->rank_head(now_s, CampaignCore::kAllJobs), now_s);
}

Result<std::vector<uint32_t>> RankLagPriority::longer_head(int64_t now_s, size_t max_jobs)
{
	if (!unranked_pending(now_s))
		return ranked_->longer_head(now_s, max_jobs);
	return lagged(ranked_->longer_head(now_s, CampaignCore::kAllJobs), now_s);
}

} // namespace campaign::sim
