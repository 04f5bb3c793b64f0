// BookingLog: the nodes booked on since a mark, while the profile has only gained load. A search
// that keeps per-node figures from one job to the next (MinimaCache) looks again at those nodes
// only. Anything else (a release, the origin moving, a new or assigned profile) starts a new
// epoch: figures kept from before it are stale as a whole.
#pragma once

#include "plan/plan_types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace campaign::plan
{

class BookingLog
{
public:
	struct Booked {
		NodeIndex node;
		int64_t start_s; // of the booking: a node's changes before it are as they were
	};
	struct Mark {
		uint64_t epoch = 0;
		size_t size = 0;
	};

	BookingLog() = default;
	BookingLog(const BookingLog &other)
	    : epoch_(other.epoch_), nodes_(other.nodes_), listing_(other.listing_)
	{
	}
	// An assigned profile is another one: no mark taken on either holds for it. Whether to
	// list is the holder's choice, kept (a planner assigns itself new profiles).
	BookingLog &operator=(const BookingLog &other)
	{
		epoch_ = std::max(epoch_, other.epoch_) + 1;
		nodes_.clear();
		return *this;
	}

	// Only per_campaign's kept minima read the list: other modes need not write it. Not
	// listing, every booking starts a new epoch, so no mark holds across one.
	void set_listing(bool listing)
	{
		listing_ = listing;
		new_epoch();
	}

	Mark mark() const { return {epoch_, nodes_.size()}; }
	bool holds(const Mark &mark) const { return mark.epoch == epoch_; }
	// The nodes booked on since `mark` (which holds), in order, repeats kept.
	const Booked *since(const Mark &mark) const { return nodes_.data() + mark.size; }
	const Booked *end() const { return nodes_.data() + nodes_.size(); }

	void booked(NodeIndex node, int64_t start_s)
	{
		if (!listing_) {
			++epoch_;
			return;
		}
		if (nodes_.size() >= kMaxNodes) // a plan that only books for long: start afresh
			new_epoch();
		nodes_.push_back({node, start_s});
	}
	void new_epoch()
	{
		++epoch_;
		nodes_.clear();
	}

private:
	static constexpr size_t kMaxNodes = size_t{1} << 22;

	uint64_t epoch_ = 0;
	std::vector<Booked> nodes_;
	bool listing_ = true;
};

} // namespace campaign::plan
