// WindowMinima: the gap search's per-node least over a sliding window, from NodeTimelines.
#include "plan/window_minima.h"

#include "plan/usable_cpus.h"

#include <algorithm>
#include <limits>

namespace campaign::plan
{

namespace
{
constexpr size_t kPrefetchAhead = 8;
}

WindowMinima::WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                           const ResourceProfile &profile)
    : job_(job), candidates_(candidates), profile_(profile), gres_needed_(needs_gres(job)),
      available_(candidates.size(), std::numeric_limits<int32_t>::max()),
      last_minimum_end_(candidates.size(), never_s), full_cpus_(candidates.size()),
      at_start_(candidates.size(), 0), after_window_(candidates.size(), 0),
      next_change_s_(candidates.size(), never_s), last_usable_(candidates.size(), 0)
{
	for (size_t i = 0; i < candidates.size(); ++i) {
		const NodeFree &capacity = profile.capacity(candidates[i]);
		full_cpus_[i] = usable_cpus_on(job, gres_needed_, capacity, capacity);
	}
}

void WindowMinima::scan(size_t candidate, size_t from, int64_t window_end_s,
                        int64_t last_slot_end_s)
{
	const NodeIndex node = candidates_[candidate];
	const std::vector<NodeTimelines::Change> &changes = profile_.timelines().changes(node);
	const NodeFree &capacity = profile_.capacity(node);
	int32_t &available = available_[candidate];
	size_t k = from;
	int32_t cpus = 0;
	for (; k < changes.size() && changes[k].start_s < window_end_s; ++k) {
		cpus = usable_cpus_on(job_, gres_needed_, changes[k].free, capacity);
		if (cpus <= available) {
			available = cpus;
			// The change's last slot inside the window: where it ends, or the slot that
			// holds the window's last second.
			const int64_t change_end_s =
			    k + 1 < changes.size() ? changes[k + 1].start_s : never_s;
			last_minimum_end_[candidate] = std::min(change_end_s, last_slot_end_s);
		}
	}
	after_window_[candidate] = k;
	next_change_s_[candidate] = k < changes.size() ? changes[k].start_s : never_s;
	last_usable_[candidate] = cpus; // the loop ran at least once: `from` is in the window
}

// A node whose least slot is still in the window keeps its least over the part both windows
// share (a subset holding that slot): only the new part can lower it, or move its last slot on.
// The new part starts with the change holding the last window's last second (looked at again:
// harmless, and it may run on into the new part). Windows only move later, so each node's
// changes are found by walking on from the last window's, not by a search per node.
void WindowMinima::slide_to(int64_t start_s)
{
	const int64_t end_s = start_s + job_.limit_s;
	const int64_t last_slot_end_s = profile_.slot_end_s(profile_.slot_at(end_s - 1));
	const bool sliding = start_s_ != never_s && start_s >= start_s_;
	available_sum_ = 0;
	if (sliding) {
		for (size_t i = 0; i < candidates_.size(); ++i) {
			if (last_minimum_end_[i] <= start_s) {
				rescan(i, start_s, end_s, last_slot_end_s);
			} else if (next_change_s_[i] < end_s) {
				// The least slot stays in the window: only the new part can lower
				// it.
				scan(i, after_window_[i] - 1, end_s, last_slot_end_s);
			} else if (last_usable_[i] <= available_[i]) {
				// No change of the node entered the window: scan's look at the
				// window's last change alone, from the copies (its last slot may
				// run on), and the node's changes are not read at all.
				last_minimum_end_[i] = std::min(next_change_s_[i], last_slot_end_s);
			}
			available_sum_ += available_[i];
		}
	} else {
		for (size_t i = 0; i < candidates_.size(); ++i) {
			// Each node's changes are their own allocation: ask for those of the node a
			// few ahead, so the reads overlap (they were a third of the search).
			if (i + kPrefetchAhead < candidates_.size()) {
				const char *changes = reinterpret_cast<const char *>(
				    profile_.timelines()
				        .changes(candidates_[i + kPrefetchAhead])
				        .data());
				__builtin_prefetch(changes);
				__builtin_prefetch(changes + 64);
			}
			at_start_[i] = NodeTimelines::change_at(
			    profile_.timelines().changes(candidates_[i]), start_s);
			available_[i] = std::numeric_limits<int32_t>::max();
			scan(i, at_start_[i], end_s, last_slot_end_s);
			available_sum_ += available_[i];
		}
	}
	start_s_ = start_s;
	end_s_ = end_s;
}

// The node's least slot left the window: its least afresh, walking on from the change that held
// the last window's start.
void WindowMinima::rescan(size_t candidate, int64_t start_s, int64_t end_s, int64_t last_slot_end_s)
{
	const std::vector<NodeTimelines::Change> &changes =
	    profile_.timelines().changes(candidates_[candidate]);
	size_t &first = at_start_[candidate];
	while (first + 1 < changes.size() && changes[first + 1].start_s <= start_s)
		++first;
	available_[candidate] = std::numeric_limits<int32_t>::max();
	scan(candidate, first, end_s, last_slot_end_s);
}

} // namespace campaign::plan
