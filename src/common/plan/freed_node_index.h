// FreedNodeIndex: the regions a compression gave back, listed by node, so that a job searched on
// its own few nodes reads only the regions on those nodes, not every region given back so far
// (a compression on a deep queue of small jobs gives back one per job it moves).
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
	// Nothing listed (a new compression: region numbers start again at 0).
	void clear();
	// Regions are numbered in the order they are given back: the next one is number seen().
	size_t seen() const { return seen_; }
	void add(const std::vector<NodeIndex> &nodes);
	// The numbers of the regions added that hold this node, in order (a region once per
	// node it holds).
	std::span<const uint32_t> regions_on(NodeIndex node) const
	{
		if (static_cast<size_t>(node) >= by_node_.size())
			return {};
		return by_node_[static_cast<size_t>(node)];
	}

private:
	std::vector<std::vector<uint32_t>> by_node_;
	std::vector<NodeIndex> listed_; // nodes with a region, so clear() is their count
	size_t seen_ = 0;
};

} // namespace campaign::plan
