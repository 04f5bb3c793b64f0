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
	// Fairshare): the product of shares over level shares on the path to root. Those with
	// pending jobs, and with AssociationUsage::read those with usage too. Empty without
	// accounting.
	std::unordered_map<uint32_t, double> user_shares;
	std::unordered_map<std::string, double> account_shares;
	// With AssociationUsage::read: each user's and account's RawUsage as sshare shows it (the
	// association's usage_raw, billed TRES-seconds decayed by PriorityDecayHalfLife); a user's
	// summed over its associations (accounts, partitions), an account's its own association's
	// (which holds its users' and sub-accounts'). Every association, not only those with
	// pending jobs: usage shares weigh each unit's usage against all units'. Empty without
	// accounting.
	std::unordered_map<uint32_t, double> user_usage;
	std::unordered_map<std::string, double> account_usage;
};

// Whether take_snapshot reads every association's usage (only usage-aware shares need it).
enum class AssociationUsage { skip, read };

// Takes {conf, job, node, part} read locks, then the assoc_mgr association read lock, itself:
// call from a plugin thread only.
ClusterSnapshot take_snapshot(AssociationUsage usage = AssociationUsage::skip);

// Slurm's limits in minutes as the core's: NO_VAL is unset, INFINITE infinite (a partition's
// unset or INFINITE time: none). resolve_limit_s (model/job.h) maps them, for both plugins.
TimeLimit limit_of(uint32_t minutes);
std::optional<int64_t> minutes_to_seconds(uint32_t minutes);

} // namespace campaign::slurm
