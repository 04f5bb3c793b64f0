// CorePriority: ranks simulated jobs with the core's CampaignCore (fifo, ostrich, faircamp), the
// very code priority/campaign runs in slurmctld. Only maps SimJob to the core's job fields.
#pragma once

#include "engine/priority_source.h"
#include "policy/campaign_core.h"

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
	uint64_t campaign_of(uint32_t job) const override;
	// Strict mode: jobs of campaigns not yet started in V must wait (from the last rank).
	bool may_start(uint32_t job) const;
	bool strict() const { return core_.config().strict; }
	// Strict mode: the earliest virtual start of a held-back job after the last rank (the
	// simulation must wake then even if nothing else happens); -1: none.
	int64_t next_virtual_start_s() const { return next_virtual_start_s_; }

private:
	CorePriority(CampaignCore core, std::vector<int64_t> estimates_s);
	static uint32_t core_id(uint32_t job) { return job + 1; } // the core refuses id 0

	CampaignCore core_;
	std::vector<int64_t> estimates_s_;
	std::vector<uint64_t> campaign_; // by job, from the last rank
	std::vector<uint8_t> may_start_; // by job, from the last rank (strict mode holds back)
	int64_t next_virtual_start_s_ = -1;
};

} // namespace campaign::sim
