// PendingIds: the ids of the planner's queued jobs, emptied and filled again at every plan made
// afresh. Emptying moves to a new generation, and the refill finds each job of the last plan
// in its slot and marks it again: a clear and a refill moved every node out and back in, a
// twentieth of fair-share's EASY plan on LPC-EGEE at 0.95 (a fresh plan at most decay passes,
// thousands queued). Ids left unlisted are dropped once they outnumber the listed ones.
// One flat table, open addressing with linear probing: a look-up reads one slot where a node
// map read a bucket and then a node, and a refill can ask for a job's slot ahead (prefetch).
#pragma once

#include "plan/plan_types.h"
#include "util/prefetch.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace campaign::plan
{

class PendingIds
{
public:
	bool contains(JobId id) const
	{
		const size_t at = find(id);
		return at != kNone && slots_[at].generation == generation_;
	}
	// False if it is listed already.
	bool insert(JobId id)
	{
		if (2 * (used_ + 1) > slots_.size())
			rehash(2 * (used_ + 1));
		size_t at = home(id);
		for (; slots_[at].generation != kEmpty; at = next(at)) {
			if (slots_[at].id != id)
				continue;
			if (slots_[at].generation == generation_)
				return false;
			slots_[at].generation = generation_;
			++listed_;
			return true;
		}
		slots_[at] = Slot{id, generation_};
		++used_;
		++listed_;
		return true;
	}
	void erase(JobId id)
	{
		const size_t at = find(id);
		if (at == kNone)
			return;
		listed_ -= slots_[at].generation == generation_;
		remove_slot(at);
		--used_;
	}
	void clear()
	{
		if (listed_ == 0)
			return; // every id is unlisted already (a second clear, or an empty queue)
		if (used_ > 2 * listed_ + kStaleAllowed)
			drop_stale();
		++generation_;
		listed_ = 0;
	}
	void reserve(size_t count)
	{
		if (2 * count > slots_.size())
			rehash(2 * count);
	}
	// Asks for the slot a look-up of `id` reads first (a refill in rank order, a few ahead).
	void prefetch(JobId id) const
	{
		if (!slots_.empty())
			prefetch_line(reinterpret_cast<const char *>(&slots_[home(id)]));
	}
	size_t size() const { return listed_; }
	size_t kept() const { return used_; } // listed or not (tests)

private:
	static constexpr size_t kStaleAllowed = 1024;
	static constexpr uint64_t kEmpty = 0; // a slot's generation: never used
	static constexpr size_t kNone = static_cast<size_t>(-1);
	struct Slot {
		JobId id = 0;
		uint64_t generation = kEmpty; // the generation that last listed it
	};

	// Fibonacci hashing: the top bits of id x 2^64 / phi (ids often come in runs).
	size_t home(JobId id) const
	{
		return static_cast<size_t>((id * 0x9E3779B97F4A7C15ull) >> shift_);
	}
	size_t next(size_t at) const { return (at + 1) & (slots_.size() - 1); }
	size_t find(JobId id) const
	{
		if (slots_.empty())
			return kNone;
		for (size_t at = home(id); slots_[at].generation != kEmpty; at = next(at))
			if (slots_[at].id == id)
				return at;
		return kNone;
	}
	// Linear probing's deletion without markers: later slots of the same run move back into
	// the hole where their home allows it.
	void remove_slot(size_t hole)
	{
		for (size_t at = next(hole); slots_[at].generation != kEmpty; at = next(at)) {
			const size_t wanted = home(slots_[at].id);
			// May the entry at `at` sit in `hole`? Yes unless its home lies cyclically
			// in (hole, at].
			const bool home_after_hole = hole <= at ? (hole < wanted && wanted <= at)
			                                        : (hole < wanted || wanted <= at);
			if (home_after_hole)
				continue;
			slots_[hole] = slots_[at];
			hole = at;
		}
		slots_[hole] = Slot{};
	}
	// At least `wanted` slots (a power of two), every used slot kept.
	void rehash(size_t wanted)
	{
		size_t size = 16;
		while (size < wanted)
			size *= 2;
		std::vector<Slot> old;
		old.swap(slots_);
		slots_.assign(size, Slot{});
		shift_ = 64;
		for (size_t bits = size; bits > 1; bits /= 2)
			--shift_;
		for (const Slot &slot : old)
			if (slot.generation != kEmpty)
				place(slot);
	}
	void place(const Slot &slot)
	{
		size_t at = home(slot.id);
		while (slots_[at].generation != kEmpty)
			at = next(at);
		slots_[at] = slot;
	}
	// Only the listed ids stay (the next refill finds them), in a table sized for them: the
	// others are emptied, then rehash places the rest again.
	void drop_stale()
	{
		for (Slot &slot : slots_)
			if (slot.generation != generation_)
				slot = Slot{};
		used_ = listed_;
		rehash(2 * (used_ + 1));
	}

	std::vector<Slot> slots_; // a power of two in size, at most half used
	unsigned shift_ = 64;
	uint64_t generation_ = 1;
	size_t used_ = 0, listed_ = 0;
};

} // namespace campaign::plan
