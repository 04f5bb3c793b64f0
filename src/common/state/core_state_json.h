// Saving and restoring the whole CampaignCore state as versioned JSON (jansson). Reads and
// writes strings only: files, atomic renames and locks belong to the caller. No Slurm types.
#pragma once

#include "policy/campaign_core.h"
#include "util/result.h"

#include <string>

namespace campaign
{

inline constexpr int kCoreStateVersion = 1;

// The one way to save and restore a CampaignCore (its only friend): it reads and rebuilds the
// core's private tables, so the core itself knows nothing of JSON.
class CoreStateCodec
{
public:
	static std::string save(const CampaignCore &core);
	static Result<CampaignCore> load(const std::string &json);

private:
	struct Writer; // core_state_json.cc
	struct Reader; // core_state_load.cc
};

} // namespace campaign
