// RankOrderIndex: per-campaign sorted sets, merged by campaign rank on demand.
#include "policy/rank_order_index.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <tuple>

namespace campaign
{

void RankOrderIndex::unlink(const Where &where)
{
	if (where.late_seq != 0) {
		late_.erase({where.late_seq, where.key.job_id});
		return;
	}
	buckets_[where.bucket].erase(where.key);
	touch(where.bucket);
	if (!track_shapes_)
		return;
	auto &by_cpus = by_cpus_[where.bucket];
	auto jobs = by_cpus.find(where.shape.cpus);
	jobs->second.erase(where.key);
	if (jobs->second.empty())
		by_cpus.erase(jobs);
}

void RankOrderIndex::touch(uint32_t bucket)
{
	if (stale_.size() <= bucket)
		stale_.resize(bucket + 1, 1);
	stale_[bucket] = 1;
	if (bucket < flat_.size() && buckets_[bucket].empty())
		std::vector<uint32_t>().swap(flat_[bucket]); // a finished campaign's slot
}

void RankOrderIndex::link(const Where &where)
{
	if (buckets_.size() <= where.bucket)
		buckets_.resize(where.bucket + 1);
	buckets_[where.bucket].insert(where.key);
	touch(where.bucket);
	if (!track_shapes_)
		return;
	if (by_cpus_.size() <= where.bucket)
		by_cpus_.resize(where.bucket + 1);
	by_cpus_[where.bucket][where.shape.cpus].insert(where.key);
}

void RankOrderIndex::put(uint32_t bucket, const RankOrderKey &key, JobShape shape)
{
	auto found = where_.find(key.job_id);
	if (found == where_.end()) {
		const uint64_t seq = next_late_seq_++;
		found = where_.emplace(key.job_id, Where{bucket, key, seq, shape}).first;
		late_.insert({seq, key.job_id});
		if (track_shapes_ && !longest_first(found->second))
			++not_longest_first_;
		return;
	}
	Where &where = found->second;
	if (where.late_seq == 0 && where.bucket == bucket && where.key == key &&
	    where.shape.cpus == shape.cpus && where.shape.limit_s == shape.limit_s)
		return;
	unlink(where);
	if (track_shapes_ && !longest_first(where))
		--not_longest_first_;
	where.bucket = bucket;
	where.key = key;
	where.shape = shape;
	if (track_shapes_ && !longest_first(where))
		++not_longest_first_;
	if (where.late_seq != 0) // still late: keeps its arrival place
		late_.insert({where.late_seq, key.job_id});
	else
		link(where);
}

void RankOrderIndex::remove(uint32_t job_id)
{
	auto found = where_.find(job_id);
	if (found == where_.end())
		return;
	unlink(found->second);
	if (track_shapes_ && !longest_first(found->second))
		--not_longest_first_;
	where_.erase(found);
}

void RankOrderIndex::clear()
{
	where_.clear();
	buckets_.clear();
	flat_.clear();
	stale_.clear();
	by_cpus_.clear();
	late_.clear();
	not_longest_first_ = 0;
}

void RankOrderIndex::settle_late()
{
	for (const auto &[seq, job_id] : late_) {
		Where &where = where_.at(job_id);
		where.late_seq = 0;
		link(where);
	}
	late_.clear();
}

void RankOrderIndex::merge(const std::vector<uint32_t> &bucket_rank, size_t max_jobs,
                           std::vector<uint32_t> &job_ids) const
{
	struct Head {
		std::set<RankOrderKey>::const_iterator at, end;
		uint32_t rank;
		uint32_t bucket;
	};
	// Heads compare as the ranking's total order: major, campaign rank, then the rest.
	auto after = [](const Head &a, const Head &b) {
		const RankOrderKey &x = *a.at, &y = *b.at;
		return std::tie(x.major, a.rank, x.nice_bits, x.intra, x.submit_s, x.job_id) >
		       std::tie(y.major, b.rank, y.nice_bits, y.intra, y.submit_s, y.job_id);
	};
	std::vector<Head> heap;
	for (uint32_t bucket = 0; bucket < buckets_.size(); bucket++)
		if (!buckets_[bucket].empty())
			heap.push_back({buckets_[bucket].begin(), buckets_[bucket].end(),
			                bucket < bucket_rank.size()
			                    ? bucket_rank[bucket]
			                    : std::numeric_limits<uint32_t>::max(),
			                bucket});
	size_t listed = 0;
	// The usual case: one tier and QOS for all, campaigns of distinct ranks. The order is then
	// the campaigns one after the other: no heap.
	std::sort(heap.begin(), heap.end(),
	          [](const Head &a, const Head &b) { return a.rank < b.rank; });
	bool concatenate = true;
	for (size_t i = 0; i < heap.size() && concatenate; i++)
		concatenate = heap[i].at->major == heap.front().at->major &&
		              std::prev(heap[i].end)->major == heap.front().at->major &&
		              (i == 0 || heap[i - 1].rank != heap[i].rank);
	if (concatenate) {
		if (flat_.size() < buckets_.size()) {
			flat_.resize(buckets_.size());
			stale_.resize(buckets_.size(), 1);
		}
		for (const Head &head : heap) {
			if (listed >= max_jobs)
				break;
			std::vector<uint32_t> &flat = flat_[head.bucket];
			if (stale_[head.bucket]) {
				flat.clear();
				for (const RankOrderKey &key : buckets_[head.bucket])
					flat.push_back(key.job_id);
				stale_[head.bucket] = 0;
			}
			const size_t taken = std::min(flat.size(), max_jobs - listed);
			job_ids.insert(job_ids.end(), flat.begin(),
			               flat.begin() + static_cast<std::ptrdiff_t>(taken));
			listed += taken;
		}
		heap.clear();
	}
	std::make_heap(heap.begin(), heap.end(), after);
	while (!heap.empty() && listed < max_jobs) {
		std::pop_heap(heap.begin(), heap.end(), after);
		Head &head = heap.back();
		job_ids.push_back(head.at->job_id);
		++listed;
		if (++head.at == head.end)
			heap.pop_back();
		else
			std::push_heap(heap.begin(), heap.end(), after);
	}
	for (auto late = late_.begin(); late != late_.end() && listed < max_jobs; ++late, ++listed)
		job_ids.push_back(late->second);
}

} // namespace campaign

namespace campaign
{

namespace
{

constexpr JobShape kNoJob{std::numeric_limits<uint32_t>::max(),
                          std::numeric_limits<int64_t>::max()};

JobShape least_of(JobShape a, JobShape b)
{
	return {std::min(a.cpus, b.cpus), std::min(a.limit_s, b.limit_s)};
}

// Exact: a tracked key's intra is -limit_s (walk() checks it).
int64_t limit_of(const RankOrderKey &key)
{
	return static_cast<int64_t>(-key.intra);
}

} // namespace

std::optional<RankOrderIndex::Walk>
RankOrderIndex::walk(const std::vector<uint32_t> &bucket_rank) const
{
	if (!track_shapes_ || not_longest_first_ != 0)
		return std::nullopt;
	Walk walk(*this);
	std::vector<std::pair<uint32_t, uint32_t>> ranked; // (rank, bucket)
	for (uint32_t bucket = 0; bucket < buckets_.size(); bucket++)
		if (!buckets_[bucket].empty())
			ranked.emplace_back(bucket < bucket_rank.size()
			                        ? bucket_rank[bucket]
			                        : std::numeric_limits<uint32_t>::max(),
			                    bucket);
	std::sort(ranked.begin(), ranked.end());
	for (size_t i = 0; i < ranked.size(); i++) {
		const auto &jobs = buckets_[ranked[i].second];
		const RankOrderKey &first = *jobs.begin(), &last = *std::prev(jobs.end());
		// merge()'s concatenation, and one nice value: a CPU count's jobs by limit.
		if (first.major != buckets_[ranked.front().second].begin()->major ||
		    last.major != first.major || last.nice_bits != first.nice_bits ||
		    (i > 0 && ranked[i - 1].first == ranked[i].first))
			return std::nullopt;
		walk.order_.push_back(ranked[i].second);
	}
	for (const auto &[seq, job_id] : late_)
		walk.late_ids_.push_back(job_id);
	walk.late_below_.assign(walk.late_ids_.size() + 1, kNoJob);
	for (size_t i = walk.late_ids_.size(); i-- > 0;)
		walk.late_below_[i] =
		    least_of(where_.at(walk.late_ids_[i]).shape, walk.late_below_[i + 1]);
	walk.below_.assign(walk.order_.size() + 1, walk.late_below_.front());
	for (size_t i = walk.order_.size(); i-- > 0;) {
		JobShape least = walk.below_[i + 1];
		for (const auto &[cpus, jobs] : by_cpus_[walk.order_[i]])
			least = least_of(least, {cpus, limit_of(*std::prev(jobs.end()))});
		walk.below_[i] = least;
	}
	return walk;
}

std::optional<uint32_t> RankOrderIndex::Walk::next(const Filter &filter)
{
	for (; !late_ && position_ < order_.size(); ++position_, last_.reset())
		if (auto key = next_in_bucket(order_[position_], filter)) {
			last_ = key;
			return key->job_id;
		}
	late_ = true; // jobs not ranked yet: few (since the last ranking), all listed
	if (late_at_ == late_ids_.size())
		return std::nullopt;
	const uint32_t job_id = late_ids_[late_at_++];
	late_bucket_ = index_->where_.at(job_id).bucket;
	return job_id;
}

// The first job after last_ that the filter wants. A CPU count's jobs come by non-increasing
// limit, so those it wants are a suffix of them: one lower_bound per CPU count, the counts
// taken in increasing order until one is wanted with no limit at all.
std::optional<RankOrderKey> RankOrderIndex::Walk::next_in_bucket(uint32_t bucket,
                                                                 const Filter &filter) const
{
	const std::set<RankOrderKey> &all = index_->buckets_[bucket];
	if (filter.lists_all(bucket)) {
		auto at = last_ ? all.upper_bound(*last_) : all.begin();
		return at == all.end() ? std::nullopt : std::optional<RankOrderKey>(*at);
	}
	const RankOrderKey &first = *all.begin();
	std::optional<RankOrderKey> best;
	for (const auto &[cpus, jobs] : index_->by_cpus_[bucket]) {
		const int64_t longest_s = filter.longest_limit_s(cpus);
		if (longest_s <= 0)
			break;
		const RankOrderKey from{first.major, first.nice_bits,
		                        -static_cast<double>(longest_s),
		                        std::numeric_limits<int64_t>::min(), 0};
		auto at = jobs.lower_bound(from);
		if (last_ && at != jobs.end() && !(*last_ < *at))
			at = jobs.upper_bound(*last_);
		if (at != jobs.end() && (!best || *at < *best))
			best = *at;
	}
	return best;
}

JobShape RankOrderIndex::Walk::rest() const
{
	if (late_)
		return late_below_[late_at_ - 1];
	JobShape least = below_[position_ + 1];
	for (const auto &[cpus, jobs] : index_->by_cpus_[order_[position_]]) {
		const RankOrderKey &last = *std::prev(jobs.end());
		if (last < *last_)
			continue; // every job of this CPU count comes before the one returned
		least = least_of(least, {cpus, limit_of(last)});
	}
	return least;
}

void RankOrderIndex::Walk::restart()
{
	position_ = 0;
	last_.reset();
	late_ = false;
	late_at_ = 0;
}

} // namespace campaign
