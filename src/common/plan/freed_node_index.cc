// The time given back during one compression, by node.
#include "plan/freed_node_index.h"

#include <algorithm>

namespace campaign::plan
{

void FreedNodeIndex::clear()
{
	for (const NodeIndex node : listed_)
		by_node_[node].clear();
	listed_.clear();
	seen_ = 0;
}

void FreedNodeIndex::add(const std::vector<NodeIndex> &nodes, int64_t start_s, int64_t end_s)
{
	++seen_;
	if (end_s <= start_s)
		return;
	for (const NodeIndex node : nodes) {
		if (static_cast<size_t>(node) >= by_node_.size())
			by_node_.resize(static_cast<size_t>(node) + 1);
		std::vector<Span> &spans = by_node_[node];
		if (spans.empty())
			listed_.push_back(node);
		// The spans that meet or touch [start_s, end_s) become one.
		auto first = std::lower_bound(
		    spans.begin(), spans.end(), start_s,
		    [](const Span &span, int64_t time_s) { return span.end_s < time_s; });
		auto last = first;
		Span joined{start_s, end_s};
		for (; last != spans.end() && last->start_s <= end_s; ++last) {
			joined.start_s = std::min(joined.start_s, last->start_s);
			joined.end_s = std::max(joined.end_s, last->end_s);
		}
		if (first == last) {
			spans.insert(first, joined);
			continue;
		}
		*first = joined;
		spans.erase(first + 1, last);
	}
}

} // namespace campaign::plan
