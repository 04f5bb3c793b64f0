// Saving and restoring CoreFeeder's memory of what the core was told, as versioned JSON, to
// persist beside the core's state. Reads and writes strings only. No Slurm types.
#pragma once

#include "policy/core_feeder.h"
#include "util/result.h"

#include <string>

namespace campaign
{

// The one way to save and restore a CoreFeeder (its only friend).
class FeederStateCodec
{
public:
	static std::string save(const CoreFeeder &feeder);
	static Result<CoreFeeder> load(const std::string &json);

private:
	struct Rows; // feeder_state_json.cc
};

} // namespace campaign
