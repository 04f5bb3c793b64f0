// Planner value types: the cluster snapshot, running and pending jobs, the configuration and the
// resulting plan. Plain data only (NodeSet only shares a list): no behaviour here, and no Slurm
// types.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace campaign::plan
{

using JobId = uint64_t;
using NodeIndex = int32_t;

// A time later than any plan can reach; used for "open-ended" and "not found".
inline constexpr int64_t never_s = std::numeric_limits<int64_t>::max() / 4;

enum class NodeState { up, down, drain };

// Counted per-node resources other than CPUs and memory (GRES: GPUs, ...), by kind. A kind is
// an index into Cluster::gres_kinds; the caller decides what a kind means (sched/campaign: "gpu"
// for all GPUs of a node, "gpu:a100" for one type, so a typed request books both). A small fixed
// array keeps every node's free amounts in one flat record of the profile.
inline constexpr size_t gres_kinds_max = 4;
using GresCounts = std::array<int32_t, gres_kinds_max>;
// GresCounts' ==, element by element: the array's own == calls memcmp, and the planner's
// per-pass comparisons (PlanKeeper, SearchMemo) ask it for every kept job and look-up.
inline bool same_gres(const GresCounts &a, const GresCounts &b)
{
	for (size_t kind = 0; kind < gres_kinds_max; ++kind)
		if (a[kind] != b[kind])
			return false;
	return true;
}

// One node as the scheduler sees it. Nodes are named by their index in Cluster::nodes.
struct NodeSpec {
	std::string name;
	int32_t cpus = 0;
	int64_t memory_mb = 0;
	NodeState state = NodeState::up;
	GresCounts gres{}; // per kind of Cluster::gres_kinds
	// Slurm's node Weight: a job goes on the lowest-weight nodes it fits on, as select does
	// (choose_nodes); only the order of weights matters.
	uint32_t weight = 1;
};

// Nodes no planned job may use from start_s to end_s (an advanced reservation, such as a
// maintenance window, for the jobs not in it; one active now may start in the past, and is
// counted from now). Whole nodes: a reservation of
// some cores is taken as its nodes. The jobs of the window (PendingJob::window_id == id) are
// planned inside it instead.
struct UnavailableWindow {
	std::vector<NodeIndex> nodes;
	int64_t start_s = 0;
	int64_t end_s = 0;
	uint32_t id = 0; // 0: no job is planned inside it
	// Slurm's ResvOverRun: a job of the window may run on this long past end_s (Slurm ends it
	// then); the others' wait still ends at end_s. 0: none.
	int64_t overrun_s = 0;
	bool operator==(const UnavailableWindow &) const = default;
};

// A job's allowed nodes, shared: every job of one partition and constraint set can hold the
// same list (100k jobs on 10k nodes would otherwise carry 100k copies of lists of thousands of
// nodes, most of the planner's input). Immutable once made; reads like a vector.
class NodeSet
{
public:
	NodeSet() = default;
	NodeSet(std::vector<NodeIndex> nodes) // NOLINT: a vector is a set of its own
	    : nodes_(std::make_shared<const std::vector<NodeIndex>>(std::move(nodes)))
	{
	}
	NodeSet(std::initializer_list<NodeIndex> nodes) : NodeSet(std::vector<NodeIndex>(nodes)) {}
	const std::vector<NodeIndex> &nodes() const { return nodes_ ? *nodes_ : none(); }
	bool empty() const { return nodes().empty(); }
	size_t size() const { return nodes().size(); }
	std::vector<NodeIndex>::const_iterator begin() const { return nodes().begin(); }
	std::vector<NodeIndex>::const_iterator end() const { return nodes().end(); }
	NodeIndex operator[](size_t i) const { return nodes()[i]; }
	// The same list (not only equal nodes): what caches key on. Null for a default set.
	const std::vector<NodeIndex> *identity() const { return nodes_.get(); }
	friend bool operator==(const NodeSet &a, const NodeSet &b)
	{
		return a.nodes_ == b.nodes_ || a.nodes() == b.nodes();
	}

private:
	static const std::vector<NodeIndex> &none()
	{
		static const std::vector<NodeIndex> empty;
		return empty;
	}
	std::shared_ptr<const std::vector<NodeIndex>> nodes_;
};

// The whole machine. A partition is only a set of node indices (PendingJob::allowed_nodes), so
// overlapping partitions share one profile and never double-book a node.
struct Cluster {
	std::vector<NodeSpec> nodes;
	std::vector<std::string> gres_kinds; // names only, for messages; at most gres_kinds_max
	std::vector<UnavailableWindow> unavailable;
	// Running jobs every pending job may preempt, sorted, besides each job's own
	// PendingJob::preemptable (sched/campaign: the powered-down nodes' stand-ins), read once
	// per plan rather than copied into every pending job.
	std::vector<JobId> preemptable_by_any;
};

// CPUs, memory and GRES a job holds (or will hold) on one node.
struct NodeAllocation {
	NodeIndex node = 0;
	int32_t cpus = 0;
	int64_t memory_mb = 0;
	GresCounts gres{};
	bool operator==(const NodeAllocation &) const = default;
};

// CPUs alone: no memory, no GRES (ResourceProfile's single CPU pool takes only such bookings).
inline bool holds_cpus_only(const NodeAllocation &allocation)
{
	return allocation.memory_mb == 0 && allocation.gres == GresCounts{};
}

inline int64_t cpus_of(const std::vector<NodeAllocation> &allocations)
{
	int64_t cpus = 0;
	for (const NodeAllocation &allocation : allocations)
		cpus += allocation.cpus;
	return cpus;
}

struct RunningJob {
	JobId id = 0;
	std::vector<NodeAllocation> allocations;
	int64_t expected_end_s = 0;
	// Set by the planner, not the caller: booked as a long job (short_room), so given back so.
	bool booked_long = false;
	// The window (UnavailableWindow::id) of the reservation it runs in, which ends it at the
	// window's end plus overrun_s whatever its limit (end_with_windows); 0: none.
	uint32_t window_id = 0;
};

// A pending job, as the planner needs it. Memory needed on each node it uses =
// memory_per_node_mb + memory_per_cpu_mb * CPUs placed there; GRES needed on each node it uses =
// gres_per_node (the caller turns per-job and per-task counts into per-node ones). An exclusive
// job takes whole nodes.
struct PendingJob {
	JobId id = 0;
	int32_t cpus = 1;
	int32_t nodes_min = 1;
	int32_t nodes_max = 0; // 0: no upper bound
	int64_t memory_per_node_mb = 0;
	int64_t memory_per_cpu_mb = 0;
	GresCounts gres_per_node{};
	int64_t limit_s = 60;
	// --time-min: 0 none. A job that cannot start now for limit_s starts now for the longest
	// limit from this up that fits (whole minutes over it), as sched/backfill does.
	int64_t limit_min_s = 0;
	NodeSet allowed_nodes; // partition nodes ∩ constraints; empty: every node
	// A job submitted to several partitions: the node sets of the others, in the caller's order
	// (each as allowed_nodes). It is planned in whichever set gives the earliest start, the
	// first on ties (allowed_nodes before these), as sched/backfill tries each partition;
	// PlannedJob::node_set says which.
	std::vector<NodeSet> other_node_sets;
	bool exclusive = false;
	// Task layout (Slurm's -n, --cpus-per-task, --ntasks-per-node, --spread-job), as
	// select/cons_tres places tasks: a node takes whole tasks of cpus_per_task CPUs (a node
	// with 7 free CPUs takes one task of 4, not 7/4), and the job needs ceil(cpus /
	// cpus_per_task) tasks. tasks_per_node > 0: every node it uses takes exactly that many (so
	// nodes_min is at least tasks / tasks_per_node); a node with room for fewer takes none.
	// spread: as many nodes as allowed (nodes_max), one task each first, in weight then index
	// order (--spread-job).
	int32_t cpus_per_task = 1;
	int32_t tasks_per_node = 0; // 0: any number
	bool spread = false;
	// Every MB of each node it uses, whatever the node has (Slurm's --mem=0 with memory as a
	// consumable resource): a node must have no memory allocated to anyone else.
	bool all_memory = false;
	uint64_t campaign_id = 0; // 0: no campaign (all such jobs share one pseudo-campaign)
	// Running jobs this job may preempt (Slurm's PreemptType), sorted. Their resources count
	// as free to this job now, and to no other: a job that cannot start now otherwise starts
	// now over them (the caller's start preempts them); its booking then overlaps theirs, so
	// their nodes offer nothing to anyone else until they end. Those every job may preempt
	// are in Cluster::preemptable_by_any instead.
	std::vector<JobId> preemptable;
	// Not before this time (Slurm's --begin); 0: now. With `after`: the later of the two.
	int64_t earliest_start_s = 0;
	// Starts no earlier than the end of each of these jobs (a dependency): a running job's
	// expected end, a pending job's planned end (its start plus its planned limit). A pending
	// one should be ranked above this job, which is planned after it; one that is neither
	// running nor placed leaves this job without a place (JobStatus::blocked).
	std::vector<JobId> after;
	// A job of a reservation (Cluster::unavailable, by id; 0: none): planned only inside that
	// window, on its nodes (allowed_nodes, within the window's), from its start (or now), and
	// ending by its end (a longer limit is planned as what is left of the window: Slurm ends
	// the job there). The window's jobs share its nodes as they would the machine. Takes
	// no slot of the reservation depth: it can hold back only the window's other jobs.
	uint32_t window_id = 0;
	// Its expected run time (0: unknown), as its user's recent runs predict it: with
	// PlannerConfig::short_by_expected the room for short jobs tells short jobs by it, not by
	// limit_s (which every plan still holds).
	int64_t expected_run_s = 0;
	// When the job was submitted (0: unknown, taken as now). Read only by the local search's
	// campaign-fairness objective (PlannerConfig::local_search_iterations).
	int64_t submit_s = 0;
};

// How many queued jobs get a reservation (a planned future start no lower-ranked job may delay).
// All modes run the same engine; a mode only sets the reservation depth (and, for per_campaign,
// "one reservation per campaign").
enum class ReservationMode {
	greedy,       // depth 0: first fit, every job starts only if it fits now
	easy,         // depth 1: the first job that cannot start now
	conservative, // every job that cannot start now, up to `depth`
	per_campaign, // the first job of each campaign that cannot start now, up to `depth`
};

// What sizes the adaptive room (PlannerConfig::short_room_demand).
// pending: every short pending job; blocked: the short jobs a plan could not start now;
// fitting: those of them no wider than the room (plan/short_room_demand.h names them).
enum class ShortRoomDemand { pending, blocked, fitting };

struct PlannerConfig {
	ReservationMode mode = ReservationMode::conservative;
	int32_t depth = 100000;        // used by conservative and per_campaign
	int64_t horizon_s = 7 * 86400; // no reservation starts later than now + horizon_s
	int64_t refusal_hold_s = 60;   // a refused job is not planned again for this long
	// On compression, the first reserved jobs (rank order) may move to any node; the others
	// only move earlier on the nodes they already have (cheap: they only look at those).
	int32_t compress_search_depth = 16;
	// Only the plan's starts now are used (no caller today: sched/campaign publishes the
	// reserved starts, and campsim plans as it does): placing stops
	// at the first rank below which no job can start now (each needs more CPUs than are free
	// now). Jobs below get no placement, so the PlanKeeper never keeps such a plan.
	bool starts_only = false;
	// Room kept for short jobs, inside the plan (what a site's short or debug partition does):
	// long jobs together leave at least short_room of the machine's usable CPUs free, in whole
	// CPUs rounded down (none on a machine under 1 / short_room CPUs; a long job wider than the
	// rest may run alone among long jobs), so a light user's few-CPU,
	// short job that arrives while long jobs hold the machine can start
	// (doc/fairness-results.md, mechanism 3). Long: a pending job whose limit exceeds
	// short_limit_s, a running one with more than that left. 0: off.
	double short_room = 0;
	int64_t short_limit_s = 3600;
	// A pending job is short by its expected run time (PendingJob::expected_run_s, where
	// known) instead of its limit: a job of 2 s runs under an 18 h limit may use the room and
	// asks for it. Its booking still counts as long by its limit (it may run that long).
	bool short_by_expected = false;
	// Long jobs at least this part of the machine wide may use the room (they still count in
	// long jobs' CPUs): two half-machine jobs would otherwise never run side by side.
	double short_room_wide = 1;
	// Adaptive room: over 0, the room is kept only as far as short work asks for it: its CPUs
	// are the most CPUs of short pending jobs seen at any plan of the last short_room_recent_s
	// seconds, at most short_room of the machine (sized at each rebuild and replan). A log
	// with few short jobs then keeps (nearly) no room. 0: the room is always short_room.
	int64_t short_room_recent_s = 0;
	// sched/backfill's reservations: a job planned to start later holds every CPU of its
	// nodes from its start to its end (backfill.c removes the nodes from the later jobs'
	// node_space bitmap), so no lower-ranked job uses any CPU of them there; jobs starting
	// now book only their own CPUs (cons_tres). Plans are made afresh (PlanKeeper), as
	// sched/backfill plans each cycle. false: reservations hold only their own CPUs.
	bool whole_node_reservations = false;
	// With whole_node_reservations: sched/backfill's bf_resolution. backfill.c rounds a
	// reservation's start and end down to multiples of it (absolute time) and holds at least
	// one of it, so a reservation holds its nodes up to a resolution before its planned start
	// and frees them up to one before its end. 0: held exactly over the job's start to end.
	int64_t reservation_resolution_s = 0;
	// What sizes the adaptive room: every short pending job (pending), or only the short jobs
	// a plan could not start now (blocked), so the room stays off where short jobs start
	// anyway. With blocked, a plan whose blocked short jobs grow the room is planned again at
	// once with it (with starts_only, its head of the queue loaded or walked again).
	ShortRoomDemand short_room_demand = ShortRoomDemand::pending;
	// Local search over the plan (Klusacek 2011, ch. 4): after each rebuild and replan, at most
	// this many moves are tried (a reserved job of the campaign with the worst predicted
	// stretch ranked ahead of every reservation, or swapped with the reservation ranked just
	// above it, the plan then made again from the moved order); one is kept only if the sum of
	// squared predicted campaign stretches falls and their maximum does not rise. 0: off.
	// Not with starts_only (the plan below the last start is not made).
	int32_t local_search_iterations = 0;
	// Wall-clock cap of one search in milliseconds (the moves stop there).
	int64_t local_search_ms = 100;
	// Freeze (planner_freeze.cc): a reservation whose planned start has slipped more than this
	// many seconds past the start it was first reserved at keeps its place on later plans: it
	// is booked before the ranked walk at its last start (earlier where the plan leaves room),
	// so higher-ranked and later work backfills around it but no longer pushes it back. A wide
	// job passed for weeks by newer campaigns was the worst campaign under load
	// (doc/fairness-results.md). Not with starts_only (jobs below the last start get no place).
	// 0: off.
	int64_t freeze_slip_s = 0;
	// Only jobs at least this part of the machine's usable CPUs wide are frozen (the victims
	// were wide; frozen narrow jobs held the holes newer work backfilled). 0: any job.
	double freeze_wide = 0;
	// A frozen job is booked leaving the room for short jobs at its cap (short_room), not at
	// the adaptive room's size now: frozen where a room of 0 let it take every CPU, it later
	// held the CPUs short jobs asked for, or was pushed back when the room grew. false: the
	// room now, as every job.
	bool freeze_keeps_room = false;
	// Jobs of the first this many campaigns in the rank order are not frozen (planned at their
	// rank): OStrich ranks the light users' campaigns first, which are placed first anyway;
	// frozen, they only made the plan rigid. 0: any campaign.
	int32_t freeze_skip_first = 0;
};

enum class JobStatus {
	starts_now,     // placed at now: the caller should start it on `allocations`
	reserved,       // placed in the future; no lower-ranked job may delay it
	waiting,        // beyond the reservation depth and does not fit now
	beyond_horizon, // entitled to a reservation but no start found within the horizon
	cannot_run,     // does not fit even on an empty machine (allowed nodes too small or down)
	refused,        // the caller reported its start as refused; held for refusal_hold_s
	blocked,        // a job it waits for (PendingJob::after) has no place in the plan
};

struct PlannedJob {
	JobId id = 0;
	JobStatus status = JobStatus::waiting;
	int64_t start_s = never_s; // never_s unless starts_now or reserved
	std::vector<NodeAllocation> allocations;
	int64_t limit_s = 0;  // planned: below the job's own for a --time-min job started shorter
	int32_t node_set = 0; // 0: allowed_nodes; i: other_node_sets[i - 1]
};

struct Plan {
	int64_t now_s = 0;
	std::vector<JobId> starts_now;       // in rank order
	std::map<JobId, PlannedJob> planned; // every starts_now and reserved job
	int64_t next_reserved_s = -1;        // the earliest reserved start; -1: none
};

// The local search's objective over the plan's pending campaigns (jobs of campaign 0: each a
// campaign of its own): a campaign's predicted bounded stretch is its last planned end minus
// its earliest pending job's submission, over max(its longest limit, its CPU-seconds over the
// machine's usable CPUs, 10 s). Only placed jobs (starting now or reserved) count.
struct PlanFairness {
	double sum_squares = 0; // what the search lowers
	double max = 0;         // what it may not raise
	size_t campaigns = 0;
	size_t placed_jobs = 0; // a move that leaves a job without a place is not kept
};

// What Planner::plan lists in Plan::planned: every placed job (the default), or only those
// that start now (a caller that starts jobs and needs no reservation's details: campsim,
// where listing thousands of reservations at every pass cost more than updating them).
enum class PlanDetail { all, starts_now };

const char *to_string(JobStatus status);
const char *to_string(ReservationMode mode);

} // namespace campaign::plan
