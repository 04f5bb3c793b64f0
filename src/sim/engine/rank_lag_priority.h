// RankLagPriority: a core policy's order as sched/campaign's pass sees it in the second a job
// arrives at its begin time (campsim run --rank-lag, doc/replay-results.md "Why the ostrich
// medians differ"). Slurm wakes no ranking thread when a begin time passes, and sched/campaign
// passes at each new second, so that pass finds the arrivals at the priority they got at
// submit (below the ranked jobs, in submission order) until priority/campaign's next pass
// ranks them, within calc_period. Whole seconds: jobs that arrived at now_s come after every
// other pending job, in arrival order, for the passes of that second; ranked from the next.
#pragma once

#include "engine/priority_source.h"

#include <memory>
#include <vector>

namespace campaign::sim
{

class RankLagPriority final : public PrioritySource
{
public:
	RankLagPriority(std::unique_ptr<PrioritySource> ranked, size_t job_count);

	Status submit(uint32_t job, const SimJob &fields, int64_t now_s) override;
	Status start(uint32_t job, int64_t now_s) override;
	Status end(uint32_t job, int64_t now_s) override;
	Result<std::vector<uint32_t>> rank(int64_t now_s) override;
	Result<std::vector<uint32_t>> rank_head(int64_t now_s, size_t max_jobs) override;
	Result<std::vector<uint32_t>> longer_head(int64_t now_s, size_t max_jobs) override;
	uint64_t campaign_of(uint32_t job) const override { return ranked_->campaign_of(job); }
	int64_t expected_run_s(uint32_t job) const override { return ranked_->expected_run_s(job); }
	// Whether jobs that arrived at now_s are still pending (unranked): the order changes at
	// the next second, which needs a pass then.
	bool unranked_pending(int64_t now_s) const;

private:
	// `order` (every pending job) with the arrivals of now_s moved last, in arrival order.
	Result<std::vector<uint32_t>> lagged(Result<std::vector<uint32_t>> order, int64_t now_s);

	std::unique_ptr<PrioritySource> ranked_;
	std::vector<uint8_t> arrived_now_; // by job: arrived at arrivals_s_, not started
	std::vector<uint32_t> arrivals_;   // the jobs that arrived at arrivals_s_, in order
	int64_t arrivals_s_ = -1;
};

} // namespace campaign::sim
