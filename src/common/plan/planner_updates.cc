// Planner, incremental part: event entry points and compression (kept starts only move earlier,
// as in Klusacek's UpdateSchedule). Never re-plans a job that need not move; rebuild: planner.cc.
#include "plan/planner.h"

#include "plan/held_cpus_bound.h"

#include <algorithm>
#include <string>

namespace campaign::plan
{

namespace
{

constexpr size_t max_freed_regions = 256;
// A job searched on this few nodes (in place) reads the regions by node (FreedNodeIndex).
constexpr size_t max_indexed_candidates = 8;

std::vector<NodeIndex> nodes_of(const std::vector<NodeAllocation> &allocations)
{
	std::vector<NodeIndex> nodes;
	for (const NodeAllocation &allocation : allocations)
		nodes.push_back(allocation.node);
	return nodes;
}

bool touches(const std::vector<NodeIndex> &sorted_candidates, const std::vector<NodeIndex> &nodes)
{
	for (NodeIndex node : nodes)
		if (std::binary_search(sorted_candidates.begin(), sorted_candidates.end(), node))
			return true;
	return false;
}

} // namespace

// The union of the ranges, from not_before_s on, in time order, in place: called for every
// reservation a compression looks at, a vector made per call was a tenth of it (LPC-EGEE).
void Planner::merge_ranges(std::vector<TimeRange> &ranges, int64_t not_before_s)
{
	const auto earlier = [](const TimeRange &a, const TimeRange &b) {
		return a.from_s < b.from_s;
	};
	if (!std::is_sorted(ranges.begin(), ranges.end(), earlier)) // often one range, or in order
		std::sort(ranges.begin(), ranges.end(), earlier);
	size_t kept = 0; // ranges[0, kept) is the union so far
	for (TimeRange range : ranges) {
		range.from_s = std::max(range.from_s, not_before_s);
		if (range.from_s > range.until_s)
			continue;
		if (kept > 0 && range.from_s <= ranges[kept - 1].until_s + 1)
			ranges[kept - 1].until_s =
			    std::max(ranges[kept - 1].until_s, range.until_s);
		else
			ranges[kept++] = range;
	}
	ranges.resize(kept);
}

// A start t can have become feasible only if the window [t, t + limit) meets resources given
// back on one of the job's nodes: everywhere else the profile only filled up since the job was
// last searched.
void Planner::freed_ranges(const Entry &entry, const std::vector<FreedRegion> &freed,
                           int64_t until_s, std::vector<TimeRange> &ranges) const
{
	freed_ranges(*entry.candidates, entry.job.limit_s, freed, until_s, ranges);
	for (const auto &other : entry.other_candidates) // the job's other partitions' nodes
		freed_ranges(*other, entry.job.limit_s, freed, until_s, ranges);
}

void Planner::freed_ranges(const std::vector<NodeIndex> &candidates, int64_t limit_s,
                           const std::vector<FreedRegion> &freed, int64_t until_s,
                           std::vector<TimeRange> &ranges) const
{
	if (freed.size() > max_freed_regions) {
		if (now_s_ <= until_s)
			ranges.push_back({now_s_, until_s});
		return;
	}
	// The starts whose window [t, t + limit_s) meets [start_s, end_s).
	const auto add_range = [&](int64_t start_s, int64_t end_s) {
		const int64_t from_s = std::max(now_s_, start_s - limit_s + 1);
		const int64_t to_s = std::min(end_s - 1, until_s);
		if (end_s > start_s && from_s <= to_s)
			ranges.push_back({from_s, to_s});
	};
	// A window meets a region on a node exactly when it meets the node's union of them (a
	// window of a second at least). A span on several of the nodes comes more than once: the
	// callers take the union.
	if (&freed == indexed_freed_ && candidates.size() <= max_indexed_candidates &&
	    limit_s > 0) {
		while (freed_index_.seen() < freed.size()) {
			const FreedRegion &region = freed[freed_index_.seen()];
			freed_index_.add(region.nodes, region.start_s, region.end_s);
		}
		for (const NodeIndex node : candidates)
			for (const FreedNodeIndex::Span &span : freed_index_.given_back_on(node))
				add_range(span.start_s, span.end_s);
		return;
	}
	for (const FreedRegion &region : freed)
		if (touches(candidates, region.nodes))
			add_range(region.start_s, region.end_s);
}

bool Planner::any_freed_range(const Entry &entry, const std::vector<FreedRegion> &freed,
                              int64_t until_s)
{
	const ScratchRanges scratch(*this);
	freed_ranges(entry, freed, until_s, scratch.ranges);
	return !scratch.ranges.empty();
}

std::optional<Placement> Planner::search_ranges(const Entry &entry, std::vector<TimeRange> &ranges,
                                                int64_t not_before_s) const
{
	merge_ranges(ranges, std::max(now_s_, not_before_s));
	for (const TimeRange &range : ranges)
		if (auto found =
		        earliest_in_sets(entry, range.from_s, range.until_s, entry.long_cpus_limit))
			return found;
	return std::nullopt;
}

void Planner::move_earlier(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo,
                           bool anywhere)
{
	const int64_t old_start_s = entry.placement.start_s;
	const bool own_search = waits_for_others(entry);
	const int64_t own_bound_s = own_search ? this->not_before_s(entry) : now_s_;
	// A job of a window is searched with the window open: the memo's bounds are not its own.
	const bool memo_holds = anywhere && entry.window < 0;
	const int64_t not_before_s =
	    std::max(own_bound_s, memo_holds ? memo.lower_bound(entry.job, *entry.candidates,
	                                                        entry.long_cpus_limit)
	                                     : now_s_);
	if (old_start_s <= now_s_ || not_before_s >= old_start_s)
		return;
	// In place, only the job's own nodes matter.
	const ScratchRanges scratch(*this);
	std::vector<TimeRange> &ranges = scratch.ranges;
	if (anywhere) {
		freed_ranges(entry, freed, old_start_s - 1, ranges);
	} else {
		std::vector<NodeIndex> &own = scratch_nodes_;
		own.clear();
		for (const NodeAllocation &allocation : entry.placement.allocations)
			own.push_back(allocation.node);
		std::sort(own.begin(), own.end());
		freed_ranges(own, entry.job.limit_s, freed, old_start_s - 1, ranges);
	}
	if (ranges.empty())
		return;
	const OwnWindowOpen own_window(*this, entry);
	if (!anywhere && !entry.booked_whole) {
		// Searched around its own booking: given back and booked again only if it moves
		// (the same start as the search below, at a fraction of the cost on a deep queue).
		std::optional<Placement> found =
		    search_in_place_holding(entry, ranges, not_before_s);
		if (!found || found->start_s >= old_start_s)
			return;
		memo.clear(); // the old place is given back: bounds found so far no longer hold
		freed.push_back(move_booking(entry, std::move(*found)));
		return;
	}
	Placement old_placement = entry.placement;
	FreedRegion old_region = unplace(entry);
	std::optional<Placement> found;
	if (anywhere)
		found = search_ranges(entry, ranges, not_before_s);
	else
		found = search_in_place(entry, old_placement, ranges, not_before_s);
	if (found && found->start_s < old_start_s) {
		memo.clear(); // the old place is given back: bounds found so far no longer hold
		if (anywhere && !own_search)
			memo.record(entry.job, *entry.candidates, entry.long_cpus_limit,
			            found->start_s);
		book(entry, std::move(*found));
		freed.push_back(std::move(old_region));
		return;
	}
	if (anywhere && !own_search)
		memo.record(entry.job, *entry.candidates, entry.long_cpus_limit, old_start_s);
	book(entry, std::move(old_placement));
}

// unplace and book, the same allocations at an earlier start: where the two overlap, only what
// the booking gained and lost is booked and given back (ResourceProfile::move; most moves of a
// compression shift a job by less than its length).
Planner::FreedRegion Planner::move_booking(Entry &entry, Placement placement)
{
	const bool whole_after = config_.whole_node_reservations && placement.start_s > now_s_;
	if (entry.booked_whole || whole_after ||
	    placement.allocations != entry.placement.allocations) {
		FreedRegion old_region = unplace(entry);
		book(entry, std::move(placement));
		return old_region;
	}
	const int64_t old_start_s = entry.placement.start_s;
	const int64_t end_s = old_start_s + entry.job.limit_s;
	profile_.move(entry.placement.allocations, old_start_s, placement.start_s,
	              entry.job.limit_s, entry.books_long);
	++booked_;
	FreedRegion old_region{nodes_of(entry.placement.allocations), old_start_s, end_s};
	entry.placement = std::move(placement);
	return old_region;
}

void Planner::start_now_anywhere(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo)
{
	// Only a start now, and only where CPUs were given back at now on the job's candidate
	// nodes and the machine has the CPUs for its whole limit: a cheap test first, so a deep
	// queue pays one search only for the jobs that may start.
	const int64_t old_start_s = entry.placement.start_s;
	if (old_start_s <= now_s_ || entry.booked_whole || this->not_before_s(entry) > now_s_ ||
	    (entry.window < 0 &&
	     memo.lower_bound(entry.job, *entry.candidates, entry.long_cpus_limit) > now_s_) ||
	    !profile_.has_free_cpus(now_s_, now_s_ + entry.job.limit_s, entry.job.cpus) ||
	    !any_freed_range(entry, freed, now_s_) || !may_start_now_giving_back(entry))
		return;
	start_now_giving_back(entry, freed, memo, [&] {
		return earliest_in_sets(entry, now_s_, now_s_, entry.long_cpus_limit);
	});
}

void Planner::start_now_shortened_kept(Entry &entry, std::vector<FreedRegion> &freed,
                                       SearchMemo &memo)
{
	// Its booking holds nothing before its start: short of the CPUs there, giving it back
	// could not start it for its time-min.
	if (entry.job.limit_min_s <= 0 || entry.placement.start_s <= now_s_ || entry.frozen ||
	    entry.booked_whole || this->not_before_s(entry) > now_s_ ||
	    !profile_.has_free_cpus(
	        now_s_, std::min(entry.placement.start_s, now_s_ + entry.job.limit_min_s),
	        entry.job.cpus))
		return;
	start_now_giving_back(entry, freed, memo, [&] { return start_now_shortened(entry); });
}

template <typename Search>
void Planner::start_now_giving_back(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo,
                                    Search &&search)
{
	const OwnWindowOpen own_window(*this, entry);
	Placement old_placement = entry.placement;
	const int64_t old_limit_s = entry.job.limit_s; // the length it is booked for
	FreedRegion old_region = unplace(entry);
	std::optional<Placement> found = search();
	if (!found) {
		entry.job.limit_s = old_limit_s; // a shortening search leaves its own
		book(entry, std::move(old_placement));
		return;
	}
	memo.clear(); // the old place is given back: bounds found so far no longer hold
	book(entry, std::move(*found));
	freed.push_back(std::move(old_region));
}

// Most reservations that pass start_now_anywhere's first tests still cannot start now (the
// machine's free CPUs over the window are on different nodes at different times): a test per
// node, on the profile as it stands, spares them the giving back and booking again. A job of a
// window searches with the window open: not read here.
// What giving the entry's booking back would take off the long jobs' CPUs.
int64_t Planner::held_long_cpus(const Entry &entry)
{
	return entry.books_long ? cpus_of(entry.placement.allocations) : 0;
}

bool Planner::may_start_now_giving_back(const Entry &entry) const
{
	if (entry.window >= 0 || entry.job.limit_s <= 0)
		return true;
	const int64_t end_s = now_s_ + entry.job.limit_s;
	const int64_t held_start_s = entry.placement.start_s;
	const int64_t held_end_s = held_start_s + entry.job.limit_s;
	const auto could_fit = [&](const std::vector<NodeIndex> &candidates) {
		return could_fit_giving_back(profile_, candidates, entry.job.cpus, now_s_, end_s,
		                             entry.placement.allocations, held_start_s, held_end_s);
	};
	bool fits = could_fit(*entry.candidates);
	for (size_t set = 0; !fits && set < entry.other_candidates.size(); ++set)
		fits = could_fit(*entry.other_candidates[set]);
	if (!fits || entry.long_cpus_limit < 0)
		return fits;
	// Long jobs' CPUs: most long reservations that still fit on CPUs are held by the room.
	return long_cpus_could_allow(profile_, entry.job.cpus, entry.long_cpus_limit, now_s_, end_s,
	                             held_long_cpus(entry), held_start_s, held_end_s);
}

std::optional<Placement> Planner::search_in_place_holding(const Entry &entry,
                                                          std::vector<TimeRange> &ranges,
                                                          int64_t not_before_s) const
{
	const GapSearch gap_search(profile_);
	const int64_t held_start_s = entry.placement.start_s;
	const int64_t held_end_s = held_start_s + entry.job.limit_s;
	merge_ranges(ranges, std::max(now_s_, not_before_s));
	for (const TimeRange &range : ranges)
		if (auto found = gap_search.earliest_in_place_holding(
		        entry.job, entry.placement.allocations, held_start_s, held_end_s,
		        range.from_s, range.until_s, entry.long_cpus_limit,
		        held_long_cpus(entry))) {
			found->node_set =
			    entry.placement.node_set; // the same nodes, so the same set
			return found;
		}
	return std::nullopt;
}

std::optional<Placement> Planner::search_in_place(const Entry &entry, const Placement &placement,
                                                  std::vector<TimeRange> &ranges,
                                                  int64_t not_before_s) const
{
	const GapSearch gap_search(profile_);
	merge_ranges(ranges, std::max(now_s_, not_before_s));
	for (const TimeRange &range : ranges)
		if (auto found =
		        gap_search.earliest_in_place(entry.job, placement.allocations, range.from_s,
		                                     range.until_s, entry.long_cpus_limit)) {
			found->node_set = placement.node_set; // the same nodes, so the same set
			return found;
		}
	return std::nullopt;
}
// A job without a placement gets one if it may now: searched again only where it could newly fit.
void Planner::place_again(Entry &entry, const std::vector<FreedRegion> &freed, SearchMemo &memo)
{
	// A --time-min job: place() also tries it now with a shorter limit, as a fresh plan does.
	const bool was_refused = entry.status == JobStatus::refused;
	if (held_by_refusal(entry) || !entry.fits_empty_machine || was_refused ||
	    entry.job.limit_min_s > 0) {
		place(entry, &memo);
		return;
	}
	const int64_t own_bound_s = this->not_before_s(entry);
	if (own_bound_s == never_s) {
		entry.status = JobStatus::blocked;
		entry.searched_from_s = never_s;
		return;
	}
	const bool own_search = waits_for_others(entry);
	const bool may_reserve = policy_.may_reserve(entry.job);
	const int64_t until_s = may_reserve ? now_s_ + config_.horizon_s : now_s_;
	// Only a start now could place it, and the machine has not its CPUs free for its limit:
	// nothing to search, as search() finds for place(), and no memo look-up (a scan of up to
	// 128 shapes; beyond the reservations of a deep queue, most entries end here).
	const bool no_start_now =
	    !may_reserve && entry.window < 0 &&
	    (own_bound_s > now_s_ || !could_start_now(entry.job.cpus, entry.limit_s));
	const int64_t not_before_s =
	    no_start_now ? until_s + 1
	    : entry.window >= 0
	        ? own_bound_s // its window open: the memo's bounds are not its own
	        : std::max(own_bound_s,
	                   memo.lower_bound(entry.job, *entry.candidates, entry.long_cpus_limit));
	const OwnWindowOpen own_window(*this, entry);
	entry.job.limit_s = limit_now_s(entry); // a started window has less left each update
	std::optional<Placement> placement;
	if (not_before_s <= until_s) {
		const ScratchRanges scratch(*this);
		std::vector<TimeRange> &ranges = scratch.ranges;
		freed_ranges(entry, freed, until_s, ranges);
		const bool covered =
		    entry.searched_from_s <= now_s_ && entry.searched_until_s >= now_s_;
		const int64_t new_from_s = covered ? entry.searched_until_s + 1 : now_s_;
		if (new_from_s <= until_s)
			ranges.push_back({new_from_s, until_s});
		placement = search_ranges(entry, ranges, not_before_s);
		if (!own_search)
			memo.record(entry.job, *entry.candidates, entry.long_cpus_limit,
			            placement ? placement->start_s : until_s + 1);
	}
	if (placement) {
		book(entry, std::move(*placement));
		settle_status(entry);
		return;
	}
	entry.status = may_reserve ? JobStatus::beyond_horizon : JobStatus::waiting;
	if (may_reserve)
		policy_.record_reservation(entry.job);
	entry.searched_from_s = own_search ? never_s : now_s_;
	entry.searched_until_s = until_s;
}
// Two passes in rank order. First the kept starts (commitments) move earlier where resources
// were given back; each old place stays valid (every move was checked against it), so no planned
// start moves later. Then, with the reservation count redone, jobs without a place get one
// where they now fit; that pass only adds load, so one search memo serves all of it.
void Planner::compress(std::vector<FreedRegion> freed)
{
	SearchMemo move_memo; // cleared whenever a job moves
	int32_t searched_anywhere = 0;
	freed_index_.clear();
	indexed_freed_ = &freed;
	const size_t placed_end = this->placed_end();
	for (size_t index = 0; index < placed_end; ++index) {
		queue_.prefetch(index + kWalkPrefetchAhead);
		Entry &entry = queue_[index];
		if (!entry.placed())
			continue;
		// A start that did not happen, or one before the end of a job it waits for (that
		// job lost its place or starts later than planned): placed again below.
		if (entry.placement.start_s < now_s_ ||
		    (!entry.job.after.empty() && entry.placement.start_s < not_before_s(entry))) {
			freed.push_back(unplace(entry));
			move_memo.clear();
			entry.status = JobStatus::waiting;
			entry.searched_from_s = never_s; // searched nowhere yet
			continue;
		}
		if (entry.status != JobStatus::reserved)
			continue;
		const bool anywhere = searched_anywhere++ < config_.compress_search_depth;
		move_earlier(entry, freed, move_memo, anywhere);
		if (!anywhere)
			start_now_anywhere(entry, freed, move_memo);
		start_now_shortened_kept(entry, freed, move_memo);
	}
	policy_.reset();
	SearchMemo memo;
	const WaitingTail known = waiting_tail_;
	WaitingTail found{.first = 0};
	size_t looked_at_booked = static_cast<size_t>(-1); // the bookings at the last look
	TailRoom tail_room;
	for (size_t index = 0; index < queue_.size(); ++index) {
		// In the tail, with no reservation left to give: stop where none of it could start
		// now (looked at again only after a booking: nothing else takes CPUs here), else
		// pass over the entries that could not.
		if (known.known() && index >= known.first && policy_.exhausted()) {
			if (looked_at_booked != booked_) {
				looked_at_booked = booked_;
				if (!could_start_now(known.min_cpus, known.min_limit_s)) {
					found.join(known);
					break;
				}
			}
			index = skip_unstartable_tail(index, found, tail_room);
			if (index == queue_.size())
				break;
		}
		queue_.prefetch(index + kWalkPrefetchAhead);
		Entry &entry = queue_[index];
		if (entry.placed())
			settle_status(entry);
		else
			place_again(entry, freed, memo);
		found.visit(index, entry, waits_for_cpus_only(entry));
	}
	waiting_tail_ = found;
	indexed_freed_ = nullptr;
}

size_t Planner::skip_unstartable_tail(size_t index, WaitingTail &found, TailRoom &room) const
{
	// could_start_now(cpus, limit) holds while now + limit is at most the first time the
	// machine has fewer than `cpus` usable CPUs free (ResourceProfile::first_short_of): found
	// once per CPU count until something is booked (a pass-over books nothing).
	if (room.booked != booked_) {
		room.booked = booked_;
		room.by_cpus.clear();
	}
	auto room_for = [&](int32_t cpus) {
		for (const auto &[kept_cpus, kept_room_s] : room.by_cpus)
			if (kept_cpus == cpus)
				return kept_room_s;
		const int64_t short_at_s = profile_.first_short_of(now_s_, cpus);
		const int64_t room_s = short_at_s == never_s ? never_s : short_at_s - now_s_;
		if (room.by_cpus.size() < TailRoom::kKept)
			room.by_cpus.emplace_back(cpus, room_s);
		return room_s;
	};
	int32_t last_cpus = -1;
	int64_t room_s = 0; // the longest limit that could start now with last_cpus CPUs
	for (; index < queue_.size(); ++index) {
		const QueuedShape &shape = queue_.shape(index);
		if (shape.cpus != last_cpus) {
			last_cpus = shape.cpus;
			room_s = room_for(shape.cpus);
		}
		if (room_s == never_s || shape.limit_s <= room_s)
			return index;
		found.min_cpus = std::min(found.min_cpus, shape.cpus);
		found.min_limit_s = std::min(found.min_limit_s, shape.limit_s);
	}
	return index;
}
Status Planner::catch_up(int64_t now_s, const char *event)
{
	const int64_t before_s = now_s_;
	if (Status moved = advance(now_s, event); !moved)
		return moved;
	if (now_s_ > before_s)
		compress({});
	return ok_status();
}

Result<Planner::Entry> Planner::submitted_entry(const PendingJob &job)
{
	if (pending_ids_.contains(job.id) || running_.contains(job.id))
		return Error{"job_submitted: job " + std::to_string(job.id) + " is already known"};
	auto entry = make_entry(job);
	if (!entry)
		return Error{"job_submitted: " + entry.error()};
	return entry;
}

Status Planner::job_submitted(const PendingJob &job, int64_t now_s, JobId before_id)
{
	if (before_id != 0)
		return jobs_inserted({{&job, before_id}}, now_s);
	if (Status moved = catch_up(now_s, "job_submitted"); !moved)
		return moved;
	auto entry = submitted_entry(job);
	if (!entry)
		return Error{entry.error()};
	// Ranked last: the policy already counts everyone else.
	const size_t position = queue_.size();
	pending_ids_.insert(job.id);
	queue_.push_back(std::move(entry).value());
	SearchMemo memo;
	place(queue_.back(), &memo);
	if (waiting_tail_.known())
		waiting_tail_.visit(position, queue_.back(), waits_for_cpus_only(queue_.back()));
	return ok_status();
}

Status Planner::jobs_inserted(const std::vector<Insert> &inserts, int64_t now_s)
{
	if (inserts.empty())
		return ok_status();
	if (Status moved = catch_up(now_s, "job_submitted"); !moved)
		return moved;
	// The freeze notes slipped reservations at each walk: with it, a walk per insert, as
	// one by one.
	const bool walk_each = config_.freeze_slip_s > 0;
	size_t first = queue_.size(); // the highest inserted and not yet walked from
	Status status = ok_status();
	for (const Insert &insert : inserts) {
		const PendingJob &job = *insert.job;
		auto entry = submitted_entry(job);
		if (!entry) {
			status = Error{entry.error()};
			break;
		}
		const size_t position = pending_index(insert.before_id);
		if (insert.before_id == 0 || position == queue_.size()) {
			status = Error{"job_submitted: rank anchor job " +
			               std::to_string(insert.before_id) + " is not pending"};
			break;
		}
		pending_ids_.insert(job.id);
		queue_.insert(queue_.begin() + static_cast<std::ptrdiff_t>(position),
		              std::move(entry).value());
		tail_inserted(position);
		if (walk_each)
			plan_from(position);
		else // one below the highest leaves it in place
			first = std::min(first, position);
	}
	if (!walk_each && first < queue_.size()) // those before a refusal: planned, as one by one
		plan_from(first);
	return status;
}

Status Planner::job_started(const RunningJob &job, int64_t now_s)
{
	if (Status moved = catch_up(now_s, "job_started"); !moved)
		return moved;
	if (Status valid = check_running(job); !valid)
		return Error{"job_started: " + valid.error()};
	if (running_.contains(job.id))
		return Error{"job_started: job " + std::to_string(job.id) + " is already running"};
	RunningJob kept = job;
	kept.expected_end_s = std::max(job.expected_end_s, now_s_ + 1);
	kept.booked_long = holds_long(kept.expected_end_s - now_s_); // as a planned long job
	std::vector<FreedRegion> freed;
	const size_t index = pending_index(job.id);
	forget_freeze(job.id);
	if (index < queue_.size()) {
		Entry &entry = queue_[index];
		const bool as_planned = entry.placed() && entry.placement.start_s == now_s_ &&
		                        entry.placement.allocations == kept.allocations &&
		                        kept.expected_end_s == now_s_ + entry.job.limit_s;
		if (as_planned) {
			queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
			tail_erased(index);
			pending_ids_.erase(kept.id);
			running_.insert(std::move(kept));
			return ok_status();
		}
		freed.push_back(unplace(entry));
		queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
		tail_erased(index);
		pending_ids_.erase(kept.id);
	}
	profile_.book(kept.allocations, now_s_, kept.expected_end_s, kept.booked_long);
	const bool conflicts =
	    profile_.overcommitted(kept.allocations, now_s_, kept.expected_end_s);
	running_.insert(std::move(kept));
	if (conflicts)
		plan_from(0); // it took what the plan had given to others: plan them again
	else
		compress(std::move(freed));
	return ok_status();
}

Status Planner::job_ended(JobId id, int64_t now_s)
{
	return jobs_gone({id}, {}, now_s);
}

Status Planner::job_cancelled(JobId id, int64_t now_s)
{
	return jobs_gone({}, {id}, now_s);
}

Status Planner::jobs_gone(const std::vector<JobId> &ended, const std::vector<JobId> &cancelled,
                          int64_t now_s)
{
	if (Status moved = advance(now_s, "jobs_gone"); !moved)
		return moved;
	std::vector<FreedRegion> freed;
	// Gives back what is left of a running job's booking; false if it is not running.
	const auto end_running = [&](JobId id) {
		const RunningJob *job = running_.find(id);
		if (!job)
			return false;
		if (job->expected_end_s > now_s_) {
			profile_.release(job->allocations, now_s_, job->expected_end_s,
			                 job->booked_long);
			freed.push_back({nodes_of(job->allocations), now_s_, job->expected_end_s});
		}
		running_.erase(id);
		return true;
	};
	Status status = ok_status();
	for (JobId id : ended)
		if (!end_running(id)) {
			status = Error{"job_ended: job " + std::to_string(id) + " is not running"};
			break;
		}
	for (size_t k = 0; status && k < cancelled.size(); ++k) {
		const JobId id = cancelled[k];
		if (end_running(id))
			continue;
		const size_t index = pending_index(id);
		if (index == queue_.size()) {
			status =
			    Error{"job_cancelled: job " + std::to_string(id) + " is not known"};
			break;
		}
		freed.push_back(unplace(queue_[index]));
		queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
		tail_erased(index);
		pending_ids_.erase(id);
		refused_until_s_.erase(id);
		forget_freeze(id);
	}
	// What was given back before an unknown job is compressed still: no start moves later.
	if (!freed.empty() || status)
		compress(std::move(freed));
	return status;
}

Status Planner::refused(JobId id, int64_t now_s)
{
	if (Status moved = advance(now_s, "refused"); !moved)
		return moved;
	Entry *entry = find_pending(id);
	if (!entry)
		return Error{"refused: job " + std::to_string(id) + " is not pending"};
	std::vector<FreedRegion> freed{unplace(*entry)};
	refused_until_s_[id] = now_s_ + std::max<int64_t>(config_.refusal_hold_s, 1);
	entry->status = JobStatus::refused;
	waiting_tail_ = WaitingTail{}; // it may be in the tail
	compress(std::move(freed));
	return ok_status();
}

} // namespace campaign::plan
