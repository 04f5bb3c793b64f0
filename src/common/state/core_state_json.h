// Saving and restoring the whole CampaignCore state as versioned JSON (jansson). Reads and
// writes strings only: files, atomic renames and locks belong to the caller. No Slurm types.
#pragma once

#include "policy/campaign_core.h"
#include "util/result.h"

#include <string>

namespace campaign
{

inline constexpr int kCoreStateVersion = 1;

class CoreStateCodec
{
public:
	static std::string save(const CampaignCore &core);
	static Result<CampaignCore> load(const std::string &json);
};

} // namespace campaign
