// WindowMinima: for each candidate node of one job, the least CPUs the job could hold there over
// a window [start, start + limit) that only moves later, and the end of the last slot where that
// least is reached. Kept as the window slides: a node is looked at only when the window reaches
// its first free CPUs (NodeTimelines::by_free_from; before, it offers nothing and its least
// lasts at least until then), when the window gains changes of its free amounts, or when it
// loses the slot of its least. Those times are kept in a queue, so a slide costs the nodes it
// changes, not every candidate (at 10,000 nodes the loops over every candidate were most of
// per_campaign's searches).
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace campaign::plan
{

class WindowMinima
{
public:
	WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	             const ResourceProfile &profile);
	// Kept minima, which outlive one search (MinimaCache): bookings between two searches are
	// taken in by refresh, which needs each node's place among the candidates taken in. Their
	// vectors come from minima kept before (Storage, emptied): a pass keeps minima of hundreds
	// of keys, and new memory for each was a page fault per page at every pass.
	struct Storage;
	// candidate_bits: which nodes are candidates (nullptr: every node is).
	WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	             const ResourceProfile &profile, Storage &&storage,
	             const std::vector<bool> *candidate_bits);
	Storage take_storage() &&;

	// The current window's start (never_s: not slid yet).
	int64_t start_s() const { return start_s_; }
	// After bookings on these nodes (the profile only gained load since the last search): the
	// least of each one taken in afresh, as a new WindowMinima slid here would find it.
	void refresh(const BookingLog::Booked *booked, const BookingLog::Booked *booked_end);

	// The window at [start_s, start_s + job.limit_s); start_s at least the last one's.
	void slide_to(int64_t start_s);

	// Sum of every candidate's least: the most CPUs any node choice could hold over the window.
	int64_t available_sum() const { return available_sum_; }
	// The candidates whose least is above 0 (no node choice takes another), in candidate
	// order, and their least.
	void positive(std::vector<NodeIndex> &nodes, std::vector<int32_t> &available) const;
	// The next start worth trying: the earliest end of the last least slot of a candidate
	// below its full CPUs (a node's least can only rise once the window has passed it; a node
	// already at full capacity can never offer more). never_s if none.
	int64_t next_start_s();

private:
	// 48 bytes: a search writes one for every node it wakes (at 64, the writes were 4 % of
	// per_campaign's update at 10,000 nodes).
	struct Node {
		NodeIndex node = 0; // the candidates are sorted: their order is the nodes'

		int32_t available = 0; // the least over the window
		int32_t full = 0;      // what it could hold empty: its least can rise no higher
		// The least is reached at the window's last change: its last slot is the window's
		// last slot, whatever the window (no change entering it).
		bool at_window_end = false;
		int64_t last_minimum_end = never_s; // if !at_window_end
		// In the node's changes: the one holding the window's start when its least was last
		// found afresh, the first one after the window, and that one's start.
		uint32_t at_start = 0;
		uint32_t after_window = 0;
		int64_t next_change_s = never_s;
		int64_t due_s = never_s; // the earliest window start that changes it
	};
	static_assert(sizeof(Node) == 48);
	using Due = std::pair<int64_t, size_t>; // time, index in nodes_
	// Earliest first. The first window's nodes go in at once and are ordered once (pushing
	// them one by one was 10 % of per_campaign's plan). Ordered by time alone: the nodes due
	// at one time are each looked at on their own, in any order, and the index's compare on
	// every step of the ordering cost time (its bulk ordering was 8 % of per_campaign at
	// 10,000 nodes).
	class DueQueue
	{
	public:
		void push(Due due)
		{
			entries_.push_back(due);
			if (!bulk_)
				std::push_heap(entries_.begin(), entries_.end(), Later{});
		}
		void begin_bulk() { bulk_ = true; }
		// Its storage, to keep for another queue (emptied), and taken back.
		std::vector<Due> take() && { return std::move(entries_); }
		void adopt(std::vector<Due> &&entries)
		{
			entries_ = std::move(entries);
			entries_.clear();
		}
		void end_bulk()
		{
			bulk_ = false;
			std::make_heap(entries_.begin(), entries_.end(), Later{});
		}
		bool empty() const { return entries_.empty(); }
		const Due &top() const { return entries_.front(); }
		void pop()
		{
			std::pop_heap(entries_.begin(), entries_.end(), Later{});
			entries_.pop_back();
		}

	private:
		struct Later { // a type, not a function: the heap's compares are inlined
			bool operator()(const Due &a, const Due &b) const
			{
				return a.first > b.first;
			}
		};

		std::vector<Due> entries_;
		bool bulk_ = false;
	};

	// Take in every candidate free from free_until_s on (before, it offers nothing): at the
	// first window in one pass over the candidates (a search from hours ahead finds most nodes
	// awake: a walk of the index and a look-up per node cost 20 % of per_campaign's plan), then
	// from the index.
	void wake_first(int64_t free_until_s);
	void wake_until(int64_t free_until_s);
	bool is_candidate(NodeIndex node) const;
	// Kept minima: a candidate not yet taken in (a booked node may come again in the index).
	bool taken_in(NodeIndex node) const
	{
		return (taken_in_[static_cast<size_t>(node) / 64] >> (node % 64)) & 1;
	}
	bool asleep_candidate(NodeIndex node) const
	{
		return (!candidate_bits_ || (*candidate_bits_)[node]) && !taken_in(node);
	}
	// Walking the index: a candidate not taken in yet.
	bool to_wake(NodeIndex node) const
	{
		return kept_ ? asleep_candidate(node) : is_candidate(node);
	}
	// Where asleep_ is, kept as a key: a booking moves its node in the index, which would
	// leave an iterator on it dangling.
	void note_asleep();
	void wake(NodeIndex node);
	// Lower the node's least with its changes from index `from` until the window's end.
	void scan(Node &node, size_t from);
	void rescan(Node &node);
	uint32_t holder_of_start(const Node &node) const;
	// Before and after a node's least changes: the sums and queues follow it.
	void forget(const Node &node);
	// before: the node as it was when last remembered (a refresh): a queue entry of the same
	// time is still there and valid, and is not pushed again (a kept minima's queues grew
	// with an entry per booked node, and its slides popped them).
	void remember(size_t index, const Node *before = nullptr);
	int64_t due_of(const Node &node) const;

public:
	struct Storage {
		std::vector<Node> nodes;
		std::vector<Due> due, last_minimum_ends;
		std::vector<uint64_t> taken_in;
		std::vector<uint32_t> index_of;
	};

private:
	const PendingJob &job_;
	const std::vector<NodeIndex> &candidates_;
	const ResourceProfile &profile_;
	const bool gres_needed_;
	const bool every_node_; // the candidates are every node of the profile
	const bool kept_;
	// Kept: per node, a bit if taken in, and then its index in nodes_; the candidates as bits
	// (one look-up where the walks of the index searched the candidates). Bits, not a stamp
	// per node: a refresh tests every node booked since the last search, and at 10,000 nodes
	// the stamps' 80 KB missed the cache at most tests (half of the refresh's time); the bits
	// are 1.25 KB, cleared at each new minima.
	std::vector<uint64_t> taken_in_;
	std::vector<uint32_t> index_of_;
	const std::vector<bool> *candidate_bits_ = nullptr;
	std::vector<Node> nodes_; // the candidates taken in, in the order taken
	// The nodes not yet taken in, by the start of their first free CPUs: from here on.
	NodeTimelines::ByFreeFrom::const_iterator asleep_;
	std::pair<int64_t, NodeIndex> asleep_key_{}; // kept: *asleep_, or
	bool asleep_at_end_ = false;                 // the index's end
	DueQueue due_;
	DueQueue last_minimum_ends_; // of nodes below full, not at_window_end (stale entries kept)
	int64_t below_full_at_window_end_ =
	    0; // nodes below full whose least is at the window's end
	int64_t available_sum_ = 0;
	int64_t start_s_ = never_s; // the current window (never_s: none yet)
	int64_t end_s_ = never_s;
	int64_t last_slot_end_s_ = never_s; // the end of the profile slot holding end_s_ - 1
};

} // namespace campaign::plan
