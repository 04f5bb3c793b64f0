// MinimaCache: WindowMinima kept across the searches of one pass that only books.
#include "plan/minima_cache.h"

#include <algorithm>

namespace campaign::plan
{

void MinimaCache::drop(std::unique_ptr<Entry> &entry)
{
	spare_.push_back(std::move(*entry->minima).take_storage());
	entry.reset();
}

void MinimaCache::clear()
{
	for (auto &[key, kept] : entries_)
		for (std::unique_ptr<Entry> &entry : kept)
			drop(entry);
	entries_.clear();
	candidate_bits_.clear();
}

WindowMinima &MinimaCache::minima_for(const PendingJob &job,
                                      const std::vector<NodeIndex> &candidates, int64_t from_s,
                                      const ResourceProfile &profile)
{
	if (profile_ != &profile) {
		clear();
		profile_ = &profile;
	}
	const Key key(job.exclusive, job.all_memory, job.gres_per_node, job.memory_per_node_mb,
	              job.memory_per_cpu_mb, job.cpus_per_task, job.tasks_per_node, job.limit_s,
	              &candidates);
	const BookingLog &log = profile.booking_log();
	std::vector<std::unique_ptr<Entry>> &kept = entries_[key];
	for (std::unique_ptr<Entry> &entry : kept)
		if (!log.holds(entry->seen))
			drop(entry);
	std::erase(kept, nullptr);
	Entry *best = nullptr;
	for (const std::unique_ptr<Entry> &entry : kept) {
		const int64_t start_s = entry->minima->start_s();
		if ((start_s == never_s || start_s <= from_s) &&
		    (!best || best->minima->start_s() == never_s ||
		     (start_s != never_s && start_s > best->minima->start_s())))
			best = entry.get();
	}
	if (best) {
		++reused_;
		best->minima->refresh(log.since(best->seen), log.end());
		best->seen = log.mark();
		return *best->minima;
	}
	if (kept.size() >= kMaxPerKey) { // the earliest is the least likely to serve again
		// Its storage kept too: erased, its vectors went back to malloc and the next new
		// minima touched fresh pages (page faults were 7 % of per_campaign's update at
		// 10,000 nodes).
		auto earliest = std::min_element(
		    kept.begin(), kept.end(),
		    [](const std::unique_ptr<Entry> &a, const std::unique_ptr<Entry> &b) {
			    return a->minima->start_s() < b->minima->start_s();
		    });
		drop(*earliest);
		kept.erase(earliest);
	}
	auto entry = std::make_unique<Entry>();
	entry->job = job;
	WindowMinima::Storage storage;
	if (!spare_.empty()) {
		storage = std::move(spare_.back());
		spare_.pop_back();
	}
	std::vector<bool> &bits = candidate_bits_[&candidates];
	if (bits.empty() && candidates.size() != profile.node_count()) {
		bits.assign(profile.node_count(), false);
		for (const NodeIndex node : candidates)
			bits[node] = true;
	}
	entry->minima = std::make_unique<WindowMinima>(entry->job, candidates, profile,
	                                               std::move(storage), &bits);
	entry->seen = log.mark();
	kept.push_back(std::move(entry));
	return *kept.back()->minima;
}

} // namespace campaign::plan
