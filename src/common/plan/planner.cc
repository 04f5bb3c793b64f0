// Planner: keeps the backfilling plan of a ranked queue and updates it on events. Rank order is
// the caller's; resources and gap search are delegated to ResourceProfile and GapSearch.
#include "plan/planner.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>

namespace campaign::plan
{

namespace
{

std::string job_name(JobId id)
{
	return "job " + std::to_string(id);
}

std::vector<NodeIndex> nodes_of(const std::vector<NodeAllocation> &allocations)
{
	std::vector<NodeIndex> nodes;
	for (const NodeAllocation &allocation : allocations)
		nodes.push_back(allocation.node);
	return nodes;
}

// The CPUs a job books at least: whole tasks, at least one per node (with tasks_per_node, that
// many on each of the nodes its tasks need), so the gap search and the bounds count them all.
int32_t cpus_booked(const PendingJob &job)
{
	const int64_t per_task = job.cpus_per_task;
	const int64_t tasks = (std::max(job.cpus, 1) + per_task - 1) / per_task;
	int64_t nodes = std::max(job.nodes_min, 1);
	int64_t least_tasks = std::max<int64_t>(tasks, nodes); // a task on every node
	if (job.tasks_per_node > 0) {
		nodes = std::max(nodes, (tasks + job.tasks_per_node - 1) / job.tasks_per_node);
		least_tasks = nodes * job.tasks_per_node;
	}
	return static_cast<int32_t>(least_tasks * per_task);
}

} // namespace

Planner::Planner(PlannerConfig config) : config_(config), policy_(config)
{
	profile_ = ResourceProfile(cluster_, 0);
	profile_.list_bookings(config_.mode == ReservationMode::per_campaign);
}

Status Planner::check_running(const RunningJob &job) const
{
	if (job.id == 0)
		return Error{"running job with id 0"};
	for (const NodeAllocation &allocation : job.allocations) {
		if (allocation.node < 0 ||
		    static_cast<size_t>(allocation.node) >= cluster_.nodes.size())
			return Error{job_name(job.id) + ": node index " +
			             std::to_string(allocation.node) + " is not in the cluster"};
		if (allocation.cpus < 0 || allocation.memory_mb < 0 ||
		    !gres_at_least(allocation.gres, {}))
			return Error{job_name(job.id) + ": negative CPUs, memory or GRES on node " +
			             std::to_string(allocation.node)};
	}
	return ok_status();
}

Result<Planner::Entry> Planner::make_entry(const PendingJob &job)
{
	Entry entry;
	if (Status made = fill_entry(entry, job); !made)
		return Error{made.error()};
	return entry;
}

// Every field written (entry may hold an earlier queue's job: a fresh plan fills the allocations
// the last queue left, and building each entry apart and moving it in was a twentieth of the
// default's plan on a deep queue). The vectors keep their capacity.
Status Planner::fill_entry(Entry &entry, const PendingJob &job)
{
	auto who = [&] { return job_name(job.id); }; // only on error: this runs per job per plan
	if (job.id == 0)
		return Error{"pending job with id 0"};
	if (job.cpus <= 0 && job.nodes_min <= 0)
		return Error{who() + ": needs at least one CPU"};
	if (job.limit_s <= 0)
		return Error{who() + ": time limit must be positive, got " +
		             std::to_string(job.limit_s) + " s"};
	if (job.memory_per_node_mb < 0 || job.memory_per_cpu_mb < 0)
		return Error{who() + ": negative memory request"};
	if (!gres_at_least(job.gres_per_node, {}))
		return Error{who() + ": negative GRES request"};
	if (job.limit_min_s < 0 || job.limit_min_s > job.limit_s)
		return Error{who() + ": minimum time limit " + std::to_string(job.limit_min_s) +
		             " s outside [0, " + std::to_string(job.limit_s) + " s]"};
	if (job.earliest_start_s < 0)
		return Error{who() + ": negative earliest start " +
		             std::to_string(job.earliest_start_s) + " s"};
	if (std::find(job.after.begin(), job.after.end(), job.id) != job.after.end())
		return Error{who() + ": waits for its own end"};
	if (job.cpus_per_task <= 0)
		return Error{who() + ": cpus_per_task must be positive, got " +
		             std::to_string(job.cpus_per_task)};
	if (job.tasks_per_node < 0)
		return Error{who() + ": negative tasks_per_node " +
		             std::to_string(job.tasks_per_node)};
	if (job.nodes_max > 0 && job.nodes_max < job.nodes_min)
		return Error{who() + ": nodes_max " + std::to_string(job.nodes_max) +
		             " below nodes_min " + std::to_string(job.nodes_min)};
	entry.job = job;
	entry.limit_s = job.limit_s;
	entry.job.cpus = cpus_booked(job);
	entry.other_candidates.clear();
	entry.window = -1; // bind_to_window sets it for a job in a window
	entry.booked_whole = false;
	entry.held_from_s = 0;
	entry.held_until_s = 0;
	entry.status = JobStatus::waiting;
	entry.placement.start_s = never_s;
	entry.placement.allocations.clear();
	entry.placement.node_set = 0;
	entry.searched_from_s = never_s;
	entry.searched_until_s = -1;
	entry.frozen = false;
	if (Status checked = check_node_set(entry.job.allowed_nodes); !checked)
		return Error{who() + ": " + checked.error()};
	for (NodeSet &other : entry.job.other_node_sets)
		if (Status checked = check_node_set(other); !checked)
			return Error{who() + ": " + checked.error()};
	if (Status bound = bind_to_window(entry); !bound)
		return bound;
	entry.candidates = candidate_cache_.candidates(entry.job.allowed_nodes, profile_);
	entry.fits_empty_machine =
	    candidate_cache_.fits_empty_machine(entry.job, entry.candidates, profile_);
	for (const NodeSet &other : entry.job.other_node_sets) {
		entry.other_candidates.push_back(candidate_cache_.candidates(other, profile_));
		entry.fits_empty_machine |= candidate_cache_.fits_empty_machine(
		    entry.job, entry.other_candidates.back(), profile_);
	}
	entry.books_long = holds_long(entry.job.limit_s);
	entry.long_cpus_limit = long_cpus_limit_of(entry.job);
	return ok_status();
}

// `nodes` sorted, unique and in the cluster (sorted in place if not), checked once per shared
// list: the jobs of one partition hold one list, which need not be walked for each of them.
Status Planner::check_node_set(NodeSet &nodes)
{
	if (nodes.empty())
		return ok_status();
	auto checked = checked_node_sets_.find(nodes.identity());
	if (checked != checked_node_sets_.end()) {
		nodes = checked->second.second;
		return ok_status();
	}
	for (NodeIndex node : nodes)
		if (node < 0 || static_cast<size_t>(node) >= cluster_.nodes.size())
			return Error{"allowed node index " + std::to_string(node) +
			             " is not in the cluster"};
	NodeSet sorted = nodes;
	if (std::adjacent_find(nodes.begin(), nodes.end(), std::greater_equal<NodeIndex>()) !=
	    nodes.end()) {
		std::vector<NodeIndex> copy = nodes.nodes();
		std::sort(copy.begin(), copy.end());
		copy.erase(std::unique(copy.begin(), copy.end()), copy.end());
		sorted = NodeSet(std::move(copy));
	}
	if (checked_node_sets_.size() >= kMaxCheckedNodeSets)
		checked_node_sets_.clear(); // updates between full plans bring new lists each pass
	checked_node_sets_.emplace(nodes.identity(), std::make_pair(nodes, sorted));
	nodes = std::move(sorted);
	return ok_status();
}

// A job of a later reservation: its window, its nodes within the window's (none listed: the
// window's), and a limit no longer than the window (Slurm ends the job at the window's end).
Status Planner::bind_to_window(Entry &entry) const
{
	PendingJob &job = entry.job;
	if (job.window_id == 0)
		return ok_status();
	auto found = std::find_if(
	    cluster_.unavailable.begin(), cluster_.unavailable.end(),
	    [&](const UnavailableWindow &window) { return window.id == job.window_id; });
	if (found == cluster_.unavailable.end())
		return Error{job_name(job.id) + ": its window " + std::to_string(job.window_id) +
		             " is not among the cluster's unavailable windows"};
	std::vector<NodeIndex> window_nodes = found->nodes;
	std::sort(window_nodes.begin(), window_nodes.end());
	if (job.allowed_nodes.empty())
		job.allowed_nodes = window_nodes;
	auto outside = [&](const NodeSet &nodes) -> Status {
		for (const NodeIndex node : nodes)
			if (!std::binary_search(window_nodes.begin(), window_nodes.end(), node))
				return Error{job_name(job.id) + ": node index " +
				             std::to_string(node) + " is outside its window " +
				             std::to_string(job.window_id)};
		return ok_status();
	};
	if (Status inside = outside(job.allowed_nodes); !inside)
		return inside;
	for (const NodeSet &other : job.other_node_sets)
		if (Status inside = outside(other); !inside)
			return inside;
	entry.window = static_cast<int32_t>(found - cluster_.unavailable.begin());
	job.limit_s = std::min(job.limit_s, found->end_s + found->overrun_s - found->start_s);
	job.limit_min_s = std::min(job.limit_min_s, job.limit_s);
	entry.limit_s = job.limit_s;
	return ok_status();
}

Planner::OwnWindowOpen::OwnWindowOpen(Planner &planner, const Entry &entry)
    : planner_(planner), window_(entry.window)
{
	if (window_ < 0)
		return;
	const UnavailableWindow &window = planner_.cluster_.unavailable[window_];
	planner_.profile_.release(planner_.window_bookings_[window_], window.start_s, window.end_s);
}

Planner::OwnWindowOpen::~OwnWindowOpen()
{
	if (window_ < 0)
		return;
	const UnavailableWindow &window = planner_.cluster_.unavailable[window_];
	planner_.profile_.book(planner_.window_bookings_[window_], window.start_s, window.end_s);
}

// Long jobs keep out of the room for short jobs; one wider than the rest may still run.
int64_t Planner::long_cpus_limit_of(const PendingJob &job) const
{
	if (short_room_cpus_ == 0 || !holds_long(room_length_s(job)) || job.cpus >= wide_cpus_)
		return -1;
	return std::max<int64_t>(usable_cpus_ - short_room_cpus_, job.cpus);
}

// Counted whenever a room may be kept, so that an adaptive room can grow on a kept profile.
bool Planner::holds_long(int64_t held_s) const
{
	return room_cap_cpus_ > 0 && held_s > config_.short_limit_s;
}

// A job that cannot start now whatever the room (its begin time ahead, or waiting for another
// job) asks for none: otherwise jobs submitted with --begin keep the room at its cap. campsim's
// jobs have neither, so its schedules do not change.
int64_t Planner::short_cpus(const PendingJob &job) const
{
	if (job.earliest_start_s > now_s_ || !job.after.empty())
		return 0;
	return short_for_room(job) ? std::max(job.cpus, job.nodes_min) : 0;
}

int64_t Planner::room_length_s(const PendingJob &job) const
{
	if (config_.short_by_expected && job.expected_run_s > 0)
		return std::min(job.expected_run_s, job.limit_s);
	return job.limit_s;
}

void Planner::record_short_demand(int64_t short_pending_cpus)
{
	while (!short_demand_.empty() && short_demand_.back().second <= short_pending_cpus)
		short_demand_.pop_back(); // never the window's most again
	short_demand_.emplace_back(now_s_, short_pending_cpus);
}

void Planner::size_room()
{
	if (config_.short_room_recent_s <= 0) {
		short_room_cpus_ = room_cap_cpus_;
		return;
	}
	while (!short_demand_.empty() &&
	       short_demand_.front().first < now_s_ - config_.short_room_recent_s)
		short_demand_.pop_front();
	const int64_t demand = short_demand_.empty() ? 0 : short_demand_.front().second;
	short_room_cpus_ = std::min(room_cap_cpus_, demand);
}

Status Planner::advance(int64_t now_s, const char *event)
{
	if (now_s < now_s_)
		return Error{std::string(event) + ": time went backwards (" +
		             std::to_string(now_s) + " s < " + std::to_string(now_s_) + " s)"};
	if (now_s > now_s_) {
		now_s_ = now_s;
		profile_.advance_to(now_s);
	}
	return ok_status();
}

size_t Planner::pending_index(JobId id) const
{
	return queue_.index_of(id);
}

Planner::Entry *Planner::find_pending(JobId id)
{
	const size_t index = pending_index(id);
	return index < queue_.size() ? &queue_[index] : nullptr;
}

bool Planner::held_by_refusal(const Entry &entry) const
{
	auto found = refused_until_s_.find(entry.job.id);
	return found != refused_until_s_.end() && now_s_ < found->second;
}

// The earliest start the job's own rules allow: now, its earliest_start_s, and the end of each
// job it waits for (after); never_s when one of those has no place. Linear in the queue for each
// job waited for: dependent jobs are few.
// not_before_s of a job with a dependency or a window, from_s its own bound.
int64_t Planner::not_before_bound_s(const Entry &entry, int64_t from_s) const
{
	if (entry.window >= 0)
		from_s = std::max(from_s, cluster_.unavailable[entry.window].start_s);
	for (const JobId id : entry.job.after) {
		if (const RunningJob *running = running_.find(id)) { // has not ended: not now
			from_s = std::max({from_s, running->expected_end_s, now_s_ + 1});
			continue;
		}
		const size_t index = pending_index(id);
		if (index == queue_.size() || !queue_[index].placed())
			return never_s;
		const Entry &before = queue_[index];
		from_s = std::max(from_s, before.placement.start_s + before.job.limit_s);
	}
	return from_s;
}

// A window that started (an active reservation) has only its rest left: Slurm ends its jobs at its
// end plus ResvOverRun whatever their limit, so a job is planned for what is left from now at
// most.
int64_t Planner::limit_now_s(const Entry &entry) const
{
	if (entry.window < 0)
		return entry.limit_s;
	const UnavailableWindow &window = cluster_.unavailable[entry.window];
	return std::clamp<int64_t>(
	    window.end_s + window.overrun_s - std::max(window.start_s, now_s_), 1, entry.limit_s);
}

// A job of a window starts before the window's end (then Slurm no longer starts it there) and
// ends by the end plus ResvOverRun.
int64_t Planner::latest_start_s(const Entry &entry, int64_t until_s) const
{
	if (entry.window < 0)
		return until_s;
	const UnavailableWindow &window = cluster_.unavailable[entry.window];
	return std::min(
	    {until_s, window.end_s - 1, window.end_s + window.overrun_s - entry.job.limit_s});
}

void Planner::book(Entry &entry, Placement placement)
{
	++booked_;
	entry.placement = std::move(placement);
	// A reservation of sched/backfill holds its nodes whole: the node's other CPUs go to
	// no one below it. Where running jobs overlap it, the node goes negative (offers nothing).
	entry.booked_whole = config_.whole_node_reservations && entry.placement.start_s > now_s_;
	if (entry.booked_whole) {
		const TimeRange held = held_whole(entry);
		entry.held_from_s = held.from_s;
		entry.held_until_s = held.until_s;
	}
	book_in_profile(entry);
}

void Planner::book_in_profile(const Entry &entry)
{
	if (entry.booked_whole)
		profile_.book(booking_of(entry), entry.held_from_s, entry.held_until_s,
		              entry.books_long);
	else
		profile_.book(entry.placement.allocations, entry.placement.start_s,
		              entry.placement.start_s + entry.job.limit_s, entry.books_long);
}

// The span a whole-node reservation holds: its start to its end, or with a resolution
// (sched/backfill's bf_resolution) both rounded down to multiples of it and at least one of it
// long (backfill.c _attempt_backfill and _add_reservation), from now at the earliest.
Planner::TimeRange Planner::held_whole(const Entry &entry) const
{
	const int64_t start_s = entry.placement.start_s;
	const int64_t end_s = start_s + entry.job.limit_s;
	const int64_t resolution = config_.reservation_resolution_s;
	if (resolution <= 0)
		return {start_s, end_s};
	const auto round_down = [resolution](int64_t t) {
		const int64_t rest = t % resolution;
		return t - (rest < 0 ? rest + resolution : rest);
	};
	const int64_t held_start_s = round_down(start_s);
	const int64_t held_end_s = std::max(round_down(end_s), held_start_s + resolution);
	return {std::max(held_start_s, now_s_), held_end_s};
}

std::vector<NodeAllocation> Planner::booking_of(const Entry &entry) const
{
	if (!entry.booked_whole)
		return entry.placement.allocations;
	std::vector<NodeAllocation> whole_nodes;
	whole_nodes.reserve(entry.placement.allocations.size());
	for (const NodeAllocation &allocation : entry.placement.allocations) {
		const NodeFree &capacity = profile_.capacity(allocation.node);
		whole_nodes.push_back({.node = allocation.node,
		                       .cpus = capacity.cpus,
		                       .memory_mb = capacity.memory_mb,
		                       .gres = capacity.gres});
	}
	return whole_nodes;
}

Planner::FreedRegion Planner::unplace(Entry &entry)
{
	if (!entry.placed())
		return {};
	const int64_t end_s = entry.placement.start_s + entry.job.limit_s;
	if (entry.booked_whole) {
		profile_.release(booking_of(entry), entry.held_from_s, entry.held_until_s,
		                 entry.books_long);
	} else
		profile_.release(entry.placement.allocations, entry.placement.start_s, end_s,
		                 entry.books_long);
	entry.booked_whole = false;
	FreedRegion region{nodes_of(entry.placement.allocations), entry.placement.start_s, end_s};
	entry.placement = Placement{};
	return region;
}

void Planner::settle_status(Entry &entry)
{
	entry.status =
	    entry.placement.start_s <= now_s_ ? JobStatus::starts_now : JobStatus::reserved;
	if (entry.status == JobStatus::reserved)
		policy_.record_reservation(entry.job);
}

std::optional<Placement> Planner::search(const Entry &entry, int64_t from_s, int64_t until_s,
                                         SearchMemo *memo) const
{
	// A search of now alone (a job without a reservation) for a job more CPUs than the
	// machine has free for its whole limit: nothing to search, nothing to remember. Deep
	// backfill walks are mostly these.
	if (from_s == now_s_ && until_s == now_s_ &&
	    !could_start_now(entry.job.cpus, entry.job.limit_s))
		return std::nullopt;
	int64_t start_s = from_s;
	if (memo)
		start_s = std::max(start_s, memo->lower_bound(entry.job, *entry.candidates,
		                                              entry.long_cpus_limit));
	std::optional<Placement> found;
	if (start_s <= until_s)
		found = earliest_in_sets(entry, start_s, until_s, entry.long_cpus_limit,
		                         memo ? memo->minima() : nullptr);
	if (memo)
		memo->record(entry.job, *entry.candidates, entry.long_cpus_limit,
		             found ? found->start_s : until_s + 1);
	return found;
}

std::optional<Placement> Planner::earliest_in_sets(const Entry &entry, int64_t from_s,
                                                   int64_t until_s, int64_t long_cpus_limit,
                                                   MinimaCache *minima) const
{
	until_s = latest_start_s(entry, until_s);
	if (until_s < from_s)
		return std::nullopt;
	const GapSearch gap_search(profile_);
	std::optional<Placement> found = gap_search.earliest(entry.job, *entry.candidates, from_s,
	                                                     until_s, long_cpus_limit, minima);
	for (size_t set = 0; set < entry.other_candidates.size(); ++set) {
		// Only a strictly earlier start in a later set wins.
		const int64_t before_s = found ? std::min(until_s, found->start_s - 1) : until_s;
		if (before_s < from_s)
			break;
		if (auto earlier = gap_search.earliest(entry.job, *entry.other_candidates[set],
		                                       from_s, before_s, long_cpus_limit, minima)) {
			found = std::move(earlier);
			found->node_set = static_cast<int32_t>(set + 1);
		}
	}
	return found;
}

void Planner::place(Entry &entry, SearchMemo *memo)
{
	if (held_by_refusal(entry)) {
		entry.status = JobStatus::refused;
		return;
	}
	if (!entry.fits_empty_machine) {
		entry.status = JobStatus::cannot_run;
		return;
	}
	entry.job.limit_s = limit_now_s(entry);
	const int64_t from_s = not_before_s(entry);
	if (from_s == never_s) {
		entry.status = JobStatus::blocked; // takes no reservation: it has no start to hold
		entry.searched_from_s = never_s;
		return;
	}
	const bool may_reserve = policy_.may_reserve(entry.job);
	const int64_t until_s = may_reserve ? now_s_ + config_.horizon_s : now_s_;
	const bool own_search = waits_for_others(entry);
	const OwnWindowOpen own_window(*this, entry);
	std::optional<Placement> placement =
	    search(entry, from_s, until_s, own_search ? nullptr : memo);
	if (from_s == now_s_ && (!placement || placement->start_s > now_s_))
		if (auto shortened = start_now_shortened(entry))
			placement = std::move(shortened); // entry.job.limit_s is its limit now
	// Only a job free to start now preempts (not one waiting for its begin time, a job it
	// depends on, or its reservation).
	if (from_s == now_s_ && (!placement || placement->start_s > now_s_))
		if (auto preempting = start_now_preempting(entry))
			placement = std::move(preempting);
	if (placement) {
		book(entry, std::move(*placement));
		settle_status(entry);
		return;
	}
	entry.status = may_reserve ? JobStatus::beyond_horizon : JobStatus::waiting;
	if (may_reserve)
		policy_.record_reservation(entry.job); // holds its place: no one overtakes the role
	// A job that waits for others is searched afresh from its bound each time (it moves).
	entry.searched_from_s = own_search ? never_s : now_s_;
	entry.searched_until_s = until_s;
}

// --time-min, as sched/backfill: the longest limit from the minimum up (whole minutes over it)
// with which the job fits now, set in entry.job.limit_s. A shorter limit fits wherever a longer
// one does, so a binary search over the minutes.
std::optional<Placement> Planner::start_now_shortened(Entry &entry) const
{
	const int64_t least_s = entry.job.limit_min_s;
	const int64_t limit_s = limit_now_s(entry); // a started window's rest at most
	if (least_s <= 0 || least_s >= limit_s)
		return std::nullopt;
	auto fit_now = [&](int64_t tried_s) {
		entry.job.limit_s = tried_s;
		return earliest_in_sets(entry, now_s_, now_s_);
	};
	std::optional<Placement> best = fit_now(least_s);
	if (!best) {
		entry.job.limit_s = limit_s;
		return std::nullopt;
	}
	int64_t fits = 0, fails = (limit_s - least_s + 59) / 60; // minutes over least_s
	while (fails - fits > 1) {
		const int64_t middle = fits + (fails - fits) / 2;
		if (auto placement = fit_now(std::min(limit_s, least_s + 60 * middle))) {
			fits = middle;
			best = std::move(placement);
		} else {
			fails = middle;
		}
	}
	entry.job.limit_s = std::min(limit_s, least_s + 60 * fits);
	return best;
}

// Preemption, as sched/backfill's test with preemptee candidates: where the job fits now with
// the running jobs it may preempt given back. They are booked again whatever the answer, so
// their resources stay taken for every other job; the caller's start preempts them.
std::optional<Placement> Planner::start_now_preempting(const Entry &entry)
{
	if (!may_preempt(entry.job))
		return std::nullopt;
	std::vector<const RunningJob *> given_back;
	const std::vector<JobId> *lists[] = {&entry.job.preemptable, &cluster_.preemptable_by_any};
	for (const std::vector<JobId> *ids : lists)
		for (const JobId id : *ids) {
			const RunningJob *job = running_.find(id);
			if (!job || job->expected_end_s <= now_s_)
				continue;
			profile_.release(job->allocations, now_s_, job->expected_end_s,
			                 job->booked_long);
			given_back.push_back(job);
		}
	if (given_back.empty())
		return std::nullopt;
	std::optional<Placement> found = GapSearch(profile_).earliest(
	    entry.job, *entry.candidates, now_s_, now_s_, entry.long_cpus_limit);
	for (const RunningJob *job : given_back)
		profile_.book(job->allocations, now_s_, job->expected_end_s, job->booked_long);
	return found;
}

bool Planner::plan_from(size_t first_index,
                        std::optional<std::chrono::steady_clock::time_point> deadline)
{
	unplace_from(first_index);
	return place_from(first_index, deadline);
}

// A release reads every change its booking spans (on campsim's one node, thousands: giving
// whole queues back one by one was 7 % of LPC-EGEE's conservative plan at 0.95), so where the
// bookings given back outnumber those that stay, the profile is made again from these: it is
// one function of what is booked, whatever the order.
void Planner::unplace_from(size_t first_index)
{
	size_t given_back = 0;
	for (size_t i = first_index; i < queue_.size(); ++i) {
		queue_.prefetch(i + kWalkPrefetchAhead);
		given_back += queue_[i].placed();
	}
	const bool remake = remaking_is_cheaper(first_index, given_back);
	const ResourceProfile::DeferredMerges deferred(profile_);
	for (size_t i = first_index; i < queue_.size(); ++i) {
		queue_.prefetch(i + kWalkPrefetchAhead);
		Entry &entry = queue_[i];
		if (remake) {
			entry.placement = Placement{};
			entry.booked_whole = false;
		} else
			unplace(entry);
		entry.frozen = false; // here, not in a pass of its own
	}
	if (remake)
		remake_profile(first_index);
}

bool Planner::remaking_is_cheaper(size_t kept_end, size_t given_back) const
{
	size_t kept = running_.size() + window_bookings_.size();
	for (size_t i = 0; i < kept_end && kept < given_back; ++i)
		kept += queue_[i].placed();
	return kept < given_back;
}

void Planner::remake_profile(size_t kept_end)
{
	profile_.reset(cluster_, now_s_);
	std::vector<ResourceProfile::Held> held;
	held.reserve(running_.size());
	for (size_t i = 0; i < running_.size(); ++i) {
		const RunningJob &job = running_.data()[i];
		held.push_back({&job.allocations, job.expected_end_s, job.booked_long});
	}
	profile_.book_from_origin(std::move(held));
	for (size_t window = 0; window < window_bookings_.size(); ++window)
		profile_.book(window_bookings_[window], cluster_.unavailable[window].start_s,
		              cluster_.unavailable[window].end_s);
	for (size_t i = 0; i < kept_end && i < queue_.size(); ++i)
		if (queue_[i].placed())
			book_in_profile(queue_[i]);
}

bool Planner::place_from(size_t first_index,
                         std::optional<std::chrono::steady_clock::time_point> deadline)
{
	policy_.reset();
	for (size_t i = 0; i < first_index && i < queue_.size(); ++i) {
		const JobStatus status = queue_[i].status;
		if (status == JobStatus::reserved || status == JobStatus::beyond_horizon)
			policy_.record_reservation(queue_[i].job);
	}
	book_frozen(first_index);
	// Kept minima in per_campaign only: there they cut the 10,000-node update by 5-8 %, in
	// conservative they made the 1,000-node full plan 18 % slower (the kept minima's cost
	// above the searches they spare).
	SearchMemo memo = config_.mode == ReservationMode::per_campaign ? SearchMemo(minima_cache_)
	                                                                : SearchMemo();
	const WaitingTail known = waiting_tail_;
	waiting_tail_ = WaitingTail{}; // also if the deadline stops the walk
	WaitingTail found{.first = first_index};
	for (size_t i = first_index; i < queue_.size(); ++i) {
		if (deadline && search_clock_() >= *deadline)
			return false;
		queue_.prefetch(i + kWalkPrefetchAhead);
		// A frozen job that moved gave its old booking back: the memo's bounds may be late.
		if (!queue_[i].frozen)
			place(queue_[i], &memo);
		else if (move_frozen_earlier(queue_[i]))
			memo.clear();
		found.visit(i, queue_[i], waits_for_cpus_only(queue_[i]));
	}
	// Every entry walked is in the tail, and so are those above it down from the kept one's
	// start (untouched here).
	if (found.first == first_index && known.known() && known.first <= first_index) {
		found.first = known.first;
		found.join(known);
	}
	waiting_tail_ = found;
	waiting_tail_.first = std::min(found.first, queue_.size());
	return true;
}

} // namespace campaign::plan

namespace campaign::plan
{

Status Planner::rebuild(const Cluster &cluster, const std::vector<RunningJob> &running,
                        const std::vector<PendingJob> &pending_in_rank_order, int64_t now_s)
{
	Status status = load(cluster, running, now_s);
	if (status)
		status = plan_queue(pending_in_rank_order, "rebuild");
	if (!status) // never half a snapshot: an empty plan until the next good one
		clear_plan();
	else
		local_search();
	return status;
}

Status Planner::rebuild_walk(const Cluster &cluster, const std::vector<RunningJob> &running,
                             PendingSource &source, int64_t now_s)
{
	if (!config_.starts_only)
		return Error{"rebuild: a walked queue needs starts_only"};
	Status status = load(cluster, running, now_s);
	if (status)
		status = plan_walk(source, "rebuild");
	if (!status) // as rebuild: an empty plan until the next good one
		clear_plan();
	return status;
}

void Planner::clear_plan()
{
	cluster_.unavailable.clear(); // none booked in the empty profile
	window_bookings_.clear();
	clear_queue();
	running_.clear();
	profile_ = ResourceProfile(cluster_, now_s_);
	candidate_cache_.clear();
	checked_node_sets_.clear();
}

Status Planner::load(const Cluster &cluster, const std::vector<RunningJob> &running, int64_t now_s)
{
	for (const NodeSpec &node : cluster.nodes)
		if (node.cpus < 0 || node.memory_mb < 0 || !gres_at_least(node.gres, {}))
			return Error{"rebuild: node '" + node.name +
			             "' has negative CPUs, memory or GRES"};
	if (cluster.gres_kinds.size() > gres_kinds_max)
		return Error{"rebuild: " + std::to_string(cluster.gres_kinds.size()) +
		             " GRES kinds, at most " + std::to_string(gres_kinds_max) +
		             " are planned"};
	cluster_ = cluster;
	now_s_ = now_s;
	profile_.reset(cluster_, now_s);
	usable_cpus_ = 0;
	for (size_t node = 0; node < profile_.node_count(); ++node)
		if (profile_.usable(static_cast<NodeIndex>(node)))
			usable_cpus_ += profile_.capacity(static_cast<NodeIndex>(node)).cpus;
	// Whole CPUs rounded down, so the room never takes more than short_room of the machine
	// from long jobs: 5 % of 8 CPUs is no room, not one CPU in eight. The slack keeps
	// 0.05 * 20 one CPU.
	room_cap_cpus_ = static_cast<int64_t>(std::floor(config_.short_room * usable_cpus_ + 1e-9));
	size_room();
	wide_cpus_ = static_cast<int64_t>(std::ceil(config_.short_room_wide * usable_cpus_));
	candidate_cache_.clear();
	checked_node_sets_.clear();
	clear_queue();
	running_.clear();
	for (const RunningJob &job : running)
		if (Status valid = check_running(job); !valid)
			return Error{"rebuild: " + valid.error()};
	if (auto twice = running_.assign(running))
		return Error{"rebuild: " + job_name(*twice) + " is listed twice"};
	std::vector<ResourceProfile::Held> held;
	held.reserve(running_.size());
	for (size_t i = 0; i < running_.size(); ++i) {
		RunningJob &kept = running_.data()[i];
		kept.expected_end_s =
		    std::max(kept.expected_end_s, now_s + 1); // overrunning: ends soon
		kept.booked_long = holds_long(kept.expected_end_s - now_s);
		held.push_back({&kept.allocations, kept.expected_end_s, kept.booked_long});
	}
	profile_.book_from_origin(std::move(held)); // running_ does not change meanwhile
	return book_unavailable();
}

// Each window takes all of its nodes' CPUs, memory and GRES: no job is placed to run into it,
// and a job it blocks is placed at its end. A running job that runs into it over-commits the
// node there (it simply offers nothing), as Slurm lets it run on.
Status Planner::book_unavailable()
{
	window_bookings_.clear();
	for (const UnavailableWindow &window : cluster_.unavailable) {
		if (window.id != 0 &&
		    std::count_if(
		        cluster_.unavailable.begin(), cluster_.unavailable.end(),
		        [&](const UnavailableWindow &other) { return other.id == window.id; }) > 1)
			return Error{"rebuild: two unavailable windows have id " +
			             std::to_string(window.id)};
		if (window.overrun_s < 0)
			return Error{"rebuild: unavailable window " + std::to_string(window.id) +
			             ": negative overrun " + std::to_string(window.overrun_s) +
			             " s"};
		if (window.end_s <= window.start_s)
			return Error{"rebuild: an unavailable window ends (" +
			             std::to_string(window.end_s) + " s) before it starts (" +
			             std::to_string(window.start_s) + " s)"};
		std::vector<NodeAllocation> whole_nodes;
		for (const NodeIndex node : window.nodes) {
			if (node < 0 || static_cast<size_t>(node) >= cluster_.nodes.size())
				return Error{"rebuild: unavailable window node index " +
				             std::to_string(node) + " is not in the cluster"};
			const NodeFree &capacity = profile_.capacity(node);
			whole_nodes.push_back({.node = node,
			                       .cpus = capacity.cpus,
			                       .memory_mb = capacity.memory_mb,
			                       .gres = capacity.gres});
		}
		profile_.book(whole_nodes, window.start_s, window.end_s);
		window_bookings_.push_back(std::move(whole_nodes));
	}
	return ok_status();
}

// The queue from scratch, planned on the running jobs already booked. Refusals of jobs no
// longer pending are dropped. With starts_only, only the head of the queue is loaded: down
// to the last rank where a job could still start now, each placed as it is loaded (placing
// one may take the last free CPUs).
Status Planner::plan_queue(const std::vector<PendingJob> &pending_in_rank_order, const char *event)
{
	clear_queue();
	// A new queue brings its own lists: hold the former ones no longer (the caches keep the
	// lists they key on alive, so a freed list's address is never taken for another's).
	checked_node_sets_.clear();
	candidate_cache_.forget_lists();
	policy_.reset();
	if (!refused_until_s_.empty()) {
		std::unordered_map<JobId, int64_t> refusals;
		for (const PendingJob &job : pending_in_rank_order)
			if (auto refusal = refused_until_s_.find(job.id);
			    refusal != refused_until_s_.end())
				refusals.insert(*refusal);
		refused_until_s_ = std::move(refusals);
	}
	forget_unlisted(pending_in_rank_order);
	if (config_.starts_only)
		smallest_cpus_below(pending_in_rank_order);
	if (config_.short_room_recent_s > 0 && room_cap_cpus_ > 0) {
		if (config_.short_room_demand == ShortRoomDemand::pending) {
			int64_t short_pending_cpus = 0;
			for (const PendingJob &job : pending_in_rank_order)
				short_pending_cpus += short_cpus(job);
			record_short_demand(short_pending_cpus);
		}
		size_room();
	}
	queue_.reserve(config_.starts_only ? 16 : pending_in_rank_order.size());
	pending_ids_.reserve(queue_.capacity());
	if (Status loaded = load_queue(pending_in_rank_order, event); !loaded)
		return loaded;
	if (!config_.starts_only)
		place_from(0); // every entry is new: none to give back
	// The room grew: planned again with it (not starts_only: keep_room does it; one more
	// plan at most, as the demand is recorded once).
	if (keep_room_for_blocked_short_jobs()) {
		unplace_queue();
		return load_queue(pending_in_rank_order, event);
	}
	return ok_status();
}

// Entries for the queue; with starts_only, each placed as it is loaded, down to the last rank
// where a job could still start now.
Status Planner::load_queue(const std::vector<PendingJob> &pending_in_rank_order, const char *event)
{
	SearchMemo memo;
	// starts_only: the bound below is looked up again only when a booking, the fewest CPUs or
	// the shortest limit below changed (the walk books only a few jobs). It once ignored the
	// CPUs, so a bound found open stayed open below a rank where the fewest CPUs grew.
	size_t bound_booked = static_cast<size_t>(-1);
	int32_t bound_cpus = -1;
	int64_t bound_limit_s = -1;
	bool bound_open = true;
	for (size_t i = 0; i < pending_in_rank_order.size(); ++i) {
		if (config_.starts_only) {
			if (bound_booked != booked_ || bound_cpus != smallest_below_[i] ||
			    bound_limit_s != shortest_below_[i]) {
				bound_booked = booked_;
				bound_cpus = smallest_below_[i];
				bound_limit_s = shortest_below_[i];
				bound_open = could_start_now(bound_cpus, bound_limit_s);
			}
			if (!bound_open)
				break; // no job from here on could start now
		}
		if (i + kWalkPrefetchAhead < pending_in_rank_order.size())
			pending_ids_.prefetch(pending_in_rank_order[i + kWalkPrefetchAhead].id);
		if (Status added = add_pending(pending_in_rank_order[i], event); !added)
			return added;
		if (config_.starts_only)
			place(queue_.back(), &memo);
	}
	return ok_status();
}

// Every entry's booking given back and the queue emptied (a walked queue made again).
void Planner::unplace_queue()
{
	unplace_from(0);
	clear_queue();
	policy_.reset();
}

void Planner::clear_queue()
{
	queue_.clear();
	waiting_tail_ = WaitingTail{};
	pending_ids_.clear();
}

Status Planner::add_pending(const PendingJob &job, const char *event)
{
	if (Status made = fill_entry(queue_.spare(), job); !made)
		return Error{std::string(event) + ": " + made.error()};
	if (running_.contains(job.id) || !pending_ids_.insert(job.id))
		return Error{std::string(event) + ": " + job_name(job.id) + " is listed twice"};
	queue_.push_back_spare();
	return ok_status();
}

// plan_queue with starts_only, from a source that passes over jobs that would take no place.
// plan_queue stops at the first rank i where no job at i or below could start now; between
// two jobs the source returns, the profile does not change and that bound only narrows with
// i, so testing it at the returned job (over every job below, passed over or not) stops
// where plan_queue does, and every job placed is one plan_queue places, in the same order.
Status Planner::walk_source(PendingSource &source, const char *event)
{
	SearchMemo memo;
	while (const PendingJob *job = source.next(*this)) {
		const RestBound rest = source.rest();
		if (!could_start_now(rest.cpus, rest.limit_s))
			break;
		if (Status added = add_pending(*job, event); !added)
			return added;
		place(queue_.back(), &memo);
	}
	return ok_status();
}

Status Planner::plan_walk(PendingSource &source, const char *event)
{
	clear_queue();
	policy_.reset();
	size_room();
	if (Status walked = walk_source(source, event); !walked)
		return walked;
	// An adaptive room is sized before the walk, so it counts the short jobs this walk lists
	// (the source passes over some) from the next plan on.
	if (config_.short_room_recent_s > 0 && room_cap_cpus_ > 0 &&
	    config_.short_room_demand == ShortRoomDemand::pending) {
		int64_t short_pending_cpus = 0;
		for (const Entry &entry : queue_)
			short_pending_cpus += short_cpus(entry.job);
		record_short_demand(short_pending_cpus);
	}
	// The room grew: walked again with it, as plan_queue plans the whole queue again (one
	// more walk at most: the demand is recorded once).
	if (keep_room_for_blocked_short_jobs()) {
		unplace_queue();
		source.restart();
		return walk_source(source, event);
	}
	return ok_status();
}

bool Planner::reserves_for(uint64_t campaign_id) const
{
	PendingJob job;
	job.campaign_id = campaign_id;
	return policy_.may_reserve(job);
}

int64_t Planner::longest_limit_now_s(int32_t cpus) const
{
	const int64_t short_s = profile_.first_short_of(now_s_, cpus);
	const int64_t longest_s = short_s == never_s ? never_s : short_s - now_s_;
	// The room for short jobs: a long job starts only if the long jobs' CPUs now and its own
	// stay within the usable CPUs less the room (long_cpus_limit_of; a job wider than that
	// needs no long job running), so where they would not, only a short job fits. Not where
	// the room is judged by expected run times or wide jobs may use it: the bound would then
	// not be a necessary one, or would grow with cpus.
	if (short_room_cpus_ == 0 || config_.short_by_expected || wide_cpus_ < usable_cpus_)
		return longest_s;
	const int64_t long_now = profile_.long_cpus(profile_.slot_at(now_s_));
	if (long_now > 0 && long_now + cpus > usable_cpus_ - short_room_cpus_)
		return std::min(longest_s, config_.short_limit_s);
	return longest_s;
}

// smallest_below_[i]: the fewest CPUs any job at rank i or below needs (0 below a job that may
// preempt); shortest_below_[i]: the shortest limit (a --time-min counts). No job there can
// start now unless that many CPUs are free that long.
void Planner::smallest_cpus_below(const std::vector<PendingJob> &pending_in_rank_order)
{
	smallest_below_.resize(pending_in_rank_order.size());
	shortest_below_.resize(pending_in_rank_order.size());
	int32_t below = std::numeric_limits<int32_t>::max();
	int64_t shortest = std::numeric_limits<int64_t>::max();
	for (size_t i = pending_in_rank_order.size(); i-- > 0;) {
		const PendingJob &job = pending_in_rank_order[i];
		// As make_entry counts; a job that may preempt could start on no free CPU at all.
		below = std::min(below, may_preempt(job) ? 0 : std::max(job.cpus, job.nodes_min));
		const int64_t least_s = job.limit_min_s > 0 ? job.limit_min_s : job.limit_s;
		shortest = std::min(shortest, std::max<int64_t>(least_s, 1));
		smallest_below_[i] = below;
		shortest_below_[i] = shortest;
	}
}

bool Planner::could_start_now(int32_t cpus, int64_t limit_s) const
{
	const int64_t until_s = limit_s >= never_s - now_s_ ? never_s : now_s_ + limit_s;
	return profile_.has_free_cpus(now_s_, until_s, cpus);
}

Status Planner::cluster_changed(const Cluster &cluster, int64_t now_s)
{
	if (now_s < now_s_)
		return Error{"cluster_changed: time went backwards (" + std::to_string(now_s) +
		             " s < " + std::to_string(now_s_) + " s)"};
	const std::vector<RunningJob> running(running_.begin(), running_.end()); // sorted by id
	std::vector<PendingJob> pending;
	for (const Entry &entry : queue_)
		pending.push_back(entry.job);
	return rebuild(cluster, running, pending, now_s);
}

Plan Planner::plan(int64_t now_s, PlanDetail detail)
{
	(void)catch_up(std::max(now_s, now_s_), "plan");
	note_slips(); // the starts the caller sees are the ones a freeze compares
	Plan result;
	result.now_s = now_s_;
	const size_t placed_end = this->placed_end();
	for (size_t index = 0; index < placed_end; ++index) {
		queue_.prefetch(index + kWalkPrefetchAhead);
		const Entry &entry = queue_[index];
		if (!entry.placed())
			continue;
		if (entry.status == JobStatus::starts_now)
			result.starts_now.push_back(entry.job.id);
		else if (entry.status == JobStatus::reserved &&
		         (result.next_reserved_s < 0 ||
		          entry.placement.start_s < result.next_reserved_s))
			result.next_reserved_s = entry.placement.start_s;
		if (detail == PlanDetail::starts_now && entry.status != JobStatus::starts_now)
			continue;
		result.planned.emplace(
		    entry.job.id, PlannedJob{entry.job.id, entry.status, entry.placement.start_s,
		                             entry.placement.allocations, entry.job.limit_s,
		                             entry.placement.node_set});
	}
	return result;
}

std::vector<PlannedJob> Planner::queue() const
{
	std::vector<PlannedJob> jobs;
	jobs.reserve(queue_.size());
	for (const Entry &entry : queue_)
		jobs.push_back(PlannedJob{entry.job.id, entry.status, entry.placement.start_s,
		                          entry.placement.allocations, entry.job.limit_s,
		                          entry.placement.node_set});
	return jobs;
}

} // namespace campaign::plan
