// Copies Slurm's job and partition tables into the core's plain types (ObservedJob,
// PartitionCapacity) under one short read lock. Nothing returned points into Slurm memory.
#pragma once

#include "slurm_api.h"

#include "policy/core_feeder.h"

#include <unordered_map>

namespace campaign::slurm
{

struct ClusterSnapshot {
	time_t now = 0;
	bool private_jobs = false; // PrivateData=jobs
	std::string state_dir;     // StateSaveLocation
	std::vector<ObservedJob> jobs;
	std::vector<PartitionCapacity> partitions;
	// Each user's and account's share of the cluster from the association tree (sacctmgr
	// Fairshare): the product of shares over level shares on the path to root. Empty without
	// accounting.
	std::unordered_map<uint32_t, double> user_shares;
	std::unordered_map<std::string, double> account_shares;
};

// Takes {conf, job, node, part} read locks, then the assoc_mgr association read lock, itself:
// call from a plugin thread only.
ClusterSnapshot take_snapshot();

// Slurm's limits in minutes as the core's: NO_VAL is unset, INFINITE infinite (a partition's
// unset or INFINITE time: none). resolve_limit_s (model/job.h) maps them, for both plugins.
TimeLimit limit_of(uint32_t minutes);
std::optional<int64_t> minutes_to_seconds(uint32_t minutes);

} // namespace campaign::slurm
