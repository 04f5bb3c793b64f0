// The job and event model the core consumes: job fields as a scheduler reports them, updates,
// and per-partition capacity. Plain values; no Slurm types and no policy logic here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace campaign
{

// A time limit with Slurm's two special meanings kept explicit: Unset (NO_VAL) and Infinite.
// Both are resolved by resolve_limit_s (doc/design.md §3), never counted as infinity.
struct TimeLimit {
	enum class Kind : uint8_t { Set, Unset, Infinite };
	Kind kind = Kind::Unset;
	int64_t seconds = 0; // Set only

	static TimeLimit of_seconds(int64_t seconds) { return {Kind::Set, seconds}; }
	static TimeLimit unset() { return {Kind::Unset, 0}; }
	static TimeLimit infinite() { return {Kind::Infinite, 0}; }
	bool operator==(const TimeLimit &) const = default;
};

// A job as submitted. `eligible_s` empty means "not eligible yet, an eligible() event will
// follow" (unmet dependency); a future value activates the job when time reaches it.
struct JobFields {
	uint32_t job_id = 0;
	uint32_t user_id = 0;
	std::string account;
	std::vector<std::string> partitions; // ordered; the first one decides the domain
	int64_t submit_s = 0;
	std::optional<int64_t> eligible_s;
	uint32_t cpus = 1;
	uint32_t nodes = 1;
	double billable_tres = 0; // 0: use cpus (TRESBillingWeights unset)
	TimeLimit limit;
	uint32_t qos_priority = 0;   // QOS priority above the default QOS: ranks ahead of campaigns
	int32_t nice = 0;            // moves a job within its campaign (lower first)
	uint32_t partition_tier = 0; // PriorityTier of the first partition: higher ranks first
	bool admin_priority = false; // admin-set priority: tracked, never ranked by us
	bool held = false;
	uint32_t array_tasks = 1; // pending tasks this record stands for
};

// An update of a job already submitted; empty fields are unchanged.
struct JobUpdate {
	uint32_t job_id = 0;
	std::optional<TimeLimit> limit;
	std::optional<uint32_t> cpus;
	std::optional<uint32_t> nodes;
	std::optional<double> billable_tres;
	std::optional<std::vector<std::string>> partitions;
	std::optional<uint32_t> partition_tier;
	std::optional<uint32_t> qos_priority;
	std::optional<int32_t> nice;
	std::optional<uint32_t> array_tasks;
	std::optional<bool> admin_priority;
};

// What a partition offers: CPUs up now and its time limits (empty: none/INFINITE).
struct PartitionCapacity {
	std::string partition;
	uint64_t cpus_up = 0;
	std::optional<int64_t> max_time_s;
	std::optional<int64_t> default_time_s;
};

// The cap counted for an unset or INFINITE limit in a partition without DefaultTime or MaxTime
// (PriorityParameters limit_cap_s's default): 7 days.
inline constexpr int64_t kDefaultLimitCapS = 7 * 86400;

// The one time-limit mapping, used by the priority (work of a job) and the plan (its length):
// an unset or INFINITE limit counts as the partition's DefaultTime, else its MaxTime (Slurm's
// own order for a job submitted without --time), else `limit_cap_s`; never infinity. Set limits
// are used as given (negative clamped to 0).
int64_t resolve_limit_s(const TimeLimit &limit, const PartitionCapacity *partition,
                        int64_t limit_cap_s);

} // namespace campaign
