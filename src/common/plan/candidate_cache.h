// CandidateCache: a job's usable allowed nodes and whether it fits the empty machine, shared by
// every job of the same partition and shape, so a queue of thousands of jobs holds a handful of
// node lists. Valid for one cluster and node state: the planner clears it when they change.
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"

#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace campaign::plan
{

using NodeList = std::shared_ptr<const std::vector<NodeIndex>>;

class CandidateCache
{
public:
	// The usable nodes among `allowed_sorted` (sorted, unique; empty: every node), sorted.
	// Looked up by list first (the jobs of a partition share one), then by its nodes.
	NodeList candidates(const NodeSet &allowed_sorted, const ResourceProfile &profile);
	// Whether the job fits `candidates` (from this cache) when nothing else runs.
	bool fits_empty_machine(const PendingJob &job, const NodeList &candidates,
	                        const ResourceProfile &profile);
	void clear();
	// Drops the by-list index only (a new queue's lists replace the former ones).
	void forget_lists() { by_list_.clear(); }

private:
	NodeList candidates_of(const std::vector<NodeIndex> &allowed_sorted, NodeList &cached,
	                       const ResourceProfile &profile);

	// Everything fits_empty_machine reads of a job, and its candidate list.
	using Shape = std::tuple<const std::vector<NodeIndex> *, int32_t, int32_t, int32_t, int64_t,
	                         int64_t, bool, bool, GresCounts, int32_t, int32_t, bool>;

	NodeList every_node_;
	std::map<std::vector<NodeIndex>, NodeList> by_allowed_;
	// By list: that list (kept alive, so its address names no other) and its candidates; at
	// most kMaxLists, as updates between full plans add lists that the queue may have dropped.
	static constexpr size_t kMaxLists = 256;
	std::unordered_map<const std::vector<NodeIndex> *, std::pair<NodeSet, NodeList>> by_list_;
	std::map<Shape, bool> fits_;
};

} // namespace campaign::plan
