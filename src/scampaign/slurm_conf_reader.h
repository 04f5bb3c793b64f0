// Reads the few slurm.conf keys scampaign needs (AuthType, AuthInfo, SlurmUser, ClusterName,
// PriorityParameters, SlurmctldHost) without Slurm's libraries: "Key=Value" lines, keys
// case-insensitive, '#' comments.
#pragma once

#include "util/result.h"

#include <map>
#include <string>
#include <vector>

namespace campaign
{

struct SlurmConfKeys {
	// Keys lower-cased; the last occurrence wins, as in Slurm.
	std::map<std::string, std::string> last;
	// Every SlurmctldHost value in file order: the primary first, then the backups.
	std::vector<std::string> controllers;

	std::string value(const std::string &lower_key) const
	{
		auto found = last.find(lower_key);
		return found == last.end() ? "" : found->second;
	}
};

Result<SlurmConfKeys> read_slurm_conf(const std::string &path);

} // namespace campaign
