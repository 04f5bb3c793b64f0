// Planner: the kept backfilling plan of a ranked queue (reservations up to the mode's depth),
// updated on start, end, submit, cancel, refusal. Takes ranks as given; no Slurm types.
#pragma once

#include "plan/candidate_cache.h"
#include "plan/freed_node_index.h"
#include "plan/gap_search.h"
#include "plan/pending_ids.h"
#include "plan/pending_source.h"
#include "plan/plan_types.h"
#include "plan/reservation_policy.h"
#include "plan/resource_profile.h"
#include "plan/running_set.h"
#include "plan/search_memo.h"
#include "plan/stable_queue.h"
#include "util/result.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace campaign::plan
{

class Planner
{
public:
	explicit Planner(PlannerConfig config = {});

	// Forget everything and plan from this snapshot (pending jobs in rank order, best first).
	// Use it on node or partition changes and whenever ranks change.
	Status rebuild(const Cluster &cluster, const std::vector<RunningJob> &running,
	               const std::vector<PendingJob> &pending_in_rank_order, int64_t now_s);
	// rebuild on the same cluster, cheaper when few running jobs changed since the last plan:
	// the running jobs' bookings are updated, not made again. Same plan as rebuild. On an
	// error the plan is in no state to use: rebuild.
	Status replan(const std::vector<RunningJob> &running,
	              const std::vector<PendingJob> &pending_in_rank_order, int64_t now_s);
	// rebuild and replan with starts_only, the queue pulled from `source` (which may pass over
	// jobs that take no place: see PendingSource): the same starts and reservations as
	// from the whole queue, the planner's bound applied to every job ranked below. Refusals
	// of jobs the source does not list are kept.
	Status rebuild_walk(const Cluster &cluster, const std::vector<RunningJob> &running,
	                    PendingSource &source, int64_t now_s);
	Status replan_walk(const std::vector<RunningJob> &running, PendingSource &source,
	                   int64_t now_s);
	// Nodes went up, down or drained, or changed size (same indices): rebuild from the kept
	// jobs.
	Status cluster_changed(const Cluster &cluster, int64_t now_s);
	// A new pending job, ranked just before `before_id` (0: last). Jobs ranked above it keep
	// their plan; jobs ranked below it are planned again (a higher-ranked job arrived).
	Status job_submitted(const PendingJob &job, int64_t now_s, JobId before_id = 0);
	// New pending jobs at one instant, each ranked just before its `before_id` (not 0), listed
	// so that each anchor is already queued (the lowest first): all inserted, then everything
	// from the highest of them down planned once. Each inserted alone plans again every job
	// below it; an entry's plan depends only on the entries above it, so the last of those
	// plans, from the highest, is the whole answer, and k inserts cost one walk, not k.
	struct Insert {
		const PendingJob *job = nullptr;
		JobId before_id = 0;
	};
	Status jobs_inserted(const std::vector<Insert> &inserts, int64_t now_s);
	// A pending job started on these allocations (normally the plan's own starts_now).
	Status job_started(const RunningJob &job, int64_t now_s);
	// A running job ended (early or not). Compresses the plan: no planned start moves later.
	Status job_ended(JobId id, int64_t now_s);
	// A pending (or running) job left the system. Compresses like job_ended.
	Status job_cancelled(JobId id, int64_t now_s);
	// Running jobs ended and pending (or running) jobs left at one instant: all given back,
	// then one compression. One at a time, a compression could start a lower-ranked job now
	// on what the first gave back, and the next one's CPUs then come too late for the job
	// ranked above it that needed both (a fresh plan of the same snapshot starts that one).
	Status jobs_gone(const std::vector<JobId> &ended, const std::vector<JobId> &cancelled,
	                 int64_t now_s);
	// The caller could not start a job the plan started now (e.g. Slurm's select plugin said
	// no). Its placement is dropped and it neither starts nor blocks anyone for refusal_hold_s.
	Status refused(JobId id, int64_t now_s);
	// The plan at now_s (time may only move forward).
	Plan plan(int64_t now_s, PlanDetail detail = PlanDetail::all);
	// How many pending jobs the freeze (freeze_slip_s) holds at their start now.
	size_t frozen_jobs() const { return frozen_s_.size(); }

	// Every pending job in rank order, with its status and placement.
	std::vector<PlannedJob> queue() const;
	// False only if no job of at least `cpus` CPUs and `limit_s` seconds could start now
	// around the plan as it stands (a bound: true does not mean one can). Lets a caller that
	// gave only the head of its queue (starts_only) know whether the rest could matter.
	bool could_start_now(int32_t cpus, int64_t limit_s) const;
	// Walking the queue (PendingSource): whether a job of this campaign that cannot start now
	// would still get a reservation, and the longest limit a job of `cpus` CPUs may have and
	// start now (could_start_now(cpus, limit_s) exactly when limit_s is at most this; 0: none,
	// never_s: any).
	bool reserves_for(uint64_t campaign_id) const;
	// Whether the room for short jobs counts this pending job short (its limit, or with
	// short_by_expected its expected run time): a kept plan whose job changed class is stale.
	bool short_for_room(const PendingJob &job) const
	{
		return room_length_s(job) <= config_.short_limit_s;
	}
	int64_t longest_limit_now_s(int32_t cpus) const;
	// The local search's objective on the plan as it stands (PlannerConfig::local_search_*).
	PlanFairness fairness() const;
	// Moves the local search kept, and tried, since the planner was made.
	uint64_t local_search_kept() const { return local_search_kept_; }
	uint64_t local_search_tried() const { return local_search_tried_; }
	// The clock the search's time cap (local_search_ms) is read on: steady_clock's unless a
	// test gives its own.
	using SearchClock = std::function<std::chrono::steady_clock::time_point()>;
	void set_local_search_clock(SearchClock clock) { search_clock_ = std::move(clock); }
	const ResourceProfile &profile() const { return profile_; }
	const PlannerConfig &config() const { return config_; }
	int64_t now_s() const { return now_s_; }
	size_t pending_count() const { return queue_.size(); }
	// The room for short jobs of the last plan, in CPUs (short_room; adaptive: as sized).
	int64_t short_room_cpus() const { return short_room_cpus_; }
	// starts_only lists only the head of the queue, so a room sized by blocked demand would
	// count only the short jobs listed: on a full machine none (the walk stops at once), and
	// the room would close when the blocked short jobs need it. The caller may give the
	// short CPUs (short_cpus) of every pending job, listed or not, for the next plans; the
	// jobs left unlisted all count as blocked (none of them could start now). -1: not given.
	void set_short_pending_cpus(int64_t cpus) { short_pending_cpus_ = cpus; }

private:
	struct Entry {               // each field written by fill_entry
		PendingJob job;      // job.limit_s: as placed (shorter for a --time-min start)
		int64_t limit_s = 0; // the job's own limit
		NodeList candidates; // usable allowed nodes, sorted (shared: CandidateCache)
		std::vector<NodeList> other_candidates; // of job.other_node_sets, the same way
		bool fits_empty_machine = false;
		bool books_long = false;      // counted in long jobs' CPUs (short_room)
		int64_t long_cpus_limit = -1; // kept out of the room: see GapSearch::earliest
		int32_t window = -1; // index in cluster_.unavailable of job.window_id; -1: none
		// Booked on every CPU, MB and GRES of its nodes (whole_node_reservations): released
		// so.
		bool booked_whole = false;
		// What a booked_whole entry holds (held_whole when booked), released as booked.
		int64_t held_from_s = 0;
		int64_t held_until_s = 0;
		JobStatus status = JobStatus::waiting;
		Placement placement;
		int64_t searched_from_s =
		    never_s; // no fit found in [searched_from_s, searched_until_s]
		int64_t searched_until_s = -1;
		bool frozen = false; // booked before this walk at its frozen start (freeze_slip_s)
		bool placed() const { return placement.start_s != never_s; }
	};
	static JobId entry_id(const Entry &entry) { return entry.job.id; }
	// What could_start_now reads of an entry (both fixed while it is queued), kept densely
	// beside the queue: a walk of the waiting tail passes over the entries that could not
	// start now without reading them.
	struct QueuedShape {
		int32_t cpus = 0;
		int64_t limit_s = 0;
	};
	static QueuedShape entry_shape(const Entry &entry)
	{
		return {entry.job.cpus, entry.limit_s};
	}
	// Resources given back during an update: where a job may now fit earlier.
	struct FreedRegion {
		std::vector<NodeIndex> nodes;
		int64_t start_s = 0;
		int64_t end_s = 0;
	};
	struct TimeRange {
		int64_t from_s = 0;
		int64_t until_s = 0;
	};

	// While alive, the entry's own window (PendingJob::window_id) is given back: its jobs are
	// searched and booked in what the window keeps from every other job. Booked again at the
	// end, so the window's nodes go negative where its jobs are booked (nothing for others).
	class OwnWindowOpen
	{
	public:
		OwnWindowOpen(Planner &planner, const Entry &entry);
		~OwnWindowOpen();
		OwnWindowOpen(const OwnWindowOpen &) = delete;
		OwnWindowOpen &operator=(const OwnWindowOpen &) = delete;

	private:
		Planner &planner_;
		int32_t window_;
	};

	Status load(const Cluster &cluster, const std::vector<RunningJob> &running, int64_t now_s);
	void clear_plan(); // an empty plan on the loaded machine
	Status book_unavailable();
	Status plan_queue(const std::vector<PendingJob> &pending_in_rank_order, const char *event);
	Status plan_walk(PendingSource &source, const char *event);
	Status add_pending(const PendingJob &job, const char *event);
	void smallest_cpus_below(const std::vector<PendingJob> &pending_in_rank_order);
	// Checks the list (ids unique, jobs valid), leaving its sorted ids in scratch_ids_.
	Status check_running_list(const std::vector<RunningJob> &running);
	// After check_running_list(running). in_profile: book and give back there too.
	void replace_running(const std::vector<RunningJob> &running, bool in_profile = true);
	// A replan's first step: the queue given up (a valid running list: each entry unplaced
	// and destroyed at once, or the profile made again) and running_ made `running`.
	Status unplace_all_and_replace_running(const std::vector<RunningJob> &running);
	Result<Entry> make_entry(const PendingJob &job);
	// make_entry written over `entry` (an Entry's every field: a new one must be written
	// there too).
	Status fill_entry(Entry &entry, const PendingJob &job);
	// make_entry for a job submitted to a kept plan: refused if the plan already knows it.
	Result<Entry> submitted_entry(const PendingJob &job);
	int64_t long_cpus_limit_of(const PendingJob &job) const;
	bool holds_long(int64_t held_s) const; // a running job with held_s left is long
	// short_room_recent_s: records the short pending CPUs seen at now_s_ (record_short_demand)
	// and sets the room to the window's most, at most room_cap_cpus_ (size_room).
	void record_short_demand(int64_t short_pending_cpus);
	void size_room();
	// short_room_demand blocked: records the CPUs of the short jobs the plan just made could
	// not start now and, where that grows the room, plans again with it
	// (planner_short_demand.cc); with starts_only, returns true instead: the caller walks the
	// queue again.
	bool keep_room_for_blocked_short_jobs();
	// plan_walk's walk: the source's jobs placed as they come, down to where none could
	// start now.
	Status walk_source(PendingSource &source, const char *event);
	Status load_queue(const std::vector<PendingJob> &pending_in_rank_order, const char *event);
	void unplace_queue();
	// No pending entry left (none unplaced: the caller gave their bookings back or reset the
	// profile), and nothing kept of them: ids, waiting tail.
	void clear_queue();
	int64_t short_cpus(const PendingJob &job) const;
	int64_t room_length_s(const PendingJob &job) const; // the length the room judges
	Status check_running(const RunningJob &job) const;
	Status advance(int64_t now_s, const char *event);
	Status catch_up(int64_t now_s, const char *event);
	Entry *find_pending(JobId id);
	size_t pending_index(JobId id) const;

	void place(Entry &entry, SearchMemo *memo);
	std::optional<Placement> start_now_shortened(Entry &entry) const;
	std::optional<Placement> start_now_preempting(const Entry &entry);
	void place_again(Entry &entry, const std::vector<FreedRegion> &freed, SearchMemo &memo);
	void move_earlier(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo,
	                  bool anywhere);
	// A reservation beyond compress_search_depth that could start now on CPUs an end freed
	// off its own nodes moves there (a fresh plan would start it; issue 17).
	void start_now_anywhere(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo);
	// A reservation of a --time-min job that could start now with a shorter limit does, as
	// place() starts it in a plan made afresh (compression otherwise keeps whole limits).
	void start_now_shortened_kept(Entry &entry, std::vector<FreedRegion> &freed,
	                              SearchMemo &memo);
	// The two above: the entry's booking given back, search() (a placement now, which may
	// set entry.job.limit_s) and, if it finds one, the entry booked there and its old place
	// listed as freed; else booked again as it was.
	template <typename Search>
	void start_now_giving_back(Entry &entry, std::vector<FreedRegion> &freed, SearchMemo &memo,
	                           Search &&search);
	// Whether the job may start over running jobs it may preempt (its own list, or the
	// cluster's list every job may preempt).
	bool may_preempt(const PendingJob &job) const
	{
		return !job.preemptable.empty() || !cluster_.preemptable_by_any.empty();
	}
	// False only if the entry could not start now were its booking given back (a necessary
	// test: true does not mean it can).
	bool may_start_now_giving_back(const Entry &entry) const;
	static int64_t held_long_cpus(const Entry &entry);
	std::optional<Placement> search_in_place(const Entry &entry, const Placement &placement,
	                                         std::vector<TimeRange> &ranges,
	                                         int64_t not_before_s) const;
	std::optional<Placement> search_in_place_holding(const Entry &entry,
	                                                 std::vector<TimeRange> &ranges,
	                                                 int64_t not_before_s) const;
	void book(Entry &entry, Placement placement);
	// The profile's part of book (and of remake_profile): the entry's booking as it holds it.
	void book_in_profile(const Entry &entry);
	FreedRegion unplace(Entry &entry);
	// unplace then book at this placement (the same allocations), for less where they overlap.
	FreedRegion move_booking(Entry &entry, Placement placement);
	// What an entry's placement books: its allocations, or all of its nodes (booked_whole).
	std::vector<NodeAllocation> booking_of(const Entry &entry) const;
	// The time a booked_whole entry holds its nodes (PlannerConfig::reservation_resolution_s).
	TimeRange held_whole(const Entry &entry) const;
	void settle_status(Entry &entry);
	std::optional<Placement> search(const Entry &entry, int64_t from_s, int64_t until_s,
	                                SearchMemo *memo) const;
	// GapSearch::earliest over each of the entry's node sets: the earliest start, the first
	// set on ties (Placement::node_set). minima: a memo's kept minima, or none.
	std::optional<Placement> earliest_in_sets(const Entry &entry, int64_t from_s,
	                                          int64_t until_s, int64_t long_cpus_limit = -1,
	                                          MinimaCache *minima = nullptr) const;
	static void merge_ranges(std::vector<TimeRange> &ranges, int64_t not_before_s);
	// ranges merged in place, then searched in time order.
	std::optional<Placement> search_ranges(const Entry &entry, std::vector<TimeRange> &ranges,
	                                       int64_t not_before_s) const;
	// Append to ranges (not merged: a range may come more than once).
	void freed_ranges(const Entry &entry, const std::vector<FreedRegion> &freed,
	                  int64_t until_s, std::vector<TimeRange> &ranges) const;
	void freed_ranges(const std::vector<NodeIndex> &candidates, int64_t limit_s,
	                  const std::vector<FreedRegion> &freed, int64_t until_s,
	                  std::vector<TimeRange> &ranges) const;
	bool any_freed_range(const Entry &entry, const std::vector<FreedRegion> &freed,
	                     int64_t until_s);
	// While alive, ranges is the planner's kept buffer, emptied (a compression fills one per
	// reservation it looks at: their allocations were a tenth of malloc's calls); a nested
	// borrower gets a buffer of its own.
	struct ScratchRanges {
		explicit ScratchRanges(Planner &planner)
		    : planner(planner), ranges(std::move(planner.scratch_ranges_))
		{
			ranges.clear();
		}
		~ScratchRanges() { planner.scratch_ranges_ = std::move(ranges); }
		ScratchRanges(const ScratchRanges &) = delete;
		ScratchRanges &operator=(const ScratchRanges &) = delete;
		Planner &planner;
		mutable std::vector<TimeRange> ranges;
	};
	bool held_by_refusal(const Entry &entry) const;
	// Inline, as waits_for_others: a compression asks them for every queued job (through the
	// library's PLT when out of line); a job with no dependency and no window needs no more.
	int64_t not_before_s(const Entry &entry) const
	{
		const int64_t from_s = std::max(now_s_, entry.job.earliest_start_s);
		return entry.job.after.empty() && entry.window < 0
		           ? from_s
		           : not_before_bound_s(entry, from_s);
	}
	int64_t not_before_bound_s(const Entry &entry, int64_t from_s) const;
	// until_s, or earlier for a job of a window: the last start that ends by the window's end.
	int64_t latest_start_s(const Entry &entry, int64_t until_s) const;
	Status bind_to_window(Entry &entry) const;
	Status check_node_set(NodeSet &nodes);
	// entry.limit_s, or what is left of its window from now if that is less.
	int64_t limit_now_s(const Entry &entry) const;
	// A job not free to start now for reasons other than resources: its searches are its own
	// (a search memo records bounds that hold for every job of a shape).
	bool waits_for_others(const Entry &entry) const
	{
		return !entry.job.after.empty() || entry.job.earliest_start_s > now_s_ ||
		       entry.window >= 0;
	}

	// Places queue_[first_index..] again. With a deadline, stops once it has passed, the rest
	// unplaced: false then (the caller restores the plan).
	bool plan_from(size_t first_index,
	               std::optional<std::chrono::steady_clock::time_point> deadline = {});
	// Gives back the bookings of queue_[first_index..], which are frozen no more.
	void unplace_from(size_t first_index);
	// True if fewer bookings stay (running jobs, windows, queue_[..kept_end)'s) than the
	// `given_back` ones: the profile is then made again from those (remake_profile).
	bool remaking_is_cheaper(size_t kept_end, size_t given_back) const;
	// The profile of the running jobs, the windows and queue_[..kept_end)'s placements alone.
	void remake_profile(size_t kept_end);
	// plan_from's second half, for entries none of which is placed or frozen (a queue just
	// made): at 100,000 jobs each pass over the queue reads 100,000 cold entries, and the
	// passes that would find nothing to give back were 4 % of per_campaign's update.
	bool place_from(size_t first_index,
	                std::optional<std::chrono::steady_clock::time_point> deadline = {});

	// planner_local_search.cc: Klusacek's local search over the plan just made (rebuild and
	// replan), first improvement, moves kept only where the objective improves.
	struct CampaignStretch {
		double stretch = 0;
		size_t last_index = 0; // in queue_: the campaign's job that ends last
	};
	std::vector<CampaignStretch> campaign_stretches(size_t &placed_jobs) const; // worst first
	void local_search();
	// Moves queue_[from] to rank `to` (above it): ahead of them (rotate) or swapped with it,
	// plans from there, and keeps the plan if it beats `score` (updated); else restores it.
	// Past `deadline` during the move, it is restored unfinished.
	bool try_move(size_t from, size_t to, bool swap, PlanFairness &score,
	              std::chrono::steady_clock::time_point deadline);
	void compress(std::vector<FreedRegion> freed);

	// The queue's waiting tail: from `first` on, every entry is unplaced, has status waiting
	// and waits for CPUs only (no window, dependency, freeze or --time-min; it fits the empty
	// machine), and none has fewer than min_cpus CPUs or a limit below min_limit_s. Once the
	// reservations are used up, no job there can start now where no job of min_cpus CPUs for
	// min_limit_s can, and nothing else of it would change: compress and plan() stop there.
	// A job end on LPC-EGEE's 4,000-deep queue read every entry three times, most of
	// fair-share's EASY plan. The walks in rank order find it (compress, place_from); a
	// submission ranked last, a start and a cancellation keep it; any other change of the
	// queue forgets it until the next walk.
	struct WaitingTail {
		static constexpr size_t unknown = static_cast<size_t>(-1);
		size_t first = unknown;
		int32_t min_cpus = std::numeric_limits<int32_t>::max();
		int64_t min_limit_s = std::numeric_limits<int64_t>::max();
		bool known() const { return first != unknown; }
		// A walk's account: `entry` at `index` is (or is not) in a tail that runs on.
		void visit(size_t index, const Entry &entry, bool waits_for_cpus_only)
		{
			if (!waits_for_cpus_only) {
				*this = WaitingTail{.first = index + 1};
				return;
			}
			min_cpus = std::min(min_cpus, entry.job.cpus);
			min_limit_s = std::min(min_limit_s, entry.limit_s);
		}
		// The rest of the queue is `rest`'s entries, unchanged since it was found.
		void join(const WaitingTail &rest)
		{
			min_cpus = std::min(min_cpus, rest.min_cpus);
			min_limit_s = std::min(min_limit_s, rest.min_limit_s);
		}
	};
	bool waits_for_cpus_only(const Entry &entry) const
	{
		return !entry.placed() && entry.status == JobStatus::waiting && !entry.frozen &&
		       entry.fits_empty_machine && entry.window < 0 && entry.job.window_id == 0 &&
		       entry.job.after.empty() && entry.job.limit_min_s <= 0;
	}
	// In a known waiting tail with the reservation depth used up: the first index from `index`
	// on whose entry could start now for its own limit (queue_.size() if none), the entries
	// passed over visited in `found` from their shapes. Each of those would be placed again
	// as waiting, unsearched (place_again tests could_start_now first): only its last
	// searched time is not brought to now, which makes a later search at this time search
	// now again, the same answer.
	// `room`: the longest limit that could start now per CPU count, kept from one call to the
	// next of a walk until something is booked.
	struct TailRoom {
		static constexpr size_t kKept = 16; // CPU counts kept (the rest found each time)
		size_t booked = static_cast<size_t>(-1);
		std::vector<std::pair<int32_t, int64_t>> by_cpus; // CPUs, the room for them
	};
	size_t skip_unstartable_tail(size_t index, WaitingTail &found, TailRoom &room) const;
	// How many entries ahead a walk of the queue asks for (StableQueue::prefetch): a walk
	// reads a few fields of each and waited mostly on their first read.
	static constexpr size_t kWalkPrefetchAhead = 8;
	// Where a walk of the placed entries may stop: no entry from there on is placed (the
	// waiting tail's start, or the queue's end when it is not known).
	size_t placed_end() const
	{
		return waiting_tail_.known() ? std::min(waiting_tail_.first, queue_.size())
		                             : queue_.size();
	}
	// The queue lost the entry at `index` / gained one at `index` (the tail's entries keep
	// their place relative to it).
	void tail_erased(size_t index)
	{
		if (waiting_tail_.known() && index < waiting_tail_.first)
			--waiting_tail_.first;
	}
	void tail_inserted(size_t index)
	{
		if (waiting_tail_.known() && index < waiting_tail_.first)
			++waiting_tail_.first;
	}

	// planner_freeze.cc (freeze_slip_s): books queue_[first_index..]'s frozen jobs (none
	// marked frozen on entry: plan_from clears the marks as it unplaces) before the walk; at
	// its rank in the walk, moves one earlier where the jobs above left room (true: it moved)
	// and settles its status; notes the reservations that slipped past the bound, and where
	// frozen ones stand now.
	void book_frozen(size_t first_index);
	int64_t frozen_long_cpus_limit(const PendingJob &job) const; // freeze_keeps_room
	// freeze_skip_first: the first that many distinct campaigns in rank order (their jobs are
	// not frozen).
	std::unordered_set<uint64_t> first_campaigns() const;
	bool move_frozen_earlier(Entry &entry);
	void note_slips();
	// Keeps the freeze's records of listed jobs only (a new queue).
	void forget_unlisted(const std::vector<PendingJob> &pending_in_rank_order);
	void forget_freeze(JobId id)
	{
		first_reserved_s_.erase(id);
		frozen_s_.erase(id);
	}

	PlannerConfig config_;
	Cluster cluster_;
	int64_t now_s_ = 0;
	ResourceProfile profile_;
	CandidateCache candidate_cache_; // for profile_'s nodes; cleared with them
	// The searches' kept minima (SearchMemo): here, so their storage outlives a pass.
	MinimaCache minima_cache_;
	// Node sets already checked (check_node_set), by list: (that list, its sorted form); at
	// most kMaxCheckedNodeSets (each holds its list alive).
	static constexpr size_t kMaxCheckedNodeSets = 256;
	std::unordered_map<const std::vector<NodeIndex> *, std::pair<NodeSet, NodeSet>>
	    checked_node_sets_;
	ReservationPolicy policy_;
	StableQueue<Entry, &Planner::entry_id, QueuedShape, &Planner::entry_shape>
	    queue_; // rank order
	PendingIds pending_ids_;
	std::vector<JobId> scratch_ids_; // replan's sorted snapshot ids, kept for its capacity
	std::vector<NodeIndex> scratch_nodes_;  // move_earlier's own nodes, kept for its capacity
	std::vector<TimeRange> scratch_ranges_; // ScratchRanges' buffer, kept for its capacity
	// The regions compress gives back (indexed_freed_, only while it runs), by node: read by
	// freed_ranges, which is const to its callers.
	mutable FreedNodeIndex freed_index_;
	const std::vector<FreedRegion> *indexed_freed_ = nullptr;
	std::vector<int32_t> smallest_below_; // starts_only: see smallest_cpus_below
	std::vector<int64_t> shortest_below_; // starts_only: the shortest limit at rank i or below
	WaitingTail waiting_tail_;
	RunningSet running_;
	// What each of cluster_.unavailable books: all of its nodes' CPUs, memory and GRES.
	std::vector<std::vector<NodeAllocation>> window_bookings_;
	std::unordered_map<JobId, int64_t> refused_until_s_;
	// freeze_slip_s: each pending job's first reserved start, and the start of each frozen
	// one (it slipped past the bound); kept across plans made afresh, like refusals.
	std::unordered_map<JobId, int64_t> first_reserved_s_;
	std::unordered_map<JobId, int64_t> frozen_s_;
	size_t booked_ = 0; // bookings so far (a cached bound on the profile is stale after one)
	int64_t usable_cpus_ = 0;         // of the loaded machine
	int64_t short_room_cpus_ = 0;     // the room now: room_cap_cpus_, or less when adaptive
	int64_t room_cap_cpus_ = 0;       // config_.short_room of usable_cpus_, rounded down
	int64_t short_pending_cpus_ = -1; // set_short_pending_cpus
	// short_room_recent_s: (plan time, short pending CPUs) of the window, the CPUs strictly
	// decreasing, so the front is the window's most.
	std::deque<std::pair<int64_t, int64_t>> short_demand_;
	int64_t wide_cpus_ = 0; // config_.short_room_wide of usable_cpus_
	uint64_t local_search_kept_ = 0;
	uint64_t local_search_tried_ = 0;
	SearchClock search_clock_ = [] { return std::chrono::steady_clock::now(); };
};

} // namespace campaign::plan
