// SearchMemo: lower bounds on the earliest start of job shapes already searched in one planning
// pass. Valid only while the profile gains load (never after a release); it prunes, never decides.
#pragma once

#include "plan/minima_cache.h"
#include "plan/plan_types.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

namespace campaign::plan
{

class SearchMemo
{
public:
	// No job needing at least as much as an already searched shape (same allowed nodes) can
	// start before that shape's bound: the profile only filled up since. `candidates`: the
	// job's list from the planner's CandidateCache, one list per allowed node list, so the
	// list's address names the allowed nodes (a compare of 10,000 node numbers was 21 % of
	// the 10,000-node bench row).
	// long_cpus_limit: the job's bound on long jobs' CPUs (the planner's room for short jobs;
	// -1 none). Only jobs of the same bound share bounds: a job with a long limit but a
	// predicted short run may use the room a long job of its shape may not.
	int64_t lower_bound(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	                    int64_t long_cpus_limit) const;
	// After a search: the job cannot start before earliest_bound_s (its start, or until_s + 1).
	void record(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	            int64_t long_cpus_limit, int64_t earliest_bound_s);
	SearchMemo() = default;
	// A copy's last look-up is its own (a moved map keeps its entries where they are).
	SearchMemo(const SearchMemo &other) : shapes_(other.shapes_), minima_(other.minima_) {}
	SearchMemo &operator=(const SearchMemo &other)
	{
		shapes_ = other.shapes_;
		minima_ = other.minima_;
		last_ = nullptr;
		return *this;
	}
	SearchMemo(SearchMemo &&) noexcept = default;
	SearchMemo &operator=(SearchMemo &&) noexcept = default;
	// With the planner's kept minima (emptied here: the last pass's candidate lists may be
	// gone): the searches keep theirs there for the next of the same minima. They hold as
	// long as the bounds do (the profile only gains load), and are checked against the
	// profile's BookingLog all the same.
	explicit SearchMemo(MinimaCache &minima) : minima_(&minima) { minima.clear(); }
	void clear()
	{
		shapes_.clear();
		last_ = nullptr;
		if (minima_)
			minima_->clear();
	}
	MinimaCache *minima() { return minima_; }

	// exclusive, all_memory, GRES per node (a job of other GRES may fit where this one did
	// not), the task layout (CPUs per task, tasks per node, spread: a job of another layout may
	// fit where this one did not), the allowed nodes (by the CandidateCache list's address),
	// the bound on long jobs' CPUs
	using Key = std::tuple<bool, bool, GresCounts, int32_t, int32_t, bool,
	                       const std::vector<NodeIndex> *, int64_t>;

private:
	struct Shape {
		int32_t cpus;
		int32_t nodes_min;
		int32_t nodes_max;
		int64_t memory_per_node_mb;
		int64_t memory_per_cpu_mb;
		int64_t limit_s;
		int64_t earliest_bound_s;
	};
	static Key key_of(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	                  int64_t long_cpus_limit);
	struct Shapes {
		std::vector<Shape> entries;
		size_t next_overwrite = 0;
	};
	static bool needs_at_least(const PendingJob &job, const Shape &shape);
	// The key's shapes; nullptr if none, unless `add`.
	Shapes *shapes_of(const Key &key, bool add) const;

	mutable std::map<Key, Shapes> shapes_;
	// The last key asked for and its shapes (a map's entries stay put): the jobs of one queue
	// mostly share a key, and the map's compare of its tuples was half of a look-up.
	mutable std::pair<const Key, Shapes> *last_ = nullptr;
	MinimaCache *minima_ = nullptr;
};

} // namespace campaign::plan
