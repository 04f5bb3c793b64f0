// FreeFromIndex: nodes ordered by (free-from time, node), as a sorted vector the searches walk in
// memory order. A node that moves is marked stale in place and kept, at its new time, in a small
// sorted vector of recent moves; the two are merged once the recent ones pass a bound. The walks
// of a std::set (one node allocation a step) were 15 % of per_campaign's update at 10,000 nodes,
// and grew 35-45x against 1,000.
#pragma once

#include "plan/plan_types.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace campaign::plan
{

class FreeFromIndex
{
public:
	using Entry = std::pair<int64_t, NodeIndex>; // free-from time, node

	// Every node once, in (time, node) order; any iterator held before is invalid.
	void assign(std::vector<Entry> &&sorted);
	// The node's free-from time goes from from_s (its time in the index) to to_s. Any iterator
	// held before is invalid: walkers keep a key and find their place again (lower_bound).
	void move(NodeIndex node, int64_t from_s, int64_t to_s);
	size_t size() const { return position_.size(); }

	// In (time, node) order, the sorted entries and the recent moves merged.
	class const_iterator
	{
	public:
		Entry operator*() const
		{
			if (recent_at_ < index_->recent_.size() &&
			    (sorted_at_ == index_->sorted_.size() ||
			     index_->recent_[recent_at_] < key_of(index_->sorted_[sorted_at_])))
				return index_->recent_[recent_at_];
			return key_of(index_->sorted_[sorted_at_]);
		}
		const_iterator &operator++()
		{
			if (recent_at_ < index_->recent_.size() &&
			    (sorted_at_ == index_->sorted_.size() ||
			     index_->recent_[recent_at_] < key_of(index_->sorted_[sorted_at_])))
				++recent_at_;
			else
				sorted_at_ = index_->skip_stale(sorted_at_ + 1);
			return *this;
		}
		bool operator==(const const_iterator &other) const
		{
			return sorted_at_ == other.sorted_at_ && recent_at_ == other.recent_at_;
		}
		bool operator!=(const const_iterator &other) const { return !(*this == other); }
		// The node `ahead` sorted entries on (maybe stale, maybe after a recent move taken
		// first), -1 past the end: to ask for its data before the walk gets there.
		NodeIndex sorted_node_ahead(size_t ahead) const
		{
			return sorted_at_ + ahead < index_->sorted_.size()
			           ? index_->sorted_[sorted_at_ + ahead].node
			           : -1;
		}

	private:
		friend class FreeFromIndex;
		const_iterator(const FreeFromIndex *index, size_t sorted_at, size_t recent_at)
		    : index_(index), sorted_at_(sorted_at), recent_at_(recent_at)
		{
		}
		const FreeFromIndex *index_;
		size_t sorted_at_; // at a slot not stale, or the end
		size_t recent_at_;
	};

	const_iterator begin() const { return {this, skip_stale(0), 0}; }
	const_iterator end() const { return {this, sorted_.size(), recent_.size()}; }
	// The first entry at or after key.
	const_iterator lower_bound(const Entry &key) const;

private:
	struct Slot {
		int64_t from_s;
		NodeIndex node;
		bool stale; // the node has moved: its entry is in recent_
	};
	static Entry key_of(const Slot &slot) { return {slot.from_s, slot.node}; }
	size_t skip_stale(size_t at) const
	{
		while (at < sorted_.size() && sorted_[at].stale)
			++at;
		return at;
	}
	// Both merged into sorted_, none stale.
	void merge_recent();

	std::vector<Slot> sorted_;
	std::vector<size_t> position_; // per node, its slot in sorted_
	std::vector<Entry> recent_;    // sorted: the nodes whose slot is stale, at their time
	std::vector<Slot> spare_;      // the merge's output, kept for the next one
};

} // namespace campaign::plan
