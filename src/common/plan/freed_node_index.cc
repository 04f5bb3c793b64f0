// The regions given back during one compression, by node.
#include "plan/freed_node_index.h"

namespace campaign::plan
{

void FreedNodeIndex::clear()
{
	for (const NodeIndex node : listed_)
		by_node_[node].clear();
	listed_.clear();
	seen_ = 0;
}

void FreedNodeIndex::add(const std::vector<NodeIndex> &nodes)
{
	const auto region = static_cast<uint32_t>(seen_++);
	for (const NodeIndex node : nodes) {
		if (static_cast<size_t>(node) >= by_node_.size())
			by_node_.resize(static_cast<size_t>(node) + 1);
		std::vector<uint32_t> &regions = by_node_[node];
		if (!regions.empty() && regions.back() == region)
			continue; // a node listed twice in one region
		if (regions.empty())
			listed_.push_back(node);
		regions.push_back(region);
	}
}

} // namespace campaign::plan
