// MinimaCache: one pass's WindowMinima, kept from one search to the next of jobs whose minima are
// the same (the same usable CPUs on every node, the same limit, the same candidates). Such a job
// searches from where the last one stopped (the SearchMemo's bound), so its first window is the
// last one's: the kept minima take in only the nodes booked since (the profile's BookingLog),
// where a new WindowMinima woke every candidate free by then (at 10,000 nodes, about 700 per
// search, in nine searches of ten to find no start there).
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"
#include "plan/window_minima.h"

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

namespace campaign::plan
{

class MinimaCache
{
public:
	// Minima of the job over its candidates, for a search whose windows start at from_s or
	// later: the latest kept ones at or before from_s if the profile only gained load since,
	// otherwise new ones (kept in place of the earliest, past kMaxPerKey).
	WindowMinima &minima_for(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	                         int64_t from_s, const ResourceProfile &profile);
	MinimaCache() = default;
	// A copied planner keeps no minima of another's profile.
	MinimaCache(const MinimaCache &) {}
	MinimaCache &operator=(const MinimaCache &)
	{
		clear();
		return *this;
	}
	// Every kept minima dropped (a new pass: the candidate lists may be others), their
	// storage kept for the next ones.
	void clear();
	// Searches that took kept minima (tests: the cache must serve, not only be right).
	size_t reused() const { return reused_; }

private:
	// Everything usable_cpus_on and WindowMinima read of a job (not its CPUs nor node counts:
	// the minima are per node), and its candidate list by address (the CandidateCache's list,
	// alive through the pass, as for SearchMemo).
	using Key = std::tuple<bool, bool, GresCounts, int64_t, int64_t, int32_t, int32_t, int64_t,
	                       const std::vector<NodeIndex> *>;
	struct Entry {
		PendingJob job; // the first job of the key: the minima read it
		std::unique_ptr<WindowMinima> minima;
		BookingLog::Mark seen;
	};

	// Jobs of one key but not one size search from different places (a small job's bound is
	// before a large one's): a few minima per key, each at its own window.
	static constexpr size_t kMaxPerKey = 4;

	void drop(std::unique_ptr<Entry> &entry);

	const ResourceProfile *profile_ = nullptr;
	size_t reused_ = 0;
	std::vector<WindowMinima::Storage> spare_;
	// Each candidate list's nodes as bits, shared by the minima over it.
	std::map<const std::vector<NodeIndex> *, std::vector<bool>> candidate_bits_;
	std::map<Key, std::vector<std::unique_ptr<Entry>>> entries_;
};

} // namespace campaign::plan
