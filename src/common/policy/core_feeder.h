// CoreFeeder: turns successive snapshots of a scheduler's job table into the core's events
// (submit, eligible, start, end, cancel, hold/release, update), in time order. No Slurm types:
// the plugin fills ObservedJob from job records, a simulator or a test from anything else.
#pragma once

#include "policy/campaign_core.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace campaign
{

// One job as the scheduler shows it now.
struct ObservedJob {
	enum class State : uint8_t { Pending, Running, Finished };
	JobFields fields; // eligible_s empty: not eligible yet (unmet dependency)
	State state = State::Pending;
	int64_t start_s = 0; // Running or Finished
	int64_t end_s = 0;   // Finished
	bool ran = false;    // Finished: it had started (else it was cancelled while pending)
};

// What one reconcile did, for logs and tests.
struct FeedCounts {
	uint32_t submitted = 0, started = 0, ended = 0, cancelled = 0, updated = 0;
	uint32_t errors = 0;
	std::string first_error; // the first event the core refused, naming the job
};

class CoreFeeder
{
public:
	// A finished job is remembered this long after it leaves the table: a slurmctld that
	// crashes after purging it may recover it from an older job_state, and it must not be
	// counted twice.
	static constexpr int64_t kDoneMemoryS = 3600;

	// Feeds `core` with the difference between what it was told before and `jobs` (the whole
	// table), then `partitions`' capacity changes. Jobs missing from `jobs` are over: a running
	// one ends at `now_s`, a pending one is cancelled.
	FeedCounts reconcile(CampaignCore &core, const std::vector<ObservedJob> &jobs,
	                     const std::vector<PartitionCapacity> &partitions, int64_t now_s);

	size_t tracked() const { return tracked_.size(); }

private:
	enum class Told : uint8_t { Pending, Running, Done };
	struct Tracked {
		Told told = Told::Pending;
		bool eligible = false;
		bool held = false;
		bool admin_priority = false;
		TimeLimit limit;
		uint32_t cpus = 1, nodes = 1, array_tasks = 1;
		int32_t nice = 0;
		int64_t start_s = 0;
		int64_t gone_s = 0; // Done and missing from the table since then (0: present)
	};
	struct Event;
	static int same_time_rank(const Event &event);
	friend class FeederStateCodec; // state/feeder_state_json.h saves and restores it

	void observe(const ObservedJob &job, int64_t now_s, std::vector<Event> &events);
	void observe_new(const ObservedJob &job, std::vector<Event> &events,
	                 std::optional<int64_t> submit_at_s = std::nullopt);
	void observe_known(const ObservedJob &job, Tracked &tracked, int64_t now_s,
	                   std::vector<Event> &events);
	void forget_missing(const std::vector<ObservedJob> &jobs, int64_t now_s,
	                    std::vector<Event> &events);
	static Tracked tracked_from(const ObservedJob &job);

	std::unordered_map<uint32_t, Tracked> tracked_;
	std::unordered_map<std::string, PartitionCapacity> capacities_;
};

} // namespace campaign
