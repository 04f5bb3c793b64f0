// RankOrderIndex: the jobs CampaignCore ranks, kept sorted within each campaign, so that a
// ranking merges the campaigns in their rank order (O(campaigns + jobs listed)) instead of
// sorting every pending job at every event. Jobs added since the last full ranking wait apart
// ("late", in arrival order): campsim's calc_period emulation lists them below every ranked job,
// as priority/campaign does with jobs submitted between two passes. No Slurm types.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
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

// A job's shape, as a filtered walk (RankOrderIndex::Walk) tests it.
struct JobShape {
	uint32_t cpus = 1;
	int64_t limit_s = 1;
};

class RankOrderIndex
{
public:
	// Keep each bucket's jobs also by CPU count, for filtered walks (campsim). Call it while
	// the index is empty.
	void track_shapes() { track_shapes_ = true; }
	// The job is rankable in `bucket` (a campaign slot) with `key`; replaces its entry. A job
	// the index did not hold is late until the next settle_late().
	void put(uint32_t bucket, const RankOrderKey &key, JobShape shape = {});
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

	// What a filtered walk asks about the jobs it may pass over.
	class Filter
	{
	public:
		virtual ~Filter() = default;
		// Every job of this bucket must be listed (e.g. its campaign has no reservation
		// yet).
		virtual bool lists_all(uint32_t bucket) const = 0;
		// Otherwise a job of `cpus` CPUs is listed only if its limit is at most this; it
		// does not grow with cpus (0: none).
		virtual int64_t longest_limit_s(uint32_t cpus) const = 0;
	};
	// The order merge() lists, one job at a time, passing over the jobs the filter does not
	// want, at a cost of O(log n) per CPU count of a bucket per job listed instead of one
	// step per job. Valid while the index does not change.
	class Walk
	{
	public:
		// The next job (id) in the order after the one returned last; nullopt: none left.
		std::optional<uint32_t> next(const Filter &filter);
		// The bucket of the job returned last.
		uint32_t bucket() const { return late_ ? late_bucket_ : order_[position_]; }
		// The fewest CPUs and shortest limit of the job returned last and of every job
		// after it in the order, passed over or not.
		JobShape rest() const;
		void restart();

	private:
		friend class RankOrderIndex;
		explicit Walk(const RankOrderIndex &index) : index_(&index) {}
		std::optional<RankOrderKey> next_in_bucket(uint32_t bucket,
		                                           const Filter &filter) const;

		const RankOrderIndex *index_;
		std::vector<uint32_t> order_; // non-empty buckets in rank order
		// below_[i]: the least shape of buckets order_[i..] and of the late jobs.
		std::vector<JobShape> below_;
		std::vector<uint32_t> late_ids_;
		std::vector<JobShape> late_below_;
		size_t position_ = 0;
		std::optional<RankOrderKey> last_; // in order_[position_]
		bool late_ = false;
		size_t late_at_ = 0; // late_ids_[late_at_ - 1] returned last
		uint32_t late_bucket_ = 0;
	};
	// A walk of the order merge(bucket_rank, ...) lists, if the index can filter it: shapes are
	// tracked, one major key and distinct ranks (merge's concatenation), one nice value per
	// bucket, and every job ordered longest limit first (intra = -limit: LPT), so that a
	// bucket's jobs of one CPU count come by non-increasing limit. nullopt otherwise.
	std::optional<Walk> walk(const std::vector<uint32_t> &bucket_rank) const;

private:
	struct Where {
		uint32_t bucket = 0;
		RankOrderKey key;
		uint64_t late_seq = 0; // 0: not late
		JobShape shape;
	};
	void unlink(const Where &where);
	void link(const Where &where);
	static bool longest_first(const Where &where)
	{
		return where.key.intra == -static_cast<double>(where.shape.limit_s);
	}

	std::unordered_map<uint32_t, Where> where_;
	std::vector<std::set<RankOrderKey>> buckets_;
	// Each bucket's job ids in its set's order, remade by merge() only for the buckets
	// changed since (stale_): a ranking of a deep queue walked every set node by node, and
	// between two rankings few campaigns change (HPC2N at 0.95: a fifth of a pass).
	mutable std::vector<std::vector<uint32_t>> flat_;
	mutable std::vector<uint8_t> stale_;
	void touch(uint32_t bucket);
	std::set<std::pair<uint64_t, uint32_t>> late_; // (arrival sequence, job id)
	uint64_t next_late_seq_ = 1;
	bool track_shapes_ = false;
	// With track_shapes_: each bucket's jobs by CPU count (no empty sets), and how many jobs
	// are not ordered longest first.
	std::vector<std::map<uint32_t, std::set<RankOrderKey>>> by_cpus_;
	size_t not_longest_first_ = 0;
};

} // namespace campaign
