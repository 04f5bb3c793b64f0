// WindowMinima: for each candidate node of one job, the least CPUs the job could hold there over
// a window [start, start + limit) that only moves later, and the end of the last slot where that
// least is reached. Kept as the window slides: a node is looked at again only where the window
// gained changes of its free amounts, or where it lost the slot of its least (NodeTimelines).
#pragma once

#include "plan/plan_types.h"
#include "plan/resource_profile.h"

#include <cstdint>
#include <vector>

namespace campaign::plan
{

class WindowMinima
{
public:
	WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
	             const ResourceProfile &profile);

	// The window at [start_s, start_s + job.limit_s); start_s at least the last one's.
	void slide_to(int64_t start_s);

	// Per candidate (same order): the least usable CPUs over the window, and the end of the
	// last profile slot of the window with that least.
	const std::vector<int32_t> &available() const { return available_; }
	const std::vector<int64_t> &last_minimum_end() const { return last_minimum_end_; }
	// Sum of available(): the most CPUs any node choice could hold over the window.
	int64_t available_sum() const { return available_sum_; }
	// What the candidate could hold on an empty node: its least can rise no higher.
	int32_t full_cpus(size_t candidate) const { return full_cpus_[candidate]; }

private:
	// Lower the candidate's least with the node's changes from index `from` until
	// window_end_s.
	void scan(size_t candidate, size_t from, int64_t window_end_s, int64_t last_slot_end_s);
	void rescan(size_t candidate, int64_t start_s, int64_t end_s, int64_t last_slot_end_s);

	const PendingJob &job_;
	const std::vector<NodeIndex> &candidates_;
	const ResourceProfile &profile_;
	const bool gres_needed_;
	std::vector<int32_t> available_;
	std::vector<int64_t> last_minimum_end_;
	std::vector<int32_t> full_cpus_;
	// Per candidate, in its node's changes: the one holding the window's start when its least
	// was last found afresh, and the first one after the window.
	std::vector<size_t> at_start_;
	std::vector<size_t> after_window_;
	// Per candidate, beside after_window_: that change's start (never_s: none), and the usable
	// CPUs of the change before it (the window's last). A slide that brings a node no change
	// reads these, not the node's changes: at 10,000 nodes the reads of every node's changes
	// at every slide were most of the gap search.
	std::vector<int64_t> next_change_s_;
	std::vector<int32_t> last_usable_;
	int64_t available_sum_ = 0;
	int64_t start_s_ = never_s; // the current window (never_s: none yet)
	int64_t end_s_ = never_s;
};

} // namespace campaign::plan
