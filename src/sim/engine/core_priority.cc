// CorePriority: SimJob -> CampaignCore events, and the core's ranking back as job indices.
#include "engine/core_priority.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace campaign::sim
{

namespace
{
const char *const kPartition = "sim";
}

CorePriority::CorePriority(CampaignCore core, std::vector<int64_t> estimates_s)
    : core_(std::move(core)), estimates_s_(std::move(estimates_s)),
      campaign_(estimates_s_.size(), 0), may_start_(estimates_s_.size(), 1)
{
}

Result<CorePriority> CorePriority::create(const std::string &parameters, uint32_t machine_cpus,
                                          std::vector<int64_t> estimates_s)
{
	auto core = CampaignCore::create(parameters);
	if (!core)
		return Error{"priority parameters '" + parameters + "': " + core.error()};
	PartitionCapacity partition;
	partition.partition = kPartition;
	partition.cpus_up = machine_cpus;
	if (Status done = core.value().capacity(partition, 0); !done)
		return Error{"machine of " + std::to_string(machine_cpus) +
		             " CPUs: " + done.error()};
	return CorePriority(std::move(core).value(), std::move(estimates_s));
}

Status CorePriority::submit(uint32_t job, const SimJob &fields, int64_t now_s)
{
	JobFields core_job;
	core_job.job_id = core_id(job);
	core_job.user_id = fields.user;
	core_job.account = std::to_string(fields.group);
	core_job.partitions = {kPartition};
	core_job.submit_s = now_s;
	core_job.eligible_s = now_s;
	core_job.cpus = fields.cpus;
	core_job.limit = TimeLimit::of_seconds(estimates_s_.at(job));
	return core_.submit(core_job, now_s);
}

Status CorePriority::start(uint32_t job, int64_t now_s)
{
	return core_.start(core_id(job), now_s);
}

Status CorePriority::end(uint32_t job, int64_t now_s)
{
	ended_since_rank_ = true; // the plugin's job_end wakes its ranking thread
	return core_.end(core_id(job), now_s);
}

Result<std::vector<uint32_t>> CorePriority::rank(int64_t now_s)
{
	return rank_head(now_s, CampaignCore::kAllJobs);
}

bool CorePriority::ranks_afresh(int64_t now_s)
{
	const bool fresh = calc_period_s_ <= 0 || strict() || last_rank_s_ < 0 ||
	                   ended_since_rank_ || now_s - last_rank_s_ >= calc_period_s_;
	if (fresh) {
		last_rank_s_ = now_s;
		ended_since_rank_ = false;
		++fresh_ranks_;
	}
	return fresh;
}

Result<std::vector<uint32_t>> CorePriority::rank_head(int64_t now_s, size_t max_jobs)
{
	if (!ranks_afresh(now_s))
		return take(core_.rank_as_last(now_s, max_jobs), now_s);
	return take(core_.rank(now_s, CampaignCore::RankScope::jobs_only, max_jobs), now_s);
}

namespace
{

// The planner's test of a job it may pass over, on the core's buckets (campaign slots).
class PlannerFilter final : public RankOrderIndex::Filter
{
public:
	PlannerFilter(const CampaignCore &core, const plan::Planner &planner)
	    : core_(core), planner_(planner)
	{
	}
	bool lists_all(uint32_t bucket) const override
	{
		return planner_.reserves_for(core_.campaign_of_slot(bucket));
	}
	int64_t longest_limit_s(uint32_t cpus) const override
	{
		return planner_.longest_limit_now_s(
		    static_cast<int32_t>(std::min<uint32_t>(cpus, INT32_MAX)));
	}

private:
	const CampaignCore &core_;
	const plan::Planner &planner_;
};

} // namespace

// The core's walk in job indices; each job listed gets its campaign, as take() gives it.
class CorePriority::CoreWalk final : public JobWalk
{
public:
	CoreWalk(CorePriority &owner, RankOrderIndex::Walk walk)
	    : owner_(owner), walk_(std::move(walk))
	{
	}
	std::optional<uint32_t> next(const plan::Planner &planner) override
	{
		const std::optional<uint32_t> id = walk_.next(PlannerFilter(owner_.core_, planner));
		if (!id)
			return std::nullopt;
		const uint32_t job = *id - 1;
		owner_.campaign_.at(job) = owner_.core_.campaign_of_slot(walk_.bucket());
		return job;
	}
	plan::RestBound rest() const override
	{
		const JobShape least = walk_.rest();
		return {static_cast<int32_t>(std::min<uint32_t>(least.cpus, INT32_MAX)),
		        std::max<int64_t>(least.limit_s, 1)};
	}
	void restart() override { walk_.restart(); }

private:
	CorePriority &owner_;
	RankOrderIndex::Walk walk_;
};

bool CorePriority::enable_walks()
{
	// The guards that move single jobs in the ranked list (starve_scope=job,
	// starve_fair_factor, starve_stretch: CoreConfig::moves_jobs) are not seen by the walk over
	// the order index.
	if (strict() || core_.config().policy == PolicyKind::Fifo || core_.config().moves_jobs())
		return false;
	core_.track_job_shapes();
	walks_ = true;
	return true;
}

Result<std::unique_ptr<JobWalk>> CorePriority::walk_head(int64_t now_s)
{
	if (!walks_)
		return std::unique_ptr<JobWalk>();
	const Ranking ranking = ranks_afresh(now_s)
	                            ? core_.rank(now_s, CampaignCore::RankScope::jobs_only, 0)
	                            : core_.rank_as_last(now_s, 0);
	if (!ranking.error.empty())
		return Error{"rank at " + std::to_string(now_s) + " s: " + ranking.error};
	std::optional<RankOrderIndex::Walk> walk = core_.order_walk();
	if (!walk)
		return std::unique_ptr<JobWalk>();
	return std::unique_ptr<JobWalk>(std::make_unique<CoreWalk>(*this, std::move(*walk)));
}

Result<std::vector<uint32_t>> CorePriority::longer_head(int64_t now_s, size_t max_jobs)
{
	return take(core_.rank_as_last(now_s, max_jobs), now_s);
}

Result<std::vector<uint32_t>> CorePriority::take(const Ranking &ranking, int64_t now_s)
{
	if (!ranking.error.empty())
		return Error{"rank at " + std::to_string(now_s) + " s: " + ranking.error};
	next_virtual_start_s_ = -1;
	std::vector<uint32_t> order;
	order.reserve(ranking.order.size());
	for (size_t i = 0; i < ranking.order.size(); ++i) {
		const uint32_t job = ranking.order[i] - 1;
		order.push_back(job);
		const JobExplanation &why = ranking.explanations[i];
		campaign_.at(job) = why.campaign_id;
		may_start_[job] = why.may_start ? 1 : 0;
		if (!why.may_start) {
			const auto wake = static_cast<int64_t>(std::ceil(why.virtual_start_s));
			if (next_virtual_start_s_ < 0 || wake < next_virtual_start_s_)
				next_virtual_start_s_ = wake;
		}
	}
	return order;
}

uint64_t CorePriority::campaign_of(uint32_t job) const
{
	return job < campaign_.size() ? campaign_[job] : 0;
}

bool CorePriority::may_start(uint32_t job) const
{
	return may_start_.at(job) != 0;
}

} // namespace campaign::sim
