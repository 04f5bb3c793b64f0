// CampaignDirectory: the campaign of each pending job as the priority plugin last ranked it,
// published for the scheduler plugin (per-campaign reservations). One per process: both
// plugins link this library, so slurmctld holds a single instance. No Slurm types.
#pragma once

#include <cstdint>
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
	};
	// Replaces the whole directory (the ranker's latest pass).
	void publish(const std::vector<Entry> &entries);
	// 0: unknown (not ranked, or no ranking plugin publishes).
	uint64_t campaign_of(uint32_t job_id) const;
	size_t size() const;
	void clear();

private:
	mutable std::mutex mutex_;
	std::unordered_map<uint32_t, uint64_t> campaigns_;
};

// The process's directory. Holders of Slurm locks may read it: it takes only its own mutex,
// and publishers never hold it while waiting for anything.
CampaignDirectory &process_campaign_directory();

} // namespace campaign
