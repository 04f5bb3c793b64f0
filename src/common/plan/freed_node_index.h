// FreedNodeIndex: the time a compression gave back on each node, as that node's union of the
// regions given back, so that a job searched on its own few nodes reads a few spans, not every
// region given back so far (a compression on a deep queue of small jobs gives back one per job
// it moves; on campsim's one-node machine every region is on the job's node, and each job read,
// sorted and merged all of them).
#pragma once

#include "plan/plan_types.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace campaign::plan
{

class FreedNodeIndex
{
public:
	// [start_s, end_s) given back.
	struct Span {
		int64_t start_s = 0;
		int64_t end_s = 0;
		bool operator==(const Span &) const = default;
	};
	// Nothing listed (a new compression: region numbers start again at 0).
	void clear();
	// Regions are numbered in the order they are given back: the next one is number seen().
	size_t seen() const { return seen_; }
	// Region number seen(): [start_s, end_s) given back on these nodes (an empty one counts
	// for seen() and gives back nothing).
	void add(const std::vector<NodeIndex> &nodes, int64_t start_s, int64_t end_s);
	// The union of the regions given back on this node: spans in time order, each apart from
	// the next (a gap of at least a second), none empty. A job's window meets a region on the
	// node exactly when it meets one of these.
	std::span<const Span> given_back_on(NodeIndex node) const
	{
		if (static_cast<size_t>(node) >= by_node_.size())
			return {};
		return by_node_[static_cast<size_t>(node)];
	}

private:
	std::vector<std::vector<Span>> by_node_;
	std::vector<NodeIndex> listed_; // nodes with a region, so clear() is their count
	size_t seen_ = 0;
};

} // namespace campaign::plan
