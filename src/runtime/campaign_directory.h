// CampaignDirectory: the campaign of each pending job as the priority plugin last ranked it,
// published for the scheduler plugin (per-campaign reservations). Runtime layer: the one
// instance lives in libslurm_campaign_runtime.so, which both plugins link, so slurmctld holds a
// single directory; the core never sees it. No Slurm types.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace campaign
{

class CampaignDirectory
{
public:
	struct Entry {
		uint32_t job_id = 0;
		uint64_t campaign_id = 0;
		int64_t expected_run_s = 0; // its user's recent runs predict it; 0: unknown
	};
	// Which ranking the directory holds: the second of its snapshot (a job eligible after it
	// is not ranked yet) and how many were published; applied: its priorities were written
	// (not shadow=yes). sched/campaign holds newly eligible jobs against it.
	struct Stamp {
		int64_t snapshot_s = 0;
		uint64_t count = 0; // 0: no ranking yet
		bool applied = true;
		bool operator==(const Stamp &) const = default;
	};
	// Replaces the whole directory (the ranker's latest pass) and counts a new stamp.
	void publish(const std::vector<Entry> &entries, int64_t snapshot_s = 0,
	             bool applied = true);
	Stamp stamp() const;
	// How sched/campaign asks for a ranking pass: priority/campaign registers its worker's
	// wake when its thread starts and clears it in fini before the worker stops (clear waits
	// for a call under way). request_ranking: false when no ranking plugin listens.
	void set_ranking_waker(std::function<void()> waker);
	void clear_ranking_waker() { set_ranking_waker(nullptr); }
	bool request_ranking() const;
	bool has_ranking_waker() const;
	// 0: unknown (not ranked, or no ranking plugin publishes).
	uint64_t campaign_of(uint32_t job_id) const;
	// The job's entry (job_id 0 and zeros: unknown).
	Entry entry_of(uint32_t job_id) const;
	size_t size() const;
	void clear();

private:
	mutable std::mutex mutex_;
	std::unordered_map<uint32_t, Entry> entries_;
	Stamp stamp_;
	// Its own mutex: a wake never waits for a publish or a reader.
	mutable std::mutex waker_mutex_;
	std::function<void()> waker_;
};

// The process's directory: priority/campaign publishes into it, sched/campaign reads it (the two
// are separate dlopen'ed plugins, so this accessor of the shared runtime library is their only
// meeting point). Holders of Slurm locks may read it: it takes only its own mutex, and
// publishers never hold it while waiting for anything.
CampaignDirectory &process_campaign_directory();

} // namespace campaign
