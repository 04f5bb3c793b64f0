// NodeTimelines: for every node, only the times where its free CPUs, memory or GRES change, and
// the amounts from each. The same figures as ResourceProfile's slots (which it mirrors), but a
// node's free amounts over a window cost its own few changes there, not every slot of the
// machine: the gap search's per-node minimum reads this.
#pragma once

#include "plan/free_from_index.h"
#include "plan/node_free.h"
#include "plan/plan_types.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace campaign::plan
{

class NodeTimelines
{
public:
	struct Change {
		int64_t start_s;
		NodeFree free; // from start_s to the next change's start (never_s after the last)
	};

	// Every node at its capacity from origin_s on.
	void reset(const std::vector<NodeFree> &capacity, int64_t origin_s);
	// Subtract sign x the allocation from its node over [start_s, end_s) (origin_s <=
	// start_s < end_s <= never_s, as the profile clamps them).
	// Returns how many changes the node gained at start_s and at end_s (-1, 0 or 1 each):
	// the profile counts, per slot, the nodes that change there.
	struct EdgeChanges {
		int at_start = 0;
		int at_end = 0;
	};
	EdgeChanges apply(const NodeAllocation &allocation, int64_t start_s, int64_t end_s,
	                  int sign)
	{
		return apply(allocation, start_s, end_s, sign, [](int64_t, int64_t, int32_t) {});
	}
	// The same, and before changing them, hands each change's part of [start_s, end_s) and
	// its free CPUs to seen(part_start_s, part_end_s, cpus), in time order: one search for
	// what took seven (the profile's usable CPUs and its per-slot change counts).
	template <typename Seen>
	EdgeChanges apply(const NodeAllocation &allocation, int64_t start_s, int64_t end_s,
	                  int sign, Seen &&seen);
	// Forget the past: every node's first change starts at now_s.
	void advance_to(int64_t now_s);
	// The node's changes replaced by these (from the origin on, none equal to the one before).
	void assign(NodeIndex node, std::vector<Change> changes);

	const std::vector<Change> &changes(NodeIndex node) const { return nodes_[node]; }
	// True if the node's free amounts change at time_s (not at the origin).
	bool changes_at(NodeIndex node, int64_t time_s) const;
	// Index of the change in effect at time_s (time_s at or after the origin).
	// Inline: the planner's searches call it per node (a call into the library is a PLT jump).
	static size_t change_at(const std::vector<Change> &changes, int64_t time_s)
	{
		// Most nodes change a few times: a linear look from the front beats a binary
		// search.
		if (changes.size() <= 8) {
			size_t index = 0;
			while (index + 1 < changes.size() && changes[index + 1].start_s <= time_s)
				++index;
			return index;
		}
		auto after = std::upper_bound(
		    changes.begin(), changes.end(), time_s,
		    [](int64_t time, const Change &change) { return time < change.start_s; });
		return after == changes.begin() ? 0
		                                : static_cast<size_t>(after - changes.begin()) - 1;
	}

	// Nodes by the start of their first change with free CPUs (never_s: none), the time before
	// which no job can use them: a search from its window's start on looks only at the nodes
	// that window can reach, not every candidate (per_campaign at 10,000 nodes: 2,000 searches
	// on a machine busy for hours).
	using ByFreeFrom = FreeFromIndex;
	const ByFreeFrom &by_free_from() const { return by_free_from_; }
	int64_t free_from(NodeIndex node) const { return free_from_[node]; }

private:
	void index_free_from(NodeIndex node);
	static int64_t first_free_s(const std::vector<Change> &changes);

	std::vector<std::vector<Change>> nodes_;
	std::vector<int64_t> free_from_; // per node, as in by_free_from_
	ByFreeFrom by_free_from_;
};

template <typename Seen>
NodeTimelines::EdgeChanges NodeTimelines::apply(const NodeAllocation &allocation, int64_t start_s,
                                                int64_t end_s, int sign, Seen &&seen)
{
	std::vector<Change> &changes = nodes_[allocation.node];
	EdgeChanges edges;
	// The changes in effect at the start and at the end, found before any moves: a new change
	// at each end moves the later changes once, not once per end (their moves were a tenth of
	// LPC-EGEE's conservative plan). The end's by galloping from the start's: a booking on
	// campsim's one node spans thousands of changes, which a walk read twice.
	size_t first = change_at(changes, start_s);
	size_t last = first; // changes[last].start_s <= end_s
	size_t step = 1;
	while (first + step < changes.size() && changes[first + step].start_s <= end_s) {
		last = first + step;
		step *= 2;
	}
	last = static_cast<size_t>(
	           std::upper_bound(
	               changes.begin() + static_cast<std::ptrdiff_t>(last) + 1,
	               changes.begin() +
	                   static_cast<std::ptrdiff_t>(std::min(first + step, changes.size())),
	               end_s,
	               [](int64_t time, const Change &change) { return time < change.start_s; }) -
	           changes.begin()) -
	       1;
	const bool new_at_start = changes[first].start_s != start_s;
	const bool new_at_end = changes[last].start_s != end_s;
	if (!new_at_start)
		edges.at_start -= first > 0;
	if (!new_at_end)
		--edges.at_end; // a change after the start's: never the origin's
	if (new_at_start || new_at_end) {
		const size_t count = changes.size();
		const Change at_start{start_s, changes[first].free};
		const Change at_end{end_s, changes[last].free};
		changes.resize(count + new_at_start + new_at_end);
		const auto at = [&](size_t index) {
			return changes.begin() + static_cast<std::ptrdiff_t>(index);
		};
		std::move_backward(at(last + 1), at(count), changes.end());
		if (new_at_start) {
			std::move_backward(at(first + 1), at(last + 1), at(last + 2));
			++first;
			++last;
			changes[first] = at_start;
		}
		if (new_at_end)
			changes[++last] = at_end;
	}
	NodeFree taken{sign * allocation.cpus, sign * allocation.memory_mb, {}};
	bool any_gres = false;
	for (size_t kind = 0; kind < gres_kinds_max; ++kind) {
		taken.gres[kind] = sign * allocation.gres[kind];
		any_gres |= taken.gres[kind] != 0;
	}
	for (size_t index = first; index < last; ++index) {
		NodeFree &free = changes[index].free;
		seen(changes[index].start_s, changes[index + 1].start_s, free.cpus);
		free.cpus -= taken.cpus;
		free.memory_mb -= taken.memory_mb;
		if (any_gres)
			for (size_t kind = 0; kind < gres_kinds_max; ++kind)
				free.gres[kind] -= taken.gres[kind];
	}
	// Changes equal to the one before are dropped, both ends in one move of the later ones.
	const bool merge_end = changes[last].free == changes[last - 1].free;
	const bool merge_start = first > 0 && changes[first].free == changes[first - 1].free;
	edges.at_end += !merge_end;
	edges.at_start += first > 0 && !merge_start;
	if (merge_start || merge_end) {
		const auto at = [&](size_t index) {
			return changes.begin() + static_cast<std::ptrdiff_t>(index);
		};
		size_t to = merge_start ? first : last;
		if (merge_start) // [first + 1, last) down one, and last too unless it goes
			to = static_cast<size_t>(
			    std::move(at(first + 1), at(merge_end ? last : last + 1), at(first)) -
			    changes.begin());
		std::move(at(last + 1), changes.end(), at(to));
		changes.resize(changes.size() - merge_start - merge_end);
	}
	if (start_s <= free_from_[allocation.node]) // the changes before start_s are as they were
		index_free_from(allocation.node);
	return edges;
}

} // namespace campaign::plan
