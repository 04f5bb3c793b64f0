// PendingIds: the ids of the planner's queued jobs, emptied and filled again at every plan made
// afresh. Emptying moves to a new generation, and the refill finds each job of the last plan
// in its slot and marks it again: a clear and a refill moved every node out and back in, a
// twentieth of fair-share's EASY plan on LPC-EGEE at 0.95 (a fresh plan at most decay passes,
// thousands queued). Ids left unlisted are dropped once they outnumber the listed ones.
// One flat table (FlatIdMap): a refill can ask for a job's slot ahead (prefetch).
#pragma once

#include "plan/plan_types.h"
#include "util/flat_id_map.h"

#include <cstddef>
#include <cstdint>

namespace campaign::plan
{

class PendingIds
{
public:
	bool contains(JobId id) const
	{
		const uint64_t *generation = generations_.find(id);
		return generation && *generation == generation_;
	}
	// False if it is listed already.
	bool insert(JobId id)
	{
		uint64_t &generation = generations_[id];
		if (generation == generation_)
			return false;
		generation = generation_;
		++listed_;
		return true;
	}
	void erase(JobId id)
	{
		const uint64_t *generation = generations_.find(id);
		if (!generation)
			return;
		listed_ -= *generation == generation_;
		generations_.erase(id);
	}
	void clear()
	{
		if (listed_ == 0)
			return; // every id is unlisted already (a second clear, or an empty queue)
		if (generations_.size() > 2 * listed_ + kStaleAllowed) // only the listed ones stay
			generations_.retain_if(
			    [&](JobId, uint64_t generation) { return generation == generation_; });
		++generation_;
		listed_ = 0;
	}
	void reserve(size_t count) { generations_.reserve(count); }
	// Asks for the slot a look-up of `id` reads first (a refill in rank order, a few ahead).
	void prefetch(JobId id) const { generations_.prefetch(id); }
	size_t size() const { return listed_; }
	size_t kept() const { return generations_.size(); } // listed or not (tests)

private:
	static constexpr size_t kStaleAllowed = 1024;

	// Each id's last listing generation (0, a new id's: never listed).
	FlatIdMap<JobId, uint64_t> generations_;
	uint64_t generation_ = 1;
	size_t listed_ = 0;
};

} // namespace campaign::plan
