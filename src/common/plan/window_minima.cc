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
constexpr ptrdiff_t kRefreshIndexAhead = 16, kRefreshNodeAhead = 8;
} // namespace

WindowMinima::WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                           const ResourceProfile &profile)
    : job_(job), candidates_(candidates), profile_(profile), gres_needed_(needs_gres(job)),
      every_node_(candidates.size() == profile.node_count()), kept_(false),
      asleep_(profile.timelines().by_free_from().begin())
{
}

WindowMinima::WindowMinima(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                           const ResourceProfile &profile, Storage &&storage,
                           const std::vector<bool> *candidate_bits)
    : job_(job), candidates_(candidates), profile_(profile), gres_needed_(needs_gres(job)),
      every_node_(candidates.size() == profile.node_count()), kept_(true),
      taken_in_(std::move(storage.taken_in)), index_of_(std::move(storage.index_of)),
      candidate_bits_(every_node_ ? nullptr : candidate_bits), nodes_(std::move(storage.nodes)),
      asleep_(profile.timelines().by_free_from().begin())
{
	nodes_.clear();
	due_.adopt(std::move(storage.due));
	last_minimum_ends_.adopt(std::move(storage.last_minimum_ends));
	taken_in_.assign((profile.node_count() + 63) / 64, 0);
	index_of_.resize(profile.node_count());
}

WindowMinima::Storage WindowMinima::take_storage() &&
{
	return Storage{std::move(nodes_), std::move(due_).take(),
	               std::move(last_minimum_ends_).take(), std::move(taken_in_),
	               std::move(index_of_)};
}

void WindowMinima::note_asleep()
{
	if (!kept_)
		return;
	asleep_at_end_ = asleep_ == profile_.timelines().by_free_from().end();
	if (!asleep_at_end_)
		asleep_key_ = *asleep_;
}

// A booking only takes load: a node's first free CPUs come no earlier, so the nodes before the
// kept key were all looked at; those booked since are taken in afresh where awake.
void WindowMinima::refresh(const BookingLog::Booked *booked, const BookingLog::Booked *booked_end)
{
	const NodeTimelines::ByFreeFrom &by_free_from = profile_.timelines().by_free_from();
	asleep_ = asleep_at_end_ ? by_free_from.end() : by_free_from.lower_bound(asleep_key_);
	if (start_s_ == never_s)
		return;
	last_slot_end_s_ = profile_.slot_end_s(profile_.slot_at(end_s_ - 1));
	// Each booked node's index, figures and changes are cache misses (hundreds of minima are
	// kept, each with its own figures): asked for ahead, in two steps, so the reads overlap.
	const NodeTimelines &timelines = profile_.timelines();
	for (; booked != booked_end; ++booked) {
		if (booked_end - booked > kRefreshIndexAhead) {
			const NodeIndex ahead = booked[kRefreshIndexAhead].node;
			__builtin_prefetch(&index_of_[static_cast<size_t>(ahead)]);
			__builtin_prefetch(&timelines.changes(ahead));
		}
		if (booked_end - booked > kRefreshNodeAhead &&
		    taken_in(booked[kRefreshNodeAhead].node)) {
			const NodeIndex ahead = booked[kRefreshNodeAhead].node;
			const Node &node = nodes_[index_of_[static_cast<size_t>(ahead)]];
			__builtin_prefetch(&node.node);
			__builtin_prefetch(&node.due_s);
			__builtin_prefetch(timelines.changes(ahead).data());
		}
		if (!taken_in(booked->node))
			continue;
		const uint32_t index = index_of_[static_cast<size_t>(booked->node)];
		Node &node = nodes_[static_cast<size_t>(index)];
		// Booked after its first change past the window: the changes up to that one (all
		// that the node's least and due times read) are as they were.
		if (booked->start_s > node.next_change_s)
			continue;
		const Node before = node;
		forget(node);
		node.at_start = holder_of_start(node);
		node.available = std::numeric_limits<int32_t>::max();
		scan(node, node.at_start);
		remember(static_cast<size_t>(index), &before);
	}
}

// A node's least changes only when the window passes its least's last slot (then afresh from
// the window's start), or gains a change (then only the new part can lower it): both times are
// in due_, so the nodes in between are not looked at.
void WindowMinima::slide_to(int64_t start_s)
{
	const bool first = start_s_ == never_s;
	start_s_ = start_s;
	end_s_ = start_s + job_.limit_s;
	last_slot_end_s_ = profile_.slot_end_s(profile_.slot_at(end_s_ - 1));
	while (!due_.empty() && due_.top().first <= start_s) {
		const auto [due_s, index] = due_.top();
		// The node's figures asked for before the heap's reordering, which then hides the
		// miss.
		__builtin_prefetch(&nodes_[index].node);
		__builtin_prefetch(&nodes_[index].due_s);
		due_.pop();
		Node &node = nodes_[index];
		if (node.due_s != due_s)
			continue; // a time since replaced
		forget(node);
		// A least at the window's end lasts until its change leaves the window.
		const int64_t least_until_s =
		    node.at_window_end ? node.next_change_s : node.last_minimum_end;
		if (least_until_s <= start_s)
			rescan(node);
		else if (node.next_change_s < end_s_)
			scan(node, node.after_window - 1); // that change holds the least's end
		remember(index);
	}
	if (first)
		wake_first(start_s);
	else
		wake_until(start_s);
}

void WindowMinima::wake_first(int64_t free_until_s)
{
	const NodeTimelines &timelines = profile_.timelines();
	// The candidates free by then, in candidate order, without a branch per candidate: at
	// 10,000 nodes a search wakes one candidate in ten, and a test and a prefetch per
	// candidate were a mispredicted branch and a wasted read nine times in ten (the loop was
	// 13 % of per_campaign there).
	std::vector<NodeIndex> awake(candidates_.size());
	size_t count = 0;
	for (const NodeIndex node : candidates_) {
		awake[count] = node;
		count += timelines.free_from(node) <= free_until_s;
	}
	nodes_.reserve(count); // no copies as it grows (4 % at 10,000 nodes)
	due_.begin_bulk();
	last_minimum_ends_.begin_bulk();
	for (size_t i = 0; i < count; ++i) {
		// Each node's changes are their own allocation: ask for those of the node a few
		// ahead, so the reads overlap.
		if (i + kPrefetchAhead < count)
			__builtin_prefetch(timelines.changes(awake[i + kPrefetchAhead]).data());
		wake(awake[i]);
	}
	due_.end_bulk();
	last_minimum_ends_.end_bulk();
	// Ties at free_until_s + 1 and later are after it: the index's order is (time, node).
	asleep_ = timelines.by_free_from().lower_bound({free_until_s + 1, 0});
	note_asleep();
}

bool WindowMinima::is_candidate(NodeIndex node) const
{
	return every_node_ || std::binary_search(candidates_.begin(), candidates_.end(), node);
}

void WindowMinima::wake_until(int64_t free_until_s)
{
	const NodeTimelines::ByFreeFrom &by_free_from = profile_.timelines().by_free_from();
	for (; asleep_ != by_free_from.end(); ++asleep_) {
		const auto [free_from_s, node] = *asleep_;
		if (free_from_s > free_until_s)
			break;
		// As in wake_first: the changes of a node a few ahead asked for now (a guess: it
		// may not be woken).
		if (const NodeIndex ahead = asleep_.sorted_node_ahead(kPrefetchAhead);
		    ahead >= 0 && to_wake(ahead))
			__builtin_prefetch(profile_.timelines().changes(ahead).data());
		if (to_wake(node))
			wake(node);
	}
	note_asleep();
}

void WindowMinima::wake(NodeIndex node)
{
	// Filled in place: a copy from the stack read back scan's narrow stores as wide loads
	// (a stalled store forwarding at every wake, half of wake's time at 10,000 nodes).
	Node &woken = nodes_.emplace_back();
	woken.node = node;
	const NodeFree &capacity = profile_.capacity(node);
	woken.full = usable_cpus_on(job_, gres_needed_, capacity, capacity);
	woken.at_start = static_cast<uint32_t>(
	    NodeTimelines::change_at(profile_.timelines().changes(node), start_s_));
	woken.available = std::numeric_limits<int32_t>::max();
	scan(woken, woken.at_start);
	if (kept_) {
		taken_in_[static_cast<size_t>(node) / 64] |= uint64_t{1} << (node % 64);
		index_of_[static_cast<size_t>(node)] = static_cast<uint32_t>(nodes_.size() - 1);
	}
	remember(nodes_.size() - 1);
}

void WindowMinima::scan(Node &node, size_t from)
{
	const std::vector<NodeTimelines::Change> &changes = profile_.timelines().changes(node.node);
	const NodeFree &capacity = profile_.capacity(node.node);
	size_t k = from;
	int32_t cpus = 0;
	for (; k < changes.size() && changes[k].start_s < end_s_; ++k) {
		cpus = usable_cpus_on(job_, gres_needed_, changes[k].free, capacity);
		if (cpus <= node.available) {
			node.available = cpus;
			// The change's last slot inside the window: where it ends, or the slot that
			// holds the window's last second.
			const int64_t change_end_s =
			    k + 1 < changes.size() ? changes[k + 1].start_s : never_s;
			node.last_minimum_end = std::min(change_end_s, last_slot_end_s_);
		}
	}
	node.after_window = static_cast<uint32_t>(k);
	node.next_change_s = k < changes.size() ? changes[k].start_s : never_s;
	// The loop ran at least once (`from` is in the window): cpus is the window's last change's.
	node.at_window_end = cpus <= node.available;
}

// The change holding the window's start, walking on from the one that held an earlier start
// (any change starting by then leads to it): a booking since splits and merges changes from its
// own start on only, so the walk is short; searched afresh if that change now starts later.
uint32_t WindowMinima::holder_of_start(const Node &node) const
{
	const std::vector<NodeTimelines::Change> &changes = profile_.timelines().changes(node.node);
	size_t at = node.at_start;
	if (at >= changes.size() || changes[at].start_s > start_s_)
		return static_cast<uint32_t>(NodeTimelines::change_at(changes, start_s_));
	while (at + 1 < changes.size() && changes[at + 1].start_s <= start_s_)
		++at;
	return static_cast<uint32_t>(at);
}

// The node's least slot left the window: its least afresh, walking on from the change that held
// the last window's start.
void WindowMinima::rescan(Node &node)
{
	const std::vector<NodeTimelines::Change> &changes = profile_.timelines().changes(node.node);
	uint32_t &first = node.at_start;
	while (first + 1 < changes.size() && changes[first + 1].start_s <= start_s_)
		++first;
	node.available = std::numeric_limits<int32_t>::max();
	scan(node, first);
}

void WindowMinima::forget(const Node &node)
{
	available_sum_ -= node.available;
	if (node.available < node.full && node.at_window_end)
		--below_full_at_window_end_;
	// Its entry in last_minimum_ends_ goes stale: next_start_s checks each against the node.
}

void WindowMinima::remember(size_t index, const Node *before)
{
	Node &node = nodes_[index];
	available_sum_ += node.available;
	auto in_last_minimum_ends = [](const Node &of) {
		return of.available < of.full && !of.at_window_end;
	};
	if (node.available < node.full) {
		if (node.at_window_end)
			++below_full_at_window_end_;
		else if (!before || !in_last_minimum_ends(*before) ||
		         before->last_minimum_end != node.last_minimum_end)
			last_minimum_ends_.push({node.last_minimum_end, index});
	}
	node.due_s = due_of(node);
	if (node.due_s != never_s && (!before || before->due_s != node.due_s))
		due_.push({node.due_s, index});
}

// After a look at the window's changes: the least's last slot ends after the window's start,
// and the next change starts at or after its end.
int64_t WindowMinima::due_of(const Node &node) const
{
	int64_t due_s = never_s;
	if (node.next_change_s != never_s)
		due_s = node.next_change_s - job_.limit_s + 1; // enters the window from there on
	if (!node.at_window_end)
		due_s = std::min(due_s, node.last_minimum_end);
	return due_s;
}

void WindowMinima::positive(std::vector<NodeIndex> &nodes, std::vector<int32_t> &available) const
{
	std::vector<size_t> order;
	for (size_t index = 0; index < nodes_.size(); ++index)
		if (nodes_[index].available > 0)
			order.push_back(index);
	std::sort(order.begin(), order.end(),
	          [this](size_t a, size_t b) { return nodes_[a].node < nodes_[b].node; });
	nodes.clear();
	available.clear();
	for (const size_t index : order) {
		nodes.push_back(nodes_[index].node);
		available.push_back(nodes_[index].available);
	}
}

int64_t WindowMinima::next_start_s()
{
	int64_t next_s = never_s;
	while (!last_minimum_ends_.empty()) {
		const auto [end_s, index] = last_minimum_ends_.top();
		const Node &node = nodes_[index];
		if (!node.at_window_end && node.available < node.full &&
		    node.last_minimum_end == end_s) {
			next_s = end_s;
			break;
		}
		last_minimum_ends_.pop(); // stale
	}
	if (below_full_at_window_end_ > 0)
		next_s = std::min(next_s, last_slot_end_s_);
	// A node still asleep offers nothing until it wakes: its least's last slot ends at its
	// waking at the earliest, and is the window's last if it sleeps through the window. Only
	// those that could end before next_s are looked at.
	const NodeTimelines::ByFreeFrom &by_free_from = profile_.timelines().by_free_from();
	for (; asleep_ != by_free_from.end(); ++asleep_) {
		const auto [free_from_s, node] = *asleep_;
		if (std::min(free_from_s, last_slot_end_s_) >= next_s)
			break;
		if (!to_wake(node))
			continue;
		if (free_from_s < end_s_) {
			wake(node);
			const Node &woken = nodes_.back();
			if (woken.available < woken.full)
				next_s =
				    std::min(next_s, woken.at_window_end ? last_slot_end_s_
				                                         : woken.last_minimum_end);
			continue;
		}
		const NodeFree &capacity = profile_.capacity(node);
		if (usable_cpus_on(job_, gres_needed_, capacity, capacity) > 0) {
			next_s = std::min(next_s, last_slot_end_s_);
			break;
		}
		// No use to this job even empty: never anything to offer.
	}
	note_asleep();
	return next_s;
}

} // namespace campaign::plan
