// Reads the few slurm.conf keys scampaign needs (AuthInfo, PriorityParameters) without Slurm's
// libraries: "Key=Value" lines, keys case-insensitive, '#' comments.
#pragma once

#include "util/result.h"

#include <map>
#include <string>

namespace campaign
{

// Keys lower-cased; the last occurrence wins, as in Slurm.
Result<std::map<std::string, std::string>> read_slurm_conf(const std::string &path);

} // namespace campaign
