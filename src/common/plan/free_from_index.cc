// FreeFromIndex: a sorted vector of nodes by free-from time, moves kept aside until merged.
#include "plan/free_from_index.h"

#include <algorithm>

namespace campaign::plan
{

void FreeFromIndex::assign(std::vector<Entry> &&sorted)
{
	sorted_.resize(sorted.size());
	position_.resize(sorted.size());
	for (size_t at = 0; at < sorted.size(); ++at) {
		sorted_[at] = Slot{sorted[at].first, sorted[at].second, false};
		position_[static_cast<size_t>(sorted[at].second)] = at;
	}
	recent_.clear();
}

void FreeFromIndex::move(NodeIndex node, int64_t from_s, int64_t to_s)
{
	Slot &slot = sorted_[position_[static_cast<size_t>(node)]];
	if (slot.stale)
		recent_.erase(
		    std::lower_bound(recent_.begin(), recent_.end(), Entry{from_s, node}));
	slot.stale = to_s != slot.from_s; // back where it was sorted: no entry aside
	if (slot.stale)
		recent_.insert(std::upper_bound(recent_.begin(), recent_.end(), Entry{to_s, node}),
		               Entry{to_s, node});
	// Bounded so that an insertion moves little memory and a walk skips few stale slots, and
	// a merge (every slot) comes once per that many moves.
	if (recent_.size() > 64 + sorted_.size() / 32)
		merge_recent();
}

void FreeFromIndex::merge_recent()
{
	spare_.clear();
	spare_.reserve(sorted_.size());
	auto recent = recent_.begin();
	for (const Slot &slot : sorted_) {
		if (slot.stale)
			continue;
		for (; recent != recent_.end() && *recent < key_of(slot); ++recent)
			spare_.push_back(Slot{recent->first, recent->second, false});
		spare_.push_back(slot);
	}
	for (; recent != recent_.end(); ++recent)
		spare_.push_back(Slot{recent->first, recent->second, false});
	sorted_.swap(spare_);
	recent_.clear();
	for (size_t at = 0; at < sorted_.size(); ++at)
		position_[static_cast<size_t>(sorted_[at].node)] = at;
}

FreeFromIndex::const_iterator FreeFromIndex::lower_bound(const Entry &key) const
{
	const auto sorted_at =
	    std::lower_bound(sorted_.begin(), sorted_.end(), key,
	                     [](const Slot &slot, const Entry &of) { return key_of(slot) < of; });
	const auto recent_at = std::lower_bound(recent_.begin(), recent_.end(), key);
	return {this, skip_stale(static_cast<size_t>(sorted_at - sorted_.begin())),
	        static_cast<size_t>(recent_at - recent_.begin())};
}

} // namespace campaign::plan
