// FlatIdMap: job id -> a small value, in one flat table: open addressing with linear probing,
// deletion by moving later slots back (no markers). A node map's look-up read a bucket and then
// a node, two cache misses where this reads one slot, and a walk in rank order can ask for the
// slots it will read ahead (prefetch): the core's look-up of each ranked job was a twentieth of
// the default's run on LPC-EGEE under load. Id 0 is no job's (it marks an empty slot).
#pragma once

#include "util/prefetch.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace campaign
{

template <class Key, class Value> class FlatIdMap
{
public:
	const Value *find(Key id) const
	{
		const size_t at = slot_of(id);
		return at == kNone ? nullptr : &slots_[at].value;
	}
	Value *find(Key id)
	{
		const size_t at = slot_of(id);
		return at == kNone ? nullptr : &slots_[at].value;
	}
	bool contains(Key id) const { return slot_of(id) != kNone; }
	// The id's value, a Value{} inserted if it had none.
	Value &operator[](Key id)
	{
		if (id == kEmpty)
			throw std::invalid_argument("FlatIdMap: id 0");
		if (2 * (used_ + 1) > slots_.size())
			rehash(2 * (used_ + 1));
		size_t at = home(id);
		for (; slots_[at].id != kEmpty; at = next(at))
			if (slots_[at].id == id)
				return slots_[at].value;
		slots_[at] = Slot{id, Value{}};
		++used_;
		return slots_[at].value;
	}
	// False if it had no value.
	bool erase(Key id)
	{
		const size_t at = slot_of(id);
		if (at == kNone)
			return false;
		remove_slot(at);
		--used_;
		return true;
	}
	void clear()
	{
		slots_.clear();
		used_ = 0;
		shift_ = 64;
	}
	// Room for `count` ids without growing.
	void reserve(size_t count)
	{
		if (2 * count > slots_.size())
			rehash(2 * count);
	}
	// Only the ids for which keep(id, value) holds stay, in a table sized for them.
	template <class Keep> void retain_if(Keep keep)
	{
		for (Slot &slot : slots_)
			if (slot.id != kEmpty && !keep(slot.id, slot.value)) {
				slot = Slot{};
				--used_;
			}
		rehash(2 * (used_ + 1));
	}
	// Asks for the slot a look-up of `id` reads first.
	void prefetch(Key id) const
	{
		if (!slots_.empty())
			prefetch_line(reinterpret_cast<const char *>(&slots_[home(id)]));
	}
	size_t size() const { return used_; }
	size_t slot_count() const { return slots_.size(); }
	static constexpr size_t slot_bytes() { return sizeof(Slot); }

private:
	static constexpr Key kEmpty = 0;
	static constexpr size_t kNone = static_cast<size_t>(-1);
	struct Slot {
		Key id = kEmpty;
		Value value{};
	};

	// Fibonacci hashing: the top bits of id x 2^64 / phi (ids often come in runs).
	size_t home(Key id) const
	{
		return static_cast<size_t>((static_cast<uint64_t>(id) * 0x9E3779B97F4A7C15ull) >>
		                           shift_);
	}
	size_t next(size_t at) const { return (at + 1) & (slots_.size() - 1); }
	size_t slot_of(Key id) const
	{
		if (slots_.empty() || id == kEmpty)
			return kNone;
		for (size_t at = home(id); slots_[at].id != kEmpty; at = next(at))
			if (slots_[at].id == id)
				return at;
		return kNone;
	}
	// Later slots of the same run move back into the hole where their home allows it.
	void remove_slot(size_t hole)
	{
		for (size_t at = next(hole); slots_[at].id != kEmpty; at = next(at)) {
			const size_t wanted = home(slots_[at].id);
			// May the slot at `at` move to `hole`? Not if its home lies cyclically in
			// (hole, at].
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
			if (slot.id != kEmpty) {
				size_t at = home(slot.id);
				while (slots_[at].id != kEmpty)
					at = next(at);
				slots_[at] = slot;
			}
	}

	std::vector<Slot> slots_; // a power of two in size, at most half used
	unsigned shift_ = 64;
	size_t used_ = 0;
};

} // namespace campaign
