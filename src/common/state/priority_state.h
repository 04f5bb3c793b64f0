// The priority plugin's state file: the core and the feeder's memory in one versioned JSON
// document, so both are saved and restored together. No Slurm types.
#pragma once

#include "policy/campaign_core.h"
#include "policy/core_feeder.h"

#include <string>

namespace campaign
{

inline constexpr int64_t kPriorityStateVersion = 1;

struct PriorityState {
	CampaignCore core;
	CoreFeeder feeder;
};

std::string save_priority_state(const CampaignCore &core, const CoreFeeder &feeder);
// Errors name the part and the value at fault ("priority state: core: state.jobs[3]...").
Result<PriorityState> load_priority_state(const std::string &json);

} // namespace campaign
