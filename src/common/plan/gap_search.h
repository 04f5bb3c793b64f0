// GapSearch: earliest start where a job fits its allowed nodes for its whole limit (FindFirstGap,
// node level), and its deterministic node choice. Reads the profile; never books anything.
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"

#include <optional>
#include <vector>

namespace campaign::plan
{

class MinimaCache;
class WindowMinima;

struct Placement {
	int64_t start_s = never_s;
	std::vector<NodeAllocation> allocations;
	int32_t node_set = 0; // which of the job's node sets (PlannedJob::node_set)
};

// CPUs a job could take on one node given that node's free CPUs, memory and GRES (0 if none).
int32_t usable_cpus(const PendingJob &job, const NodeFree &free, const NodeFree &capacity);

// Node choice given, for each candidate node, the CPUs the job could hold there for its whole
// duration. One node if one suffices (best fit: the fewest spare CPUs, then the lowest index);
// otherwise the fewest nodes, largest first. Nodes of unequal Weight: lightest first, as select
// does (a single node only among the lightest that can take part of the job; several light
// nodes before one heavier node). Empty if the job does not fit.
std::vector<NodeAllocation> choose_nodes(const PendingJob &job,
                                         const std::vector<NodeIndex> &candidates,
                                         const std::vector<int32_t> &available_cpus,
                                         const ResourceProfile &profile);

class GapSearch
{
public:
	explicit GapSearch(const ResourceProfile &profile) : profile_(profile) {}

	// Earliest start in [from_s, until_s] (candidates: the job's usable allowed nodes, sorted).
	// long_cpus_limit >= 0 (a long job under the planner's short_room): also where the CPUs
	// of long jobs, its own included, stay within it over the whole window. With a cache, the
	// per-node minima are kept for the next search of the same minima (same result).
	std::optional<Placement> earliest(const PendingJob &job,
	                                  const std::vector<NodeIndex> &candidates, int64_t from_s,
	                                  int64_t until_s, int64_t long_cpus_limit = -1,
	                                  MinimaCache *cache = nullptr) const;

	// Earliest start in [from_s, until_s] keeping exactly these allocations (same nodes, same
	// CPUs, memory and GRES): the cheap search used to compress a job in place.
	std::optional<Placement> earliest_in_place(const PendingJob &job,
	                                           const std::vector<NodeAllocation> &allocations,
	                                           int64_t from_s, int64_t until_s,
	                                           int64_t long_cpus_limit = -1) const;
	// earliest_in_place as if these allocations, booked over [held_start_s, held_end_s) (the
	// job's own place), were given back first: the same start, found on the profile as it is,
	// so a job that does not move costs no release and no booking again (each one splits,
	// shifts and merges slots). long_cpus_limit as earliest_in_place's, held_long_cpus: the
	// long jobs' CPUs the held booking counts (0 unless it was booked as a long job).
	std::optional<Placement> earliest_in_place_holding(
	    const PendingJob &job, const std::vector<NodeAllocation> &allocations,
	    int64_t held_start_s, int64_t held_end_s, int64_t from_s, int64_t until_s,
	    int64_t long_cpus_limit = -1, int64_t held_long_cpus = 0) const;

private:
	// Slots overlapping [from_s, until_s) all have at least the searched job's CPUs free.
	struct ClearRun {
		int64_t from_s = never_s;
		int64_t until_s = never_s;
	};
	// If some slot in [start_s, end_s) has fewer than `cpus` usable free CPUs, the end of the
	// last such slot; otherwise nullopt. Updates `clear` (same cpus throughout a search).
	std::optional<int64_t> last_blocked_end(int64_t cpus, int64_t start_s, int64_t end_s,
	                                        ClearRun &clear) const;
	// If some slot in [start_s, end_s) holds more than `limit` - `cpus` CPUs of long jobs, the
	// end of the last such slot; otherwise nullopt.
	std::optional<int64_t> last_long_end(int64_t cpus, int64_t limit, int64_t start_s,
	                                     int64_t end_s) const;
	// A single CPU pool (ResourceProfile::single_cpu_pool) and a job or allocation asking it
	// for CPUs alone: a window fits exactly where every slot has the CPUs, so the searches
	// read the slots' block sums, not the node's changes nor the window minima.
	bool pool_fits_job(const PendingJob &job, const std::vector<NodeIndex> &candidates) const;
	bool pool_fits_allocations(const std::vector<NodeAllocation> &allocations) const;
	// earliest_in_place_holding in such a pool (no held booking: held_start_s = held_end_s =
	// never_s); long_limit < 0: no limit on long jobs' CPUs.
	std::optional<Placement> earliest_in_pool(const PendingJob &job,
	                                          const std::vector<NodeAllocation> &allocations,
	                                          int64_t held_start_s, int64_t held_end_s,
	                                          int64_t from_s, int64_t until_s,
	                                          int64_t long_limit, int64_t held_long_cpus) const;
	// In such a pool, the end of the last blocked part of [start_s, end_s) for `cpus` CPUs
	// held over [held_start_s, held_end_s): outside it a slot blocks with fewer CPUs free or
	// more long jobs' CPUs than long_limit allows, inside it (the held CPUs are booked there,
	// and the pool is never over-committed) only by long jobs' CPUs beyond the held ones.
	std::optional<int64_t> pool_blocked_end(int64_t cpus, int64_t start_s, int64_t end_s,
	                                        int64_t held_start_s, int64_t held_end_s,
	                                        int64_t long_limit, int64_t held_long_cpus) const;
	// Try the window at start_s (minima: the job's, slid there). On failure, returns the next
	// start worth trying (never_s from until_s on: none is).
	std::optional<Placement> try_window(const PendingJob &job, WindowMinima &minima,
	                                    int64_t start_s, int64_t until_s,
	                                    int64_t &next_start_s) const;

	const ResourceProfile &profile_;
};

} // namespace campaign::plan
