// NodeTimelines: per-node change lists kept in step with ResourceProfile's slots.
#include "plan/node_timelines.h"

#include <algorithm>

namespace campaign::plan
{

void NodeTimelines::reset(const std::vector<NodeFree> &capacity, int64_t origin_s)
{
	nodes_.resize(capacity.size());
	free_from_.resize(capacity.size());
	for (size_t node = 0; node < capacity.size(); ++node) {
		nodes_[node].clear();
		nodes_[node].push_back({origin_s, capacity[node]});
		free_from_[node] = capacity[node].cpus > 0 ? origin_s : never_s;
	}
	// In the index's order, without a sort (per_campaign resets the profile at every plan).
	std::vector<FreeFromIndex::Entry> sorted;
	sorted.reserve(capacity.size());
	for (const int64_t from_s : {origin_s, never_s})
		for (size_t node = 0; node < capacity.size(); ++node)
			if (free_from_[node] == from_s)
				sorted.emplace_back(from_s, static_cast<NodeIndex>(node));
	by_free_from_.assign(std::move(sorted));
}

int64_t NodeTimelines::first_free_s(const std::vector<Change> &changes)
{
	for (const Change &change : changes)
		if (change.free.cpus > 0)
			return change.start_s;
	return never_s;
}

void NodeTimelines::index_free_from(NodeIndex node)
{
	const int64_t free_from_s = first_free_s(nodes_[node]);
	int64_t &indexed_s = free_from_[node];
	if (free_from_s == indexed_s)
		return;
	by_free_from_.move(node, indexed_s, free_from_s);
	indexed_s = free_from_s;
}

void NodeTimelines::assign(NodeIndex node, std::vector<Change> changes)
{
	nodes_[node] = std::move(changes);
	index_free_from(node);
}

bool NodeTimelines::changes_at(NodeIndex node, int64_t time_s) const
{
	const std::vector<Change> &changes = nodes_[node];
	const size_t index = change_at(changes, time_s);
	return index > 0 && changes[index].start_s == time_s;
}

void NodeTimelines::advance_to(int64_t now_s)
{
	std::vector<FreeFromIndex::Entry> sorted(nodes_.size());
	for (size_t node = 0; node < nodes_.size(); ++node) {
		std::vector<Change> &changes = nodes_[node];
		const size_t current = change_at(changes, now_s);
		changes.erase(changes.begin(),
		              changes.begin() + static_cast<std::ptrdiff_t>(current));
		changes.front().start_s = now_s;
		free_from_[node] = first_free_s(changes);
		sorted[node] = {free_from_[node], static_cast<NodeIndex>(node)};
	}
	// Every node may move: one sort, not a move each.
	std::sort(sorted.begin(), sorted.end());
	by_free_from_.assign(std::move(sorted));
}

} // namespace campaign::plan
