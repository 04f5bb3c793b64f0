// CorePriority: ranks simulated jobs with the core's CampaignCore (fifo, ostrich, faircamp), the
// very code priority/campaign runs in slurmctld. Only maps SimJob to the core's job fields.
#pragma once

#include "engine/job_dispatch.h"
#include "engine/priority_source.h"
#include "policy/campaign_core.h"

#include <memory>
#include <string>
#include <vector>

namespace campaign::sim
{

class CorePriority final : public PrioritySource
{
public:
	// `parameters` as PriorityParameters (e.g. "policy=ostrich,mode=strict"); one domain of
	// `machine_cpus` CPUs. `estimates_s[job]` is the work limit the core counts per job.
	static Result<CorePriority> create(const std::string &parameters, uint32_t machine_cpus,
	                                   std::vector<int64_t> estimates_s);

	Status submit(uint32_t job, const SimJob &fields, int64_t now_s) override;
	Status start(uint32_t job, int64_t now_s) override;
	Status end(uint32_t job, int64_t now_s) override;
	Result<std::vector<uint32_t>> rank(int64_t now_s) override;
	// The core lists only the head: the cost is the campaigns' and the head's, not the queue's.
	// With a calc_period, ranks afresh only if a job ended since the last ranking or the
	// period passed; otherwise the last order, jobs submitted since below it (the plugin).
	Result<std::vector<uint32_t>> rank_head(int64_t now_s, size_t max_jobs) override;
	Result<std::vector<uint32_t>> longer_head(int64_t now_s, size_t max_jobs) override;
	// Rank as rank_head does, then give the order as a walk that passes over the jobs the
	// planner says take no place (per_campaign on a deep queue costs its candidates, not the
	// queue); nullptr where the core cannot filter the order: longer_head lists it. Needs
	// enable_walks() before the first job.
	Result<std::unique_ptr<JobWalk>> walk_head(int64_t now_s);
	// Whether walks can be made: the core tracks job shapes. Not under FIFO (one bucket for
	// every campaign) nor strict mode (a filter of the whole order).
	bool enable_walks();
	// priority/campaign's calc_period: 0 ranks afresh at every pass (exact). Strict mode
	// always ranks afresh (whether a campaign may start comes from the ranking).
	void set_calc_period(int64_t calc_period_s) { calc_period_s_ = calc_period_s; }
	uint64_t fresh_ranks() const { return fresh_ranks_; }
	uint64_t campaign_of(uint32_t job) const override;
	int64_t expected_run_s(uint32_t job) const override
	{
		return core_.expected_run_s(core_id(job));
	}
	// Strict mode: jobs of campaigns not yet started in V must wait (from the last rank).
	bool may_start(uint32_t job) const;
	bool strict() const { return core_.config().strict; }
	// Strict mode: the earliest virtual start of a held-back job after the last rank (the
	// simulation must wake then even if nothing else happens); -1: none.
	int64_t next_virtual_start_s() const { return next_virtual_start_s_; }

private:
	CorePriority(CampaignCore core, std::vector<int64_t> estimates_s);
	Result<std::vector<uint32_t>> take(const Ranking &ranking, int64_t now_s);
	// Whether this pass ranks afresh (and if so, counts it as the last fresh ranking).
	bool ranks_afresh(int64_t now_s);
	class CoreWalk;
	static uint32_t core_id(uint32_t job) { return job + 1; } // the core refuses id 0

	CampaignCore core_;
	std::vector<int64_t> estimates_s_;
	std::vector<uint64_t> campaign_; // by job, from the last rank
	std::vector<uint8_t> may_start_; // by job, from the last rank (strict mode holds back)
	int64_t next_virtual_start_s_ = -1;
	int64_t calc_period_s_ = 0;
	int64_t last_rank_s_ = -1; // the last fresh ranking; -1: none yet
	bool ended_since_rank_ = false;
	uint64_t fresh_ranks_ = 0;
	bool walks_ = false;
};

} // namespace campaign::sim
