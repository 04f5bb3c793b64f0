// ResourceProfile: free CPUs and memory of every node over time. Booking only; no placement
// decisions and no Slurm types.
#include "plan/resource_profile.h"

#include <algorithm>

namespace campaign::plan
{

ResourceProfile::ResourceProfile(const Cluster &cluster, int64_t origin_s)
{
	reset(cluster, origin_s);
}

void ResourceProfile::reset(const Cluster &cluster, int64_t origin_s)
{
	for (Slot &slot : slots_)
		recycle(slot);
	slots_.clear();
	starts_.clear();
	capacity_.clear();
	usable_.clear();
	weights_.clear();
	weighted_ = false;
	Slot first{.start_s = origin_s};
	if (!spare_.empty()) {
		first.nodes = std::move(spare_.back());
		spare_.pop_back();
		first.nodes.clear();
	}
	for (const NodeSpec &node : cluster.nodes) {
		const bool up = node.state == NodeState::up;
		capacity_.push_back({node.cpus, node.memory_mb, node.gres});
		usable_.push_back(up);
		weighted_ |= !weights_.empty() && node.weight != weights_.front();
		weights_.push_back(node.weight);
		first.nodes.push_back({node.cpus, node.memory_mb, node.gres});
		if (up)
			first.usable_free_cpus += std::max(node.cpus, 0);
	}
	starts_.push_back(origin_s);
	slots_.push_back(std::move(first));
	timelines_.reset(capacity_, origin_s);
}

size_t ResourceProfile::slot_at(int64_t time_s) const
{
	auto after = std::upper_bound(starts_.begin(), starts_.end(), time_s);
	if (after == starts_.begin())
		return 0;
	return static_cast<size_t>(after - starts_.begin()) - 1;
}

int64_t ResourceProfile::slot_end_s(size_t slot) const
{
	return slot + 1 < starts_.size() ? starts_[slot + 1] : never_s;
}

int64_t ResourceProfile::least_usable_free_cpus(int64_t from_s, int64_t until_s) const
{
	int64_t least = slots_[slot_at(from_s)].usable_free_cpus;
	for (size_t slot = slot_at(from_s) + 1; slot < slots_.size() && starts_[slot] < until_s;
	     ++slot)
		least = std::min(least, slots_[slot].usable_free_cpus);
	return least;
}

int64_t ResourceProfile::first_short_of(int64_t from_s, int64_t cpus) const
{
	const size_t first = slot_at(from_s);
	if (slots_[first].usable_free_cpus < cpus)
		return from_s;
	for (size_t slot = first + 1; slot < slots_.size(); ++slot)
		if (slots_[slot].usable_free_cpus < cpus)
			return starts_[slot];
	return never_s;
}

ResourceProfile::Slot ResourceProfile::copy_of(const Slot &source)
{
	Slot copy{.start_s = source.start_s,
	          .usable_free_cpus = source.usable_free_cpus,
	          .long_cpus = source.long_cpus};
	if (!spare_.empty()) {
		copy.nodes = std::move(spare_.back());
		spare_.pop_back();
	}
	copy.nodes = source.nodes; // keeps the spare capacity
	return copy;
}

void ResourceProfile::recycle(Slot &slot)
{
	if (slot.nodes.capacity() > 0)
		spare_.push_back(std::move(slot.nodes));
}

size_t ResourceProfile::split_at(int64_t time_s)
{
	const size_t slot = slot_at(time_s);
	if (slots_[slot].start_s == time_s)
		return slot;
	Slot copy = copy_of(slots_[slot]);
	copy.start_s = time_s;
	slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(slot) + 1, std::move(copy));
	starts_.insert(starts_.begin() + static_cast<std::ptrdiff_t>(slot) + 1, time_s);
	return slot + 1;
}

void ResourceProfile::merge_with_previous(size_t slot)
{
	if (slot == 0 || slot >= slots_.size())
		return;
	if (slots_[slot].nodes == slots_[slot - 1].nodes &&
	    slots_[slot].long_cpus == slots_[slot - 1].long_cpus) {
		recycle(slots_[slot]);
		slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(slot));
		starts_.erase(starts_.begin() + static_cast<std::ptrdiff_t>(slot));
	}
}

void ResourceProfile::apply(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                            int64_t end_s, int sign, bool long_job)
{
	start_s = std::max(start_s, origin_s());
	end_s = std::min(end_s, never_s);
	if (end_s <= start_s)
		return;
	const size_t first = split_at(start_s);
	const size_t last = split_at(end_s); // first slot after the interval
	for (const NodeAllocation &allocation : allocations)
		timelines_.apply(allocation, start_s, end_s, sign);
	int64_t cpus = 0;
	if (long_job)
		for (const NodeAllocation &allocation : allocations)
			cpus += allocation.cpus;
	for (size_t slot = first; slot < last; ++slot) {
		Slot &target = slots_[slot];
		target.long_cpus += sign * cpus;
		for (const NodeAllocation &allocation : allocations) {
			NodeFree &free = target.nodes[allocation.node];
			const int32_t before = std::max(free.cpus, 0);
			free.cpus -= sign * allocation.cpus;
			free.memory_mb -= sign * allocation.memory_mb;
			for (size_t kind = 0; kind < gres_kinds_max; ++kind)
				free.gres[kind] -= sign * allocation.gres[kind];
			if (usable_[allocation.node])
				target.usable_free_cpus += std::max(free.cpus, 0) - before;
		}
	}
	merge_with_previous(last);
	merge_with_previous(first);
}

void ResourceProfile::book(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                           int64_t end_s, bool long_job)
{
	apply(allocations, start_s, end_s, +1, long_job);
}

void ResourceProfile::release(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                              int64_t end_s, bool long_job)
{
	apply(allocations, start_s, end_s, -1, long_job);
}

void ResourceProfile::book_from_origin(std::vector<Held> held)
{
	if (slots_.size() != 1) { // not a fresh profile: book one by one
		for (const Held &job : held)
			book(*job.allocations, origin_s(), job.end_s, job.long_job);
		return;
	}
	std::sort(held.begin(), held.end(),
	          [](const Held &a, const Held &b) { return a.end_s < b.end_s; });
	auto change = [this](Slot &slot, const Held &job, int sign) {
		for (const NodeAllocation &allocation : *job.allocations) {
			if (job.long_job)
				slot.long_cpus += sign * allocation.cpus;
			NodeFree &free = slot.nodes[allocation.node];
			const int32_t before = std::max(free.cpus, 0);
			free.cpus -= sign * allocation.cpus;
			free.memory_mb -= sign * allocation.memory_mb;
			for (size_t kind = 0; kind < gres_kinds_max; ++kind)
				free.gres[kind] -= sign * allocation.gres[kind];
			if (usable_[allocation.node])
				slot.usable_free_cpus += std::max(free.cpus, 0) - before;
		}
	};
	const int64_t origin = origin_s();
	for (const Held &job : held)
		if (job.end_s > origin) {
			change(slots_.front(), job, +1);
			for (const NodeAllocation &allocation : *job.allocations)
				timelines_.apply(allocation, origin, std::min(job.end_s, never_s),
				                 +1);
		}
	for (size_t i = 0; i < held.size();) {
		const int64_t end_s = std::min(held[i].end_s, never_s);
		Slot next = copy_of(slots_.back());
		next.start_s = end_s;
		for (; i < held.size() && std::min(held[i].end_s, never_s) == end_s; ++i)
			if (held[i].end_s > origin)
				change(next, held[i], -1);
		if (end_s <= origin || (next.nodes == slots_.back().nodes &&
		                        next.long_cpus == slots_.back().long_cpus)) {
			recycle(next);
			continue; // nothing changes there: no new slot (as book() would merge it)
		}
		starts_.push_back(end_s);
		slots_.push_back(std::move(next));
	}
}

void ResourceProfile::advance_to(int64_t now_s)
{
	if (now_s <= origin_s())
		return;
	const size_t current = slot_at(now_s);
	for (size_t slot = 0; slot < current; ++slot)
		recycle(slots_[slot]);
	slots_.erase(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(current));
	starts_.erase(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(current));
	slots_.front().start_s = now_s;
	starts_.front() = now_s;
	timelines_.advance_to(now_s);
}

bool ResourceProfile::overcommitted(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                                    int64_t end_s) const
{
	start_s = std::max(start_s, origin_s());
	for (size_t slot = slot_at(start_s); slot < slots_.size() && slots_[slot].start_s < end_s;
	     ++slot) {
		for (const NodeAllocation &allocation : allocations) {
			const NodeFree &free = slots_[slot].nodes[allocation.node];
			if (free.cpus < 0 || free.memory_mb < 0 || !gres_at_least(free.gres, {}))
				return true;
		}
	}
	return false;
}

} // namespace campaign::plan
