// RankOrderIndex: the jobs CampaignCore ranks, kept sorted within each campaign, so that a
// ranking merges the campaigns in their rank order (O(campaigns + jobs listed)) instead of
// sorting every pending job at every event. Jobs added since the last full ranking wait apart
// ("late", in arrival order): campsim's calc_period emulation lists them below every ranked job,
// as priority/campaign does with jobs submitted between two passes. No Slurm types.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace campaign
{

// A job's place inside its campaign: the total order of the ranking less the campaign's rank.
struct RankOrderKey {
	uint64_t major = 0;     // partition tier (descending), then QOS priority (descending)
	uint32_t nice_bits = 0; // nice + 2^31 (0 under FIFO)
	double intra = 0;       // LPT: -length, SPT: length, FIFO: 0
	int64_t submit_s = 0;
	uint32_t job_id = 0;
	auto operator<=>(const RankOrderKey &) const = default;
};

class RankOrderIndex
{
public:
	// The job is rankable in `bucket` (a campaign slot) with `key`; replaces its entry. A job
	// the index did not hold is late until the next settle_late().
	void put(uint32_t bucket, const RankOrderKey &key);
	void remove(uint32_t job_id);
	void clear();
	// A full ranking: late jobs join their campaigns.
	void settle_late();
	size_t size() const { return where_.size(); }
	bool holds(uint32_t job_id) const { return where_.count(job_id) != 0; }

	// Appends to `job_ids` the first `max_jobs` jobs of the total order: by major key, then
	// the bucket's rank (`bucket_rank[bucket]`; buckets past its end rank last), then the rest
	// of the key; late jobs after all of them, in arrival order.
	void merge(const std::vector<uint32_t> &bucket_rank, size_t max_jobs,
	           std::vector<uint32_t> &job_ids) const;

private:
	struct Where {
		uint32_t bucket = 0;
		RankOrderKey key;
		uint64_t late_seq = 0; // 0: not late
	};
	void unlink(const Where &where);

	std::unordered_map<uint32_t, Where> where_;
	std::vector<std::set<RankOrderKey>> buckets_;
	std::set<std::pair<uint64_t, uint32_t>> late_; // (arrival sequence, job id)
	uint64_t next_late_seq_ = 1;
};

} // namespace campaign
