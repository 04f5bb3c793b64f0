// PendingIds: the ids of the planner's queued jobs, emptied and filled again at every plan made
// afresh. Emptying moves to a new generation, and the refill finds each job of the last plan
// in its node and marks it again: a clear and a refill moved every node out and back in, a
// twentieth of fair-share's EASY plan on LPC-EGEE at 0.95 (a fresh plan at most decay passes,
// thousands queued). Ids left unlisted are dropped once they outnumber the listed ones.
#pragma once

#include "plan/plan_types.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace campaign::plan
{

class PendingIds
{
public:
	bool contains(JobId id) const
	{
		const auto found = ids_.find(id);
		return found != ids_.end() && found->second == generation_;
	}
	// False if it is listed already.
	bool insert(JobId id)
	{
		auto [at, added] = ids_.try_emplace(id, generation_);
		if (!added) {
			if (at->second == generation_)
				return false;
			at->second = generation_;
		}
		++listed_;
		return true;
	}
	void erase(JobId id)
	{
		const auto found = ids_.find(id);
		if (found == ids_.end())
			return;
		listed_ -= found->second == generation_;
		ids_.erase(found);
	}
	void clear()
	{
		if (listed_ == 0)
			return; // every id is unlisted already (a second clear, or an empty queue)
		if (ids_.size() > 2 * listed_ + kStaleAllowed)
			std::erase_if(ids_,
			              [&](const auto &id) { return id.second != generation_; });
		++generation_;
		listed_ = 0;
	}
	void reserve(size_t count) { ids_.reserve(count); }
	size_t size() const { return listed_; }
	size_t kept() const { return ids_.size(); } // listed or not (tests)

private:
	static constexpr size_t kStaleAllowed = 1024;
	std::unordered_map<JobId, uint64_t> ids_; // id -> the generation that last listed it
	uint64_t generation_ = 0;
	size_t listed_ = 0;
};

} // namespace campaign::plan
