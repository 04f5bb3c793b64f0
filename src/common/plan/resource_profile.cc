// ResourceProfile: free CPUs and memory of every node over time. Booking only; no placement
// decisions and no Slurm types. The slots hold only machine-wide sums; each node's own free
// amounts are in NodeTimelines, which holds a node's changes only (a slot-by-node table was
// slots x nodes: 28k slots x 10k nodes x 32 B = 9 GB on the 10,000-node bench row).
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
	booking_log_.new_epoch();
	slots_.clear();
	block_adds_.assign(1, BlockAdd{});
	starts_.clear();
	capacity_.clear();
	usable_.clear();
	weights_.clear();
	weighted_ = false;
	cpus_only_ = true;
	overcommitted_ = false;
	Slot first;
	for (const NodeSpec &node : cluster.nodes) {
		const bool up = node.state == NodeState::up;
		capacity_.push_back({node.cpus, node.memory_mb, node.gres});
		usable_.push_back(up);
		weighted_ |= !weights_.empty() && node.weight != weights_.front();
		weights_.push_back(node.weight);
		if (up)
			first.usable_free_cpus += std::max(node.cpus, 0);
	}
	starts_.push_back(origin_s);
	slots_.push_back(first);
	timelines_.reset(capacity_, origin_s);
	timelines_behind_ = false;
}

namespace
{

// The first slot in [from, last) starting at or after time_s, or last. Galloping from `from`: a
// change of one node spans a few slots, a booking thousands.
size_t first_slot_from(const std::vector<int64_t> &starts, int64_t time_s, size_t from, size_t last)
{
	size_t step = 1;
	size_t low = from; // starts[low] < time_s, or low == from
	while (from + step < last && starts[from + step] < time_s) {
		low = from + step;
		step *= 2;
	}
	const auto begin = starts.begin();
	return static_cast<size_t>(
	    std::lower_bound(begin + static_cast<std::ptrdiff_t>(low),
	                     begin + static_cast<std::ptrdiff_t>(std::min(from + step, last)),
	                     time_s) -
	    begin);
}

} // namespace

bool ResourceProfile::has_free_cpus(int64_t from_s, int64_t until_s, int64_t cpus) const
{
	if (usable_free_cpus(slot_at(from_s)) < cpus)
		return false;
	for (size_t slot = slot_at(from_s) + 1; slot < slots_.size() && starts_[slot] < until_s;
	     ++slot)
		if (usable_free_cpus(slot) < cpus)
			return false;
	return true;
}

int64_t ResourceProfile::first_short_of(int64_t from_s, int64_t cpus) const
{
	const size_t first = slot_at(from_s);
	if (usable_free_cpus(first) < cpus)
		return from_s;
	for (size_t slot = first + 1; slot < slots_.size(); ++slot)
		if (usable_free_cpus(slot) < cpus)
			return starts_[slot];
	return never_s;
}

// The last slot in [first, last] whose amount (the slot's own `field` plus its block's `add`)
// passes against `bound`, block by block: the bound less the block's add is compared with the
// slots' own parts, four slots a test (`reduce` of four parts passes iff one of them does).
template <typename Field, typename Add, typename Reduce, typename Passes>
size_t ResourceProfile::last_slot_where(size_t first, size_t last, int64_t bound, Field field,
                                        Add add, Reduce reduce, Passes passes) const
{
	for (size_t end = last + 1; end > first;) { // slots [.., end) left, one block at a time
		const size_t block = (end - 1) / kSlotsPerBlock;
		const size_t block_first = std::max(first, block * kSlotsPerBlock);
		const int64_t own_bound = bound - block_adds_[block].*add;
		for (; end >= block_first + 4; end -= 4) {
			const int64_t four =
			    reduce(reduce(slots_[end - 1].*field, slots_[end - 2].*field),
			           reduce(slots_[end - 3].*field, slots_[end - 4].*field));
			if (passes(four, own_bound))
				break; // one of these four: found below
		}
		for (const size_t stop = end >= block_first + 4 ? end - 4 : block_first; end > stop;
		     --end)
			if (passes(slots_[end - 1].*field, own_bound))
				return end - 1;
	}
	return last_short_none;
}

size_t ResourceProfile::last_slot_short_of(size_t first, size_t last, int64_t cpus) const
{
	return last_slot_where(
	    first, last, cpus, &Slot::usable_free_cpus, &BlockAdd::usable_free_cpus,
	    [](int64_t a, int64_t b) { return std::min(a, b); },
	    [](int64_t amount, int64_t bound) { return amount < bound; });
}

size_t ResourceProfile::last_slot_long_over(size_t first, size_t last, int64_t cpus) const
{
	return last_slot_where(
	    first, last, cpus, &Slot::long_cpus, &BlockAdd::long_cpus,
	    [](int64_t a, int64_t b) { return std::max(a, b); },
	    [](int64_t amount, int64_t bound) { return amount > bound; });
}

ResourceProfile::Slot ResourceProfile::with_block_add(size_t slot) const
{
	Slot sums = slots_[slot];
	sums.usable_free_cpus = usable_free_cpus(slot);
	sums.long_cpus = static_cast<int32_t>(long_cpus(slot));
	return sums;
}

ResourceProfile::Slot ResourceProfile::less_block_add(Slot sums, size_t block) const
{
	sums.usable_free_cpus -= block_adds_[block].usable_free_cpus;
	sums.long_cpus = static_cast<int32_t>(sums.long_cpus - block_adds_[block].long_cpus);
	return sums;
}

void ResourceProfile::rebase(Slot &slot, size_t from, size_t to) const
{
	slot.usable_free_cpus +=
	    block_adds_[from].usable_free_cpus - block_adds_[to].usable_free_cpus;
	slot.long_cpus = static_cast<int32_t>(slot.long_cpus + block_adds_[from].long_cpus -
	                                      block_adds_[to].long_cpus);
}

void ResourceProfile::add_to_slots(size_t first, size_t last, int64_t usable_free_cpus,
                                   int64_t long_cpus)
{
	if (usable_free_cpus == 0 && long_cpus == 0)
		return;
	auto add_to_slot = [&](size_t slot) {
		slots_[slot].usable_free_cpus += usable_free_cpus;
		slots_[slot].long_cpus = static_cast<int32_t>(slots_[slot].long_cpus + long_cpus);
	};
	for (; first < last && first % kSlotsPerBlock != 0; ++first)
		add_to_slot(first);
	for (; last - first >= kSlotsPerBlock; first += kSlotsPerBlock) {
		BlockAdd &block = block_adds_[first / kSlotsPerBlock];
		block.usable_free_cpus += usable_free_cpus;
		block.long_cpus += long_cpus;
	}
	for (; first < last; ++first)
		add_to_slot(first);
}

// Inserting at `from`, the last slot of each block from there on becomes the next block's
// first; erasing at `from`, the first slot of each later block becomes the previous block's
// last. Each such slot keeps its amounts: its own take the old block's add less the new one's.
void ResourceProfile::carry_across_blocks(size_t from, bool inserting)
{
	const size_t count = slots_.size();
	if (inserting) {
		block_adds_.resize(std::max(block_adds_.size(), (count + 1) / kSlotsPerBlock + 1));
		for (size_t block = from / kSlotsPerBlock; (block + 1) * kSlotsPerBlock - 1 < count;
		     ++block)
			rebase(slots_[(block + 1) * kSlotsPerBlock - 1], block, block + 1);
		return;
	}
	for (size_t block = from / kSlotsPerBlock + 1; block * kSlotsPerBlock < count; ++block)
		rebase(slots_[block * kSlotsPerBlock], block, block - 1);
}

void ResourceProfile::flatten_block_adds()
{
	for (size_t slot = 0; slot < slots_.size(); ++slot) {
		const BlockAdd &block = block_adds_[slot / kSlotsPerBlock];
		slots_[slot].usable_free_cpus += block.usable_free_cpus;
		slots_[slot].long_cpus =
		    static_cast<int32_t>(slots_[slot].long_cpus + block.long_cpus);
	}
	std::fill(block_adds_.begin(), block_adds_.end(), BlockAdd{});
}

size_t ResourceProfile::split_at(int64_t time_s)
{
	const size_t slot = slot_at(time_s);
	if (starts_[slot] == time_s)
		return slot;
	Slot copy = with_block_add(slot);
	copy.node_changes = 0; // every node's amounts run on through the new boundary
	carry_across_blocks(slot + 1, true);
	copy = less_block_add(copy, (slot + 1) / kSlotsPerBlock);
	slots_.insert(slots_.begin() + static_cast<std::ptrdiff_t>(slot) + 1, copy);
	starts_.insert(starts_.begin() + static_cast<std::ptrdiff_t>(slot) + 1, time_s);
	return slot + 1;
}

bool ResourceProfile::mergeable(size_t slot) const
{
	return slots_[slot].node_changes == 0 && long_cpus(slot) == long_cpus(slot - 1);
}

void ResourceProfile::merge_with_previous(size_t slot)
{
	if (deferring_merges_ || slot == 0 || slot >= slots_.size())
		return;
	if (mergeable(slot)) {
		carry_across_blocks(slot, false);
		slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(slot));
		starts_.erase(starts_.begin() + static_cast<std::ptrdiff_t>(slot));
	}
}

// Slots only ever stop being separated at a booking's or release's two ends, so joining each
// mergeable slot with the last one kept gives what merging after every change gave.
void ResourceProfile::merge_deferred()
{
	deferring_merges_ = false;
	flatten_block_adds(); // the kept slots move across blocks
	size_t kept = 1;
	for (size_t slot = 1; slot < slots_.size(); ++slot) {
		if (slots_[slot].node_changes == 0 &&
		    slots_[slot].long_cpus == slots_[kept - 1].long_cpus)
			continue;
		slots_[kept] = slots_[slot];
		starts_[kept] = starts_[slot];
		++kept;
	}
	slots_.resize(kept);
	starts_.resize(kept);
}

void ResourceProfile::apply(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                            int64_t end_s, int sign, bool long_job, bool log)
{
	start_s = std::max(start_s, origin_s());
	end_s = std::min(end_s, never_s);
	if (end_s <= start_s)
		return;
	const size_t first = split_at(start_s);
	const size_t last = split_at(end_s); // first slot after the interval
	add_to_slots(first, last, 0, long_job ? sign * cpus_of(allocations) : 0);
	if (log) {
		if (sign < 0) // load given back: nodes may offer more, earlier (not only the booked
		              // ones)
			booking_log_.new_epoch();
		if (sign > 0)
			for (const NodeAllocation &allocation : allocations)
				booking_log_.booked(allocation.node, start_s);
	}
	for (const NodeAllocation &allocation : allocations) {
		if (apply_in_pool(allocation, first, last, sign))
			continue;
		if (timelines_behind_)
			catch_up_timelines();
		// The node's part of each slot's usable free CPUs, before and after: the same over
		// the slots of one of its changes (each change starts a slot), so added over those
		// slots (a two-day booking spans thousands of them: by blocks), and over a run of
		// changes with one difference at once (a slot search less for each).
		size_t slot = first;
		int64_t run_delta = 0;
		int64_t run_end_s = start_s;
		auto add_run = [&] {
			const size_t run_last = first_slot_from(starts_, run_end_s, slot, last);
			add_to_slots(slot, run_last, run_delta, 0);
			slot = run_last;
		};
		cpus_only_ &= holds_cpus_only(allocation);
		auto add_usable_cpus = [&](int64_t, int64_t part_end_s, int32_t before) {
			const int64_t after = before - sign * allocation.cpus;
			overcommitted_ |= after < 0;
			const int64_t delta = // 0: an over-committed node stays at none
			    std::max<int64_t>(after, 0) - std::max(before, 0);
			if (delta != run_delta) {
				add_run();
				run_delta = delta;
			}
			run_end_s = part_end_s;
		};
		NodeTimelines::EdgeChanges edges;
		if (usable_[allocation.node]) {
			edges = timelines_.apply(allocation, start_s, end_s, sign, add_usable_cpus);
			add_run();
		} else {
			edges = timelines_.apply(allocation, start_s, end_s, sign);
		}
		slots_[first].node_changes += edges.at_start;
		slots_[last].node_changes += edges.at_end;
	}
	merge_with_previous(last);
	merge_with_previous(first);
}

bool ResourceProfile::apply_in_pool(const NodeAllocation &allocation, size_t first, size_t last,
                                    int sign)
{
	if (!single_cpu_pool() || !holds_cpus_only(allocation) || allocation.cpus < 0)
		return false;
	// Free CPUs never below zero: a booking where some slot has fewer goes the long way (and
	// ends the pool).
	if (sign > 0 && last_slot_short_of(first, last - 1, allocation.cpus) != last_short_none)
		return false;
	add_to_slots(first, last, -sign * static_cast<int64_t>(allocation.cpus), 0);
	// One node: it changes at a slot exactly where the slot's free CPUs differ from the last.
	auto node_changes_at = [&](size_t slot) {
		return static_cast<int32_t>(slot > 0 &&
		                            usable_free_cpus(slot) != usable_free_cpus(slot - 1));
	};
	slots_[first].node_changes = node_changes_at(first);
	if (last < slots_.size())
		slots_[last].node_changes = node_changes_at(last);
	timelines_behind_ = true;
	return true;
}

void ResourceProfile::catch_up_timelines() const
{
	timelines_behind_ = false;
	std::vector<NodeTimelines::Change> changes;
	NodeFree free = capacity_.front(); // memory and GRES as they are: nothing booked them
	for (size_t slot = 0; slot < slots_.size(); ++slot) {
		free.cpus = static_cast<int32_t>(usable_free_cpus(slot));
		if (changes.empty() || changes.back().free.cpus != free.cpus)
			changes.push_back({starts_[slot], free});
	}
	timelines_.assign(0, std::move(changes));
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

// The profile is one function of what is booked (every change merged where nothing differs), so
// the two ends the booking gained and lost give what a release and a booking again give, and a
// shift by less than the booking's length reads only the nodes' changes in those two ends.
void ResourceProfile::move(const std::vector<NodeAllocation> &allocations, int64_t from_s,
                           int64_t to_s, int64_t length_s, bool long_job)
{
	const bool overlap = to_s < from_s && from_s < to_s + length_s;
	if (!overlap || to_s < origin_s() || from_s + length_s >= never_s) {
		release(allocations, from_s, from_s + length_s, long_job);
		book(allocations, to_s, to_s + length_s, long_job);
		return;
	}
	apply(allocations, to_s, from_s, +1, long_job, false);
	apply(allocations, to_s + length_s, from_s + length_s, -1, long_job, false);
	// As the release and the booking again log it.
	booking_log_.new_epoch();
	for (const NodeAllocation &allocation : allocations)
		booking_log_.booked(allocation.node, to_s);
}

// Each node's timeline first (a few changes each), then one slot per end where some node's
// amounts or the long jobs' CPUs change, its sums from the slot before.
void ResourceProfile::book_from_origin(std::vector<Held> held)
{
	booking_log_.new_epoch();
	if (slots_.size() != 1) { // not a fresh profile: book one by one
		for (const Held &job : held)
			book(*job.allocations, origin_s(), job.end_s, job.long_job);
		return;
	}
	if (timelines_behind_) // read below: one slot, so one change
		catch_up_timelines();
	const int64_t origin = origin_s();
	std::erase_if(held, [origin](const Held &job) { return job.end_s <= origin; });
	for (Held &job : held)
		job.end_s = std::min(job.end_s, never_s);
	std::sort(held.begin(), held.end(),
	          [](const Held &a, const Held &b) { return a.end_s < b.end_s; });
	Slot &front = slots_.front();
	for (const Held &job : held)
		for (const NodeAllocation &allocation : *job.allocations) {
			if (job.long_job)
				front.long_cpus += allocation.cpus;
			if (usable_[allocation.node]) // its amount before: capacity, less earlier
			                              // jobs
				front.usable_free_cpus -= std::max(
				    timelines_.changes(allocation.node).front().free.cpus, 0);
			timelines_.apply(allocation, origin, job.end_s, +1);
			cpus_only_ &= holds_cpus_only(allocation);
			if (usable_[allocation.node]) {
				const int32_t left =
				    timelines_.changes(allocation.node).front().free.cpus;
				overcommitted_ |= left < 0;
				front.usable_free_cpus += std::max(left, 0);
			}
		}
	std::vector<NodeIndex> ending;
	for (size_t i = 0; i < held.size();) {
		const int64_t end_s = held[i].end_s;
		Slot next = with_block_add(slots_.size() - 1);
		next.node_changes = 0;
		ending.clear();
		for (; i < held.size() && held[i].end_s == end_s; ++i)
			for (const NodeAllocation &allocation : *held[i].allocations) {
				if (held[i].long_job)
					next.long_cpus -= allocation.cpus;
				ending.push_back(allocation.node);
			}
		std::sort(ending.begin(), ending.end());
		ending.erase(std::unique(ending.begin(), ending.end()), ending.end());
		for (const NodeIndex node : ending) {
			if (!timelines_.changes_at(node, end_s))
				continue;
			++next.node_changes;
			if (!usable_[node])
				continue;
			const std::vector<NodeTimelines::Change> &changes =
			    timelines_.changes(node);
			const size_t index = NodeTimelines::change_at(changes, end_s);
			next.usable_free_cpus += std::max(changes[index].free.cpus, 0) -
			                         std::max(changes[index - 1].free.cpus, 0);
		}
		if (next.node_changes == 0 && next.long_cpus == long_cpus(slots_.size() - 1))
			continue; // nothing changes there: no new slot (as book() would merge it)
		block_adds_.resize(
		    std::max(block_adds_.size(), (slots_.size() + 1) / kSlotsPerBlock + 1));
		starts_.push_back(end_s);
		slots_.push_back(less_block_add(next, slots_.size() / kSlotsPerBlock));
	}
}

void ResourceProfile::advance_to(int64_t now_s)
{
	if (now_s <= origin_s())
		return;
	booking_log_.new_epoch(); // every node's changes move down
	const size_t current = slot_at(now_s);
	flatten_block_adds(); // the slots move by `current`, across blocks
	slots_.erase(slots_.begin(), slots_.begin() + static_cast<std::ptrdiff_t>(current));
	starts_.erase(starts_.begin(), starts_.begin() + static_cast<std::ptrdiff_t>(current));
	slots_.front().node_changes = 0;
	starts_.front() = now_s;
	if (!timelines_behind_) // else made again whole when read
		timelines_.advance_to(now_s);
}

bool ResourceProfile::overcommitted(const std::vector<NodeAllocation> &allocations, int64_t start_s,
                                    int64_t end_s) const
{
	start_s = std::max(start_s, origin_s());
	for (const NodeAllocation &allocation : allocations) {
		const std::vector<NodeTimelines::Change> &changes =
		    timelines().changes(allocation.node);
		for (size_t index = NodeTimelines::change_at(changes, start_s);
		     index < changes.size() && changes[index].start_s < end_s; ++index) {
			const NodeFree &free = changes[index].free;
			if (free.cpus < 0 || free.memory_mb < 0 || !gres_at_least(free.gres, {}))
				return true;
		}
	}
	return false;
}

} // namespace campaign::plan
