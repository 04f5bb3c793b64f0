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
	if (where.late_seq != 0)
		late_.erase({where.late_seq, where.key.job_id});
	else
		buckets_[where.bucket].erase(where.key);
}

void RankOrderIndex::put(uint32_t bucket, const RankOrderKey &key)
{
	auto found = where_.find(key.job_id);
	if (found != where_.end()) {
		Where &where = found->second;
		if (where.late_seq == 0 && where.bucket == bucket && where.key == key)
			return;
		unlink(where);
		where.bucket = bucket;
		where.key = key;
		if (where.late_seq != 0) { // still late: keeps its arrival place
			late_.insert({where.late_seq, key.job_id});
			return;
		}
	} else {
		const uint64_t seq = next_late_seq_++;
		where_.emplace(key.job_id, Where{bucket, key, seq});
		late_.insert({seq, key.job_id});
		return;
	}
	if (buckets_.size() <= bucket)
		buckets_.resize(bucket + 1);
	buckets_[bucket].insert(key);
}

void RankOrderIndex::remove(uint32_t job_id)
{
	auto found = where_.find(job_id);
	if (found == where_.end())
		return;
	unlink(found->second);
	where_.erase(found);
}

void RankOrderIndex::clear()
{
	where_.clear();
	buckets_.clear();
	late_.clear();
}

void RankOrderIndex::settle_late()
{
	for (const auto &[seq, job_id] : late_) {
		Where &where = where_.at(job_id);
		where.late_seq = 0;
		if (buckets_.size() <= where.bucket)
			buckets_.resize(where.bucket + 1);
		buckets_[where.bucket].insert(where.key);
	}
	late_.clear();
}

void RankOrderIndex::merge(const std::vector<uint32_t> &bucket_rank, size_t max_jobs,
                           std::vector<uint32_t> &job_ids) const
{
	struct Head {
		std::set<RankOrderKey>::const_iterator at, end;
		uint32_t rank;
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
			                    : std::numeric_limits<uint32_t>::max()});
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
		for (Head &head : heap)
			for (; head.at != head.end && listed < max_jobs; ++head.at, ++listed)
				job_ids.push_back(head.at->job_id);
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
