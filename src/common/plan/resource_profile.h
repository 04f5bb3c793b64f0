// ResourceProfile: free CPUs, memory and GRES of every node over time: a list of time slots with
// the machine's sums, and each node's own changes (NodeTimelines). It only books and releases
// allocations; it never decides where a job goes (that is GapSearch).
#pragma once

#include "plan/booking_log.h"
#include "plan/node_free.h"
#include "plan/node_timelines.h"
#include "plan/plan_types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace campaign::plan
{

class ResourceProfile
{
public:
	ResourceProfile() = default;
	// Every node free from origin_s on; DOWN and DRAIN nodes are kept but never usable.
	ResourceProfile(const Cluster &cluster, int64_t origin_s);
	// The same as a new profile, reusing this one's storage (the simulator plans afresh at
	// every event).
	void reset(const Cluster &cluster, int64_t origin_s);

	// Book (or give back) allocations over [start_s, end_s). Free amounts may go negative when
	// the caller's snapshot over-commits a node; such a node simply has nothing to offer. A
	// long job's CPUs are also counted in long_cpus (the planner's short_room); give back
	// with the flag it was booked with.
	void book(const std::vector<NodeAllocation> &allocations, int64_t start_s, int64_t end_s,
	          bool long_job = false);
	void release(const std::vector<NodeAllocation> &allocations, int64_t start_s, int64_t end_s,
	             bool long_job = false);
	// release over [from_s, from_s + length_s) then book over [to_s, to_s + length_s), the
	// same allocations: the same profile (and booking log), cheaper when the two overlap.
	void move(const std::vector<NodeAllocation> &allocations, int64_t from_s, int64_t to_s,
	          int64_t length_s, bool long_job = false);
	// Books allocations held from the origin to their own end (a snapshot's running jobs) in
	// one sweep over their sorted ends: the profile booking them one by one gives, in
	// O(n log n) instead of a split and a pass over earlier slots per job.
	struct Held {
		const std::vector<NodeAllocation> *allocations = nullptr;
		int64_t end_s = 0;
		bool long_job = false;
	};
	void book_from_origin(std::vector<Held> held);
	// Forget the past: the first slot starts at now_s.
	void advance_to(int64_t now_s);
	// While a DeferredMerges lives, bookings and releases leave the slots that no change
	// separates any more; when it ends they are joined in one pass. Giving back a whole plan
	// (a replan's first step) merged slot by slot, each merge moving every later slot: at
	// 10,000 nodes a third of per_campaign's update. The slots after are the same.
	class DeferredMerges
	{
	public:
		explicit DeferredMerges(ResourceProfile &profile) : profile_(profile)
		{
			profile_.deferring_merges_ = true;
		}
		~DeferredMerges() { profile_.merge_deferred(); }
		DeferredMerges(const DeferredMerges &) = delete;
		DeferredMerges &operator=(const DeferredMerges &) = delete;

	private:
		ResourceProfile &profile_;
	};
	// True if any of these nodes has negative free CPUs, memory or GRES somewhere in [start_s,
	// end_s).
	bool overcommitted(const std::vector<NodeAllocation> &allocations, int64_t start_s,
	                   int64_t end_s) const;

	int64_t origin_s() const { return starts_.front(); }
	size_t node_count() const { return capacity_.size(); }
	size_t slot_count() const { return slots_.size(); }
	// Inline, as the two below: the gap search calls them per slot, and a call into the
	// shared library goes through its PLT.
	size_t slot_at(int64_t time_s) const
	{
		auto after = std::upper_bound(starts_.begin(), starts_.end(), time_s);
		if (after == starts_.begin())
			return 0;
		return static_cast<size_t>(after - starts_.begin()) - 1;
	}
	int64_t slot_start_s(size_t slot) const { return starts_[slot]; }
	int64_t slot_end_s(size_t slot) const
	{
		return slot + 1 < starts_.size() ? starts_[slot + 1] : never_s;
	}
	// A node's free amounts in a slot (a look-up in its changes).
	const NodeFree &free(size_t slot, NodeIndex node) const
	{
		const std::vector<NodeTimelines::Change> &changes = timelines().changes(node);
		return changes[NodeTimelines::change_at(changes, starts_[slot])].free;
	}
	// The free amounts per node, as the times where each node's change. In a single CPU pool
	// the bookings leave the node's changes behind (its free CPUs are the slots' sums) and the
	// first read makes them again: a profile has one thread.
	const NodeTimelines &timelines() const
	{
		if (timelines_behind_)
			catch_up_timelines();
		return timelines_;
	}
	// Sum of positive free CPUs over usable nodes: an upper bound for any job in this slot.
	int64_t usable_free_cpus(size_t slot) const
	{
		return slots_[slot].usable_free_cpus +
		       block_adds_[slot / kSlotsPerBlock].usable_free_cpus;
	}
	// CPUs booked by long jobs in this slot.
	int64_t long_cpus(size_t slot) const
	{
		return slots_[slot].long_cpus + block_adds_[slot / kSlotsPerBlock].long_cpus;
	}
	// The last slot in [first, last] with fewer than `cpus` usable free CPUs, or
	// last_short_none. Block by block, so a slot costs a compare of its own part, not a read
	// of its block's add too, and four slots one branch: the gap search tests every slot of
	// a window this way (13 % of per_campaign's update at 10,000 nodes, where hardly a slot
	// of a window is short).
	static constexpr size_t last_short_none = static_cast<size_t>(-1);
	size_t last_slot_short_of(size_t first, size_t last, int64_t cpus) const;
	// The last slot in [first, last] whose long jobs' CPUs exceed `cpus`, or
	// last_short_none; in the same way (the gap search tests the long jobs' room over every
	// slot of a window: 5 % of LPC-EGEE@0.95 ostrich/conservative, slot by slot).
	size_t last_slot_long_over(size_t first, size_t last, int64_t cpus) const;
	// True if every slot in [from_s, until_s) has at least `cpus` usable free CPUs (the most
	// any job held over that whole window could have). Stops at the first slot short of them.
	bool has_free_cpus(int64_t from_s, int64_t until_s, int64_t cpus) const;
	// The start of the first slot from from_s's on whose usable_free_cpus is below `cpus`
	// (from_s if that slot's is), never_s if none: has_free_cpus(from_s, until_s, cpus)
	// exactly while until_s is at most this.
	int64_t first_short_of(int64_t from_s, int64_t cpus) const;
	const NodeFree &capacity(NodeIndex node) const { return capacity_[node]; }
	bool usable(NodeIndex node) const { return usable_[node]; }
	uint32_t weight(NodeIndex node) const { return weights_[node]; }
	// Not every node has the same weight: node choice must order by it.
	bool weighted() const { return weighted_; }
	// One usable node, never over-committed, whose bookings hold CPUs alone (no memory, no
	// GRES), as campsim's one pool of CPUs: its free CPUs in a slot are the slot's
	// usable_free_cpus, so a search for CPUs alone may read the slots' block sums instead of
	// the node's changes (a booking there spans thousands of them).
	bool single_cpu_pool() const
	{
		return capacity_.size() == 1 && usable_[0] && cpus_only_ && !overcommitted_;
	}
	// The nodes booked on since the last release, advance or reset (MinimaCache reads it).
	const BookingLog &booking_log() const { return booking_log_; }
	// Whether bookings are listed in booking_log (kept when another profile is assigned).
	void list_bookings(bool listing) { booking_log_.set_listing(listing); }

private:
	// Its start is in starts_ alone: a slot moves at every split and merge before it (the
	// moves were 6 % of per_campaign at 10,000 nodes), so it is kept small: 16 bytes, the
	// long jobs' CPUs in 32 bits (a machine's CPUs fit them; 24 bytes moved a third more).
	struct Slot {
		int64_t usable_free_cpus = 0; // less its block's add (block_adds_)
		int32_t long_cpus = 0;        // likewise
		int32_t node_changes = 0;     // nodes whose free amounts change at start_s
	};
	static_assert(sizeof(Slot) == 16);
	// Amounts added to every slot of a block of kSlotsPerBlock slots (by index): a booking adds
	// to the whole blocks it spans once each and slot by slot only at its two ends, so its cost
	// is blocks plus two blocks' slots, not every slot it spans (the slots grow with the
	// machine: a two-day booking on 10,000 nodes spanned about 10,000 of them).
	static constexpr size_t kSlotsPerBlock = 128;
	struct BlockAdd {
		int64_t usable_free_cpus = 0;
		int64_t long_cpus = 0;
	};

	// log: note the booking or the release in booking_log_ (move notes its own).
	void apply(const std::vector<NodeAllocation> &allocations, int64_t start_s, int64_t end_s,
	           int sign, bool long_job, bool log = true);
	// last_slot_short_of and last_slot_long_over: the last slot in [first, last] whose amount
	// passes against a bound (defined in the .cc, its only user).
	template <typename Field, typename Add, typename Reduce, typename Passes>
	size_t last_slot_where(size_t first, size_t last, int64_t bound, Field field, Add add,
	                       Reduce reduce, Passes passes) const;
	// Add to slots [first, last): whole blocks by their add, the rest slot by slot.
	void add_to_slots(size_t first, size_t last, int64_t usable_free_cpus, int64_t long_cpus);
	// A slot's own amounts with its block's add (what the accessors return).
	Slot with_block_add(size_t slot) const;
	// Whole amounts as a slot of block `block` stores them (less that block's add).
	Slot less_block_add(Slot sums, size_t block) const;
	// A slot moving from block `from` to block `to` keeps its whole amounts.
	void rebase(Slot &slot, size_t from, size_t to) const;
	// Before slots move by one at `from` and later (insert or erase): the slot that crosses
	// each block boundary from there on takes the difference of the two blocks' adds.
	void carry_across_blocks(size_t from, bool inserting);
	// Every block's add into its slots (before slots move by more than one).
	void flatten_block_adds();
	size_t split_at(int64_t time_s);
	// In a single CPU pool, books `sign` x the allocation on its node over slots [first, last)
	// by the slots' sums alone, leaving the node's changes behind; false (nothing done) where
	// it is no pool, the allocation holds more than CPUs, or a booking would over-commit.
	bool apply_in_pool(const NodeAllocation &allocation, size_t first, size_t last, int sign);
	// The node's changes made again from the slots' sums (timelines_behind_).
	void catch_up_timelines() const;
	// A slot no node changes at, with the long jobs' CPUs of the one before, is that one.
	bool mergeable(size_t slot) const;
	void merge_with_previous(size_t slot);
	// Every mergeable slot joined with the one before, in one pass (DeferredMerges' end).
	void merge_deferred();

	std::vector<NodeFree> capacity_;
	std::vector<bool> usable_;
	std::vector<uint32_t> weights_;
	bool weighted_ = false;
	// Since the last reset (single_cpu_pool): no booking held memory or GRES, and no usable
	// node's free CPUs went below zero.
	bool cpus_only_ = true;
	bool overcommitted_ = false;
	std::vector<Slot> slots_;
	std::vector<BlockAdd> block_adds_; // one per kSlotsPerBlock slots, and one spare
	std::vector<int64_t> starts_;      // each slot's start, contiguous for binary search
	mutable NodeTimelines timelines_;
	mutable bool timelines_behind_ = false; // apply_in_pool booked without them
	bool deferring_merges_ = false;
	BookingLog booking_log_;
};

} // namespace campaign::plan
