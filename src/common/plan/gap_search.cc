// GapSearch: earliest fitting start and deterministic node choice over a ResourceProfile.
// Reads the profile only; booking is the Planner's job.
#include "plan/gap_search.h"

#include "plan/minima_cache.h"
#include "plan/usable_cpus.h"
#include "plan/window_minima.h"

#include <algorithm>
#include <limits>

namespace campaign::plan
{

int32_t usable_cpus(const PendingJob &job, const NodeFree &free, const NodeFree &capacity)
{
	return usable_cpus_on(job, needs_gres(job), free, capacity);
}

namespace
{

NodeAllocation allocation_for(const PendingJob &job, NodeIndex node, int32_t cpus,
                              const ResourceProfile &profile)
{
	const NodeFree &capacity = profile.capacity(node);
	if (job.exclusive)
		return {node, capacity.cpus, capacity.memory_mb, capacity.gres};
	if (job.all_memory)
		return {node, cpus, capacity.memory_mb, job.gres_per_node};
	return {node, cpus, job.memory_per_node_mb + job.memory_per_cpu_mb * cpus,
	        job.gres_per_node};
}

// The lightest weight among the nodes that can take some of the job: select tries those
// first (node_scheduler.c offers node sets in weight order, cons_tres takes the lightest set).
uint32_t lightest_weight(const std::vector<NodeIndex> &candidates,
                         const std::vector<int32_t> &available_cpus, const ResourceProfile &profile)
{
	uint32_t lightest = std::numeric_limits<uint32_t>::max();
	for (size_t i = 0; i < candidates.size(); ++i)
		if (available_cpus[i] > 0)
			lightest = std::min(lightest, profile.weight(candidates[i]));
	return lightest;
}

// Best fit: the fewest spare CPUs, then the lowest index. By weight: among the lightest nodes
// only (Slurm takes several light nodes before one heavier node that alone would do), or, for
// a job of one node at most, the lightest node that can hold it (cons_tres passes over the
// nodes too small for a last node).
std::optional<NodeAllocation> best_single_node(const PendingJob &job,
                                               const std::vector<NodeIndex> &candidates,
                                               const std::vector<int32_t> &available_cpus,
                                               const ResourceProfile &profile, bool by_weight)
{
	const bool lightest_only = by_weight && job.nodes_max != 1;
	const uint32_t lightest =
	    lightest_only ? lightest_weight(candidates, available_cpus, profile) : 0;
	auto weight_of = [&](size_t i) { return by_weight ? profile.weight(candidates[i]) : 0; };
	size_t best = candidates.size();
	for (size_t i = 0; i < candidates.size(); ++i) {
		if (available_cpus[i] < job.cpus)
			continue;
		if (lightest_only && weight_of(i) != lightest)
			continue;
		if (best == candidates.size() || weight_of(i) < weight_of(best) ||
		    (weight_of(i) == weight_of(best) && available_cpus[i] < available_cpus[best]))
			best = i;
	}
	if (best == candidates.size())
		return std::nullopt;
	return allocation_for(job, candidates[best], job.cpus, profile);
}

// The job's tasks: ceil(cpus / cpus_per_task), each of cpus_per_task CPUs.
int64_t tasks_of(const PendingJob &job)
{
	const int64_t per_task = std::max(job.cpus_per_task, 1);
	return (job.cpus + per_task - 1) / per_task;
}

// choose_nodes in one node order: by weight (lightest first) or not. Counted in whole tasks
// (with the default layout a task is one CPU): each node first takes its least (one task, or
// tasks_per_node), then the rest fills the chosen nodes in order, as cons_tres's dist_tasks
// gives one task per node before filling.
std::vector<NodeAllocation> choose_in_order(const PendingJob &job,
                                            const std::vector<NodeIndex> &candidates,
                                            const std::vector<int32_t> &available_cpus,
                                            const ResourceProfile &profile, bool by_weight)
{
	const int32_t per_task = std::max(job.cpus_per_task, 1);
	const int64_t tasks = tasks_of(job);
	const int64_t least_tasks = job.tasks_per_node > 0 ? job.tasks_per_node : 1;
	int64_t nodes_needed = std::max(job.nodes_min, 1);
	if (job.tasks_per_node > 0)
		nodes_needed = std::max(nodes_needed, (tasks + least_tasks - 1) / least_tasks);
	const int64_t nodes_allowed =
	    job.nodes_max > 0 ? job.nodes_max : std::numeric_limits<int32_t>::max();
	if (nodes_needed == 1 && !(job.spread && nodes_allowed > 1)) {
		if (auto single =
		        best_single_node(job, candidates, available_cpus, profile, by_weight))
			return {*single};
	}
	auto tasks_on = [&](size_t i) -> int64_t { return available_cpus[i] / per_task; };
	std::vector<size_t> order;
	for (size_t i = 0; i < candidates.size(); ++i)
		if (tasks_on(i) >= least_tasks)
			order.push_back(i);
	if (job.spread) // --spread-job: lightest first, then in index order (_eval_nodes_spread)
		std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
			return by_weight &&
			       profile.weight(candidates[a]) < profile.weight(candidates[b]);
		});
	else if (by_weight)
		std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
			const uint32_t weight_a = profile.weight(candidates[a]);
			const uint32_t weight_b = profile.weight(candidates[b]);
			return weight_a != weight_b ? weight_a < weight_b
			                            : available_cpus[a] > available_cpus[b];
		});
	else
		std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
			return available_cpus[a] > available_cpus[b];
		});
	size_t node_count = 0;
	int64_t covered_tasks = 0;
	if (job.spread) { // as many nodes as allowed, each with at least its least
		node_count = static_cast<size_t>(std::min<int64_t>(
		    {static_cast<int64_t>(order.size()), nodes_allowed, tasks / least_tasks}));
		node_count = std::max<size_t>(node_count, static_cast<size_t>(nodes_needed));
		for (size_t k = 0; k < std::min(node_count, order.size()); ++k)
			covered_tasks +=
			    std::min(tasks_on(order[k]),
			             job.tasks_per_node > 0 ? least_tasks : tasks_on(order[k]));
	} else {
		size_t covering = 0;
		while (covering < order.size() && covered_tasks < tasks)
			covered_tasks += tasks_on(order[covering++]);
		node_count = std::max<size_t>(covering, static_cast<size_t>(nodes_needed));
	}
	if (covered_tasks < tasks || node_count > order.size())
		return {};
	if (job.tasks_per_node <= 0 && tasks < static_cast<int64_t>(node_count))
		return {}; // a task on every node
	if (static_cast<int64_t>(node_count) > nodes_allowed)
		return {};
	std::vector<NodeAllocation> allocations;
	int64_t tasks_left =
	    std::max<int64_t>(0, tasks - static_cast<int64_t>(node_count) * least_tasks);
	for (size_t k = 0; k < node_count; ++k) {
		const size_t i = order[k];
		const int64_t extra = std::min(tasks_on(i) - least_tasks, tasks_left);
		tasks_left -= extra;
		allocations.push_back(allocation_for(
		    job, candidates[i], static_cast<int32_t>((least_tasks + extra) * per_task),
		    profile));
	}
	std::sort(allocations.begin(), allocations.end(),
	          [](const NodeAllocation &a, const NodeAllocation &b) { return a.node < b.node; });
	return allocations;
}

} // namespace

// Weights only order the choice: where the lightest-first order finds no fit within nodes_max,
// the unweighted one is tried, so a job fits wherever it would without weights (without a
// nodes_max both orders fail alike: the same CPUs, and at least as many nodes either way).
std::vector<NodeAllocation> choose_nodes(const PendingJob &job,
                                         const std::vector<NodeIndex> &candidates,
                                         const std::vector<int32_t> &available_cpus,
                                         const ResourceProfile &profile)
{
	if (profile.weighted()) {
		auto allocations = choose_in_order(job, candidates, available_cpus, profile, true);
		if (!allocations.empty() || job.nodes_max == 0)
			return allocations;
	}
	return choose_in_order(job, candidates, available_cpus, profile, false);
}

std::optional<int64_t> GapSearch::last_blocked_end(int64_t cpus, int64_t start_s, int64_t end_s,
                                                   ClearRun &clear) const
{
	// Slots already seen to have room (the run [clear.from_s, clear.until_s)) are not looked
	// at again: a window sliding later only needs its new slots.
	const int64_t scan_from_s = clear.from_s <= start_s && start_s < clear.until_s
	                                ? std::max(start_s, clear.until_s)
	                                : start_s;
	// Backwards from the window's end: on a busy machine the last blocked slot is near it.
	const size_t first = profile_.slot_at(std::min(scan_from_s, end_s - 1));
	const size_t slot = profile_.last_slot_short_of(first, profile_.slot_at(end_s - 1), cpus);
	if (slot != ResourceProfile::last_short_none) {
		clear = {profile_.slot_end_s(slot), end_s};
		return profile_.slot_end_s(slot);
	}
	clear = {start_s, end_s};
	return std::nullopt;
}

std::optional<int64_t> GapSearch::last_long_end(int64_t cpus, int64_t limit, int64_t start_s,
                                                int64_t end_s) const
{
	const size_t first = profile_.slot_at(start_s);
	const size_t last = profile_.slot_at(end_s - 1);
	if (last < first)
		return std::nullopt;
	const size_t slot = profile_.last_slot_long_over(first, last, limit - cpus);
	if (slot == ResourceProfile::last_short_none)
		return std::nullopt;
	return profile_.slot_end_s(slot);
}

bool GapSearch::pool_fits_job(const PendingJob &job, const std::vector<NodeIndex> &candidates) const
{
	// What choose_nodes then gives on the one node with the job's CPUs free all window long:
	// job.cpus there, no more (no whole node, no task rounding), and no memory or GRES.
	return profile_.single_cpu_pool() && candidates.size() == 1 && job.cpus >= 1 &&
	       !job.exclusive && !job.all_memory && job.memory_per_node_mb == 0 &&
	       job.memory_per_cpu_mb == 0 && job.gres_per_node == GresCounts{} &&
	       job.cpus_per_task <= 1 && job.tasks_per_node <= 0 && job.nodes_min <= 1 &&
	       !job.spread && job.preemptable.empty();
}

bool GapSearch::pool_fits_allocations(const std::vector<NodeAllocation> &allocations) const
{
	return profile_.single_cpu_pool() && allocations.size() == 1 &&
	       allocations.front().cpus >= 1 && holds_cpus_only(allocations.front());
}

std::optional<int64_t> GapSearch::pool_blocked_end(int64_t cpus, int64_t start_s, int64_t end_s,
                                                   int64_t held_start_s, int64_t held_end_s,
                                                   int64_t long_limit, int64_t held_long_cpus) const
{
	// The window's parts after, in and before the held booking, last first (the last blocked
	// part's end is the next start worth trying); a blocked slot's part ends at the slot's end
	// or at the held booking's edge after it, as earliest_in_place_holding cuts them.
	struct Part {
		int64_t from_s;
		int64_t until_s;
		int64_t cut_s;
		bool held;
	};
	const Part parts[] = {
	    {std::max(held_end_s, start_s), end_s, never_s, false},
	    {std::max(held_start_s, start_s), std::min(held_end_s, end_s), held_end_s, true},
	    {start_s, std::min(held_start_s, end_s), held_start_s, false}};
	constexpr size_t none = ResourceProfile::last_short_none;
	for (const Part &part : parts) {
		if (part.from_s >= part.until_s)
			continue;
		const size_t first = profile_.slot_at(part.from_s);
		const size_t last = profile_.slot_at(part.until_s - 1);
		size_t blocked = part.held ? none : profile_.last_slot_short_of(first, last, cpus);
		const size_t long_from = blocked == none ? first : blocked + 1;
		if (long_limit >= 0 && long_from <= last) {
			const size_t over = profile_.last_slot_long_over(
			    long_from, last, long_limit - cpus + (part.held ? held_long_cpus : 0));
			if (over != none)
				blocked = over;
		}
		if (blocked != none)
			return std::min(part.cut_s, profile_.slot_end_s(blocked));
	}
	return std::nullopt;
}

std::optional<Placement>
GapSearch::earliest_in_pool(const PendingJob &job, const std::vector<NodeAllocation> &allocations,
                            int64_t held_start_s, int64_t held_end_s, int64_t from_s,
                            int64_t until_s, int64_t long_limit, int64_t held_long_cpus) const
{
	const int64_t cpus = allocations.front().cpus;
	for (int64_t start_s = std::max(from_s, profile_.origin_s()); start_s <= until_s;) {
		const auto blocked_end =
		    pool_blocked_end(cpus, start_s, start_s + job.limit_s, held_start_s, held_end_s,
		                     long_limit, held_long_cpus);
		if (!blocked_end)
			return Placement{start_s, allocations};
		start_s = *blocked_end;
	}
	return std::nullopt;
}

std::optional<Placement> GapSearch::try_window(const PendingJob &job, WindowMinima &minima,
                                               int64_t start_s, int64_t until_s,
                                               int64_t &next_start_s) const
{
	minima.slide_to(start_s);
	// Fewer CPUs than asked on all candidates together: no node choice fits (either order).
	if (minima.available_sum() >= job.cpus) {
		// Only nodes with some CPUs over the window take part in a choice.
		std::vector<NodeIndex> nodes;
		std::vector<int32_t> available;
		minima.positive(nodes, available);
		auto allocations = choose_nodes(job, nodes, available, profile_);
		if (!allocations.empty())
			return Placement{start_s, std::move(allocations)};
	}
	next_start_s = start_s < until_s ? minima.next_start_s() : never_s;
	return std::nullopt;
}

std::optional<Placement> GapSearch::earliest(const PendingJob &job,
                                             const std::vector<NodeIndex> &candidates,
                                             int64_t from_s, int64_t until_s,
                                             int64_t long_cpus_limit, MinimaCache *cache) const
{
	if (candidates.empty() || job.limit_s <= 0)
		return std::nullopt;
	int64_t start_s = std::max(from_s, profile_.origin_s());
	const bool pool = pool_fits_job(job, candidates);
	std::optional<WindowMinima> own;
	WindowMinima *const minima = pool ? nullptr
	                             : cache
	                                 ? &cache->minima_for(job, candidates, start_s, profile_)
	                                 : &own.emplace(job, candidates, profile_);
	ClearRun clear;
	while (start_s <= until_s && start_s < never_s) {
		if (auto blocked_end =
		        last_blocked_end(job.cpus, start_s, start_s + job.limit_s, clear)) {
			start_s = *blocked_end;
			continue;
		}
		if (long_cpus_limit >= 0) {
			if (auto long_end = last_long_end(job.cpus, long_cpus_limit, start_s,
			                                  start_s + job.limit_s)) {
				start_s = *long_end;
				continue;
			}
		}
		if (pool) // every slot of the window has the job's CPUs: the node has them
			return Placement{
			    start_s, {allocation_for(job, candidates.front(), job.cpus, profile_)}};
		int64_t next_start_s = never_s;
		if (auto placement = try_window(job, *minima, start_s, until_s, next_start_s)) {
			// An exclusive job holds whole nodes: more CPUs than it asked for.
			const int64_t held = cpus_of(placement->allocations);
			if (long_cpus_limit >= 0 && held > job.cpus) {
				if (auto long_end =
				        last_long_end(held, std::max(long_cpus_limit, held),
				                      start_s, start_s + job.limit_s)) {
					start_s = *long_end;
					continue;
				}
			}
			return placement;
		}
		if (next_start_s <= start_s)
			break; // cannot happen: a minimum slot ends after the window start
		start_s = next_start_s;
	}
	return std::nullopt;
}

std::optional<Placement>
GapSearch::earliest_in_place(const PendingJob &job, const std::vector<NodeAllocation> &allocations,
                             int64_t from_s, int64_t until_s, int64_t long_cpus_limit) const
{
	const int64_t cpus = cpus_of(allocations);
	if (job.limit_s > 0 && pool_fits_allocations(allocations))
		return earliest_in_pool(job, allocations, never_s, never_s, from_s, until_s,
		                        long_cpus_limit >= 0 ? std::max(long_cpus_limit, cpus) : -1,
		                        0);
	int64_t start_s = std::max(from_s, profile_.origin_s());
	while (start_s <= until_s) {
		if (long_cpus_limit >= 0) {
			if (auto long_end = last_long_end(cpus, std::max(long_cpus_limit, cpus),
			                                  start_s, start_s + job.limit_s)) {
				start_s = *long_end;
				continue;
			}
		}
		const size_t first = profile_.slot_at(start_s);
		std::optional<int64_t> blocked_end;
		for (size_t slot = profile_.slot_at(start_s + job.limit_s - 1) + 1;
		     !blocked_end && slot-- > first;) {
			for (const NodeAllocation &allocation : allocations) {
				const NodeFree &free = profile_.free(slot, allocation.node);
				if (free.cpus < allocation.cpus ||
				    free.memory_mb < allocation.memory_mb ||
				    !gres_at_least(free.gres, allocation.gres)) {
					blocked_end = profile_.slot_end_s(slot);
					break;
				}
			}
		}
		if (!blocked_end)
			return Placement{start_s, allocations};
		start_s = *blocked_end;
	}
	return std::nullopt;
}

// Within the held window the allocations themselves are in the profile: they fit there exactly
// when nothing on their nodes is over-committed. A slot that straddles a window edge is
// looked at in its parts, so a blocked part ends where the free amounts really change, and
// skipping to that end passes over only starts the given-back profile would block too.
std::optional<Placement> GapSearch::earliest_in_place_holding(
    const PendingJob &job, const std::vector<NodeAllocation> &allocations, int64_t held_start_s,
    int64_t held_end_s, int64_t from_s, int64_t until_s, int64_t long_cpus_limit,
    int64_t held_long_cpus) const
{
	const int64_t cpus = cpus_of(allocations);
	const int64_t long_limit = std::max(long_cpus_limit, cpus);
	if (job.limit_s > 0 && pool_fits_allocations(allocations))
		return earliest_in_pool(job, allocations, held_start_s, held_end_s, from_s, until_s,
		                        long_cpus_limit >= 0 ? long_limit : -1, held_long_cpus);
	// Each node's change in effect at the slot looked at: the slots are looked at last first,
	// so it only walks back (a search per slot and node was a sixth of fairshare/conservative).
	// On the stack for a few nodes: a vector was a malloc per search (campsim: one node).
	constexpr size_t kFewNodes = 8;
	size_t few_holders[kFewNodes];
	std::vector<size_t> many_holders(allocations.size() > kFewNodes ? allocations.size() : 0);
	size_t *const holder = allocations.size() > kFewNodes ? many_holders.data() : few_holders;
	auto hold_from = [&](size_t slot) {
		for (size_t index = 0; index < allocations.size(); ++index)
			holder[index] = NodeTimelines::change_at(
			    profile_.timelines().changes(allocations[index].node),
			    profile_.slot_start_s(slot));
	};
	// A part of a slot is blocked by long jobs as it would be with the held booking given back.
	auto blocked_on = [&](size_t slot, bool held) {
		if (long_cpus_limit >= 0 &&
		    profile_.long_cpus(slot) - (held ? held_long_cpus : 0) + cpus > long_limit)
			return true;
		const int64_t slot_start_s = profile_.slot_start_s(slot);
		for (size_t index = 0; index < allocations.size(); ++index) {
			const NodeAllocation &allocation = allocations[index];
			const std::vector<NodeTimelines::Change> &changes =
			    profile_.timelines().changes(allocation.node);
			size_t &at = holder[index];
			while (changes[at].start_s > slot_start_s)
				--at;
			const NodeFree &free = changes[at].free;
			const NodeFree need =
			    held ? NodeFree{}
			         : NodeFree{allocation.cpus, allocation.memory_mb, allocation.gres};
			if (free.cpus < need.cpus || free.memory_mb < need.memory_mb ||
			    !gres_at_least(free.gres, need.gres))
				return true;
		}
		return false;
	};
	int64_t start_s = std::max(from_s, profile_.origin_s());
	while (start_s <= until_s) {
		const int64_t end_s = start_s + job.limit_s;
		const size_t first = profile_.slot_at(start_s);
		const size_t last = profile_.slot_at(end_s - 1);
		hold_from(last);
		std::optional<int64_t> blocked_end;
		for (size_t slot = last + 1; !blocked_end && slot-- > first;) {
			// The slot's parts outside, inside and after the held window, last first.
			const int64_t slot_start_s = std::max(profile_.slot_start_s(slot), start_s);
			const int64_t slot_end_s = profile_.slot_end_s(slot);
			const int64_t cuts[] = {
			    slot_start_s, std::clamp(held_start_s, slot_start_s, slot_end_s),
			    std::clamp(held_end_s, slot_start_s, slot_end_s), slot_end_s};
			for (int part = 2; part >= 0 && !blocked_end; --part) {
				const int64_t part_start_s = cuts[part],
				              part_end_s = cuts[part + 1];
				if (part_start_s >= part_end_s || part_start_s >= end_s)
					continue;
				if (blocked_on(slot, part == 1))
					blocked_end = part_end_s;
			}
		}
		if (!blocked_end)
			return Placement{start_s, allocations};
		start_s = *blocked_end;
	}
	return std::nullopt;
}

} // namespace campaign::plan
