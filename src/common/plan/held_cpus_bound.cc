// A bound on the CPUs a job could hold over a window with one booking given back.
#include "plan/held_cpus_bound.h"

#include <algorithm>
#include <limits>

namespace campaign::plan
{

namespace
{

int32_t held_cpus_on(const std::vector<NodeAllocation> &held, NodeIndex node)
{
	int32_t cpus = 0;
	for (const NodeAllocation &allocation : held)
		if (allocation.node == node)
			cpus += allocation.cpus;
	return cpus;
}

// A single CPU pool's least free CPUs over [from_s, until_s) with the held CPUs given back, as
// the node's changes give it, from the slots' sums: a change is a run of slots with the same
// free CPUs (the pool's bookings leave the node's changes behind, and making them again for
// this test cost more than the test).
int64_t least_in_pool(const ResourceProfile &profile, int64_t from_s, int64_t until_s,
                      int32_t held_cpus, int64_t held_start_s, int64_t held_end_s)
{
	int64_t least = std::numeric_limits<int64_t>::max();
	for (size_t slot = profile.slot_at(from_s);
	     slot < profile.slot_count() && profile.slot_start_s(slot) < until_s && least > 0;) {
		const int64_t free = profile.usable_free_cpus(slot);
		const int64_t part_start_s = std::max(profile.slot_start_s(slot), from_s);
		while (slot + 1 < profile.slot_count() &&
		       profile.slot_start_s(slot + 1) < until_s &&
		       profile.usable_free_cpus(slot + 1) == free)
			++slot;
		const int64_t part_end_s = std::min(profile.slot_end_s(slot), until_s);
		const bool inside_held = held_start_s <= part_start_s && part_end_s <= held_end_s;
		least = std::min<int64_t>(least, free + (inside_held ? held_cpus : 0));
		++slot;
	}
	return least;
}

} // namespace

bool could_fit_giving_back(const ResourceProfile &profile, const std::vector<NodeIndex> &candidates,
                           int64_t cpus, int64_t from_s, int64_t until_s,
                           const std::vector<NodeAllocation> &held, int64_t held_start_s,
                           int64_t held_end_s)
{
	from_s = std::max(from_s, profile.origin_s());
	if (until_s <= from_s)
		return true;
	if (profile.single_cpu_pool() && candidates.size() == 1)
		return std::max<int64_t>(least_in_pool(profile, from_s, until_s,
		                                       held_cpus_on(held, candidates.front()),
		                                       held_start_s, held_end_s),
		                         0) >= cpus;
	int64_t sum = 0;
	for (const NodeIndex node : candidates) {
		const std::vector<NodeTimelines::Change> &changes =
		    profile.timelines().changes(node);
		const int32_t held_cpus = held_cpus_on(held, node);
		int64_t least = std::numeric_limits<int64_t>::max();
		for (size_t index = NodeTimelines::change_at(changes, from_s);
		     index < changes.size() && changes[index].start_s < until_s && least > 0;
		     ++index) {
			const int64_t part_start_s = std::max(changes[index].start_s, from_s);
			const int64_t part_end_s = std::min(
			    index + 1 < changes.size() ? changes[index + 1].start_s : never_s,
			    until_s);
			// A change partly outside the held booking keeps its own amount there.
			const bool inside_held =
			    held_start_s <= part_start_s && part_end_s <= held_end_s;
			least = std::min<int64_t>(least, changes[index].free.cpus +
			                                     (inside_held ? held_cpus : 0));
		}
		sum += std::max<int64_t>(least, 0);
		if (sum >= cpus)
			return true;
	}
	return false;
}

bool long_cpus_could_allow(const ResourceProfile &profile, int64_t cpus, int64_t long_cpus_limit,
                           int64_t from_s, int64_t until_s, int64_t held_long_cpus,
                           int64_t held_start_s, int64_t held_end_s)
{
	from_s = std::max(from_s, profile.origin_s());
	if (until_s <= from_s)
		return true;
	const size_t last = profile.slot_at(until_s - 1);
	for (size_t slot = profile.slot_at(from_s); slot <= last; ++slot) {
		const int64_t part_start_s = std::max(profile.slot_start_s(slot), from_s);
		const int64_t part_end_s = std::min(profile.slot_end_s(slot), until_s);
		const bool inside_held = held_start_s <= part_start_s && part_end_s <= held_end_s;
		if (profile.long_cpus(slot) - (inside_held ? held_long_cpus : 0) + cpus >
		    long_cpus_limit)
			return false;
	}
	return true;
}

} // namespace campaign::plan
