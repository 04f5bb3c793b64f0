// PlanKeeper: one Planner kept across successive snapshots of the same machine. When a
// snapshot differs from the last only by jobs started, ended, cancelled or submitted at some
// rank, the kept plan is updated (reservations keep their starts or move earlier); when ranks,
// a job's shape, the nodes or a running job's expected end changed, or a reservation came due
// (its start passed before this snapshot), it plans afresh. Also
// afresh in per_campaign mode, where a kept plan would protect a later campaign's head from an
// earlier campaign's unreserved jobs, and with starts_only. No Slurm types.
#pragma once

#include "plan/planner.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace campaign::plan
{

class PlanKeeper
{
public:
	explicit PlanKeeper(PlannerConfig config = {});

	// Brings the kept plan to this snapshot (pending jobs in rank order) and plans at now_s.
	// `detail`: what the plan lists (Planner::plan).
	Result<Plan> update(const Cluster &cluster, const std::vector<RunningJob> &running,
	                    const std::vector<PendingJob> &pending_in_rank_order, int64_t now_s,
	                    PlanDetail detail = PlanDetail::all);
	// update from a walked queue (PendingSource): per_campaign with starts_only only, where
	// every update plans afresh anyway.
	Result<Plan> update_walk(const Cluster &cluster, const std::vector<RunningJob> &running,
	                         PendingSource &source, int64_t now_s);
	// The caller started a job of the last plan's starts_now, at that plan's time: the kept
	// plan books it as planned (a start first seen in the next snapshot would be taken for a
	// start that did not happen and planned again).
	Status started(const RunningJob &job, int64_t now_s);
	// The caller could not start a job the plan started now.
	Status refused(JobId id, int64_t now_s);
	std::vector<PlannedJob> queue() const { return planner_.queue(); }
	// Planner::could_start_now on the last plan.
	bool could_start_now(int32_t cpus, int64_t limit_s) const
	{
		return planner_.could_start_now(cpus, limit_s);
	}
	int64_t short_room_cpus() const { return planner_.short_room_cpus(); }
	// Planner::set_short_pending_cpus, for the next updates.
	void set_short_pending_cpus(int64_t cpus) { planner_.set_short_pending_cpus(cpus); }
	// What the caller promises of a pending job's shape (what the plan reads of it) for as
	// long as it is pending. any (the default): every kept job is compared with each
	// snapshot's, a pass over the whole queue's kept records at every update; campaign_only
	// (campsim's core policies: the core's online campaigns move, nothing else does): only
	// each job's campaign is compared, from an array beside the order; none (campsim's
	// baselines): nothing is compared.
	enum class ShapeChanges { any, campaign_only, none };
	void set_shape_changes(ShapeChanges changes) { shape_changes_ = changes; }
	uint64_t rebuilds() const { return rebuilds_; }
	uint64_t updates() const { return updates_; }

private:
	Status afresh(const Cluster &cluster, const std::vector<RunningJob> &running,
	              const std::vector<PendingJob> &pending, int64_t now_s);
	Status rebuild(const Cluster &cluster, const std::vector<RunningJob> &running,
	               const std::vector<PendingJob> &pending, int64_t now_s);
	Plan planned(int64_t now_s, PlanDetail detail = PlanDetail::all);
	// Applies the differences; false: they are more than starts, ends, cancels and inserts.
	bool update_in_place(const std::vector<RunningJob> &running,
	                     const std::vector<PendingJob> &pending, int64_t now_s);
	// per_campaign (a kept plan would protect a later campaign's head from an earlier
	// campaign's unreserved jobs), starts_only (jobs below the last start are unplaced) and
	// whole_node_reservations (sched/backfill plans each cycle afresh).
	bool plans_afresh_always() const
	{
		return config_.mode == ReservationMode::per_campaign || config_.starts_only ||
		       config_.whole_node_reservations;
	}
	// Whether a kept job's record is read (apply_pending): else it is not copied (a fresh
	// plan copied every queued job's).
	bool keeps_jobs() const
	{
		return shape_changes_ == ShapeChanges::any || config_.short_by_expected;
	}
	bool apply_running(const std::vector<RunningJob> &running, int64_t now_s, bool preemptors);
	bool apply_pending(const std::vector<PendingJob> &pending, int64_t now_s);
	void remember(const Cluster &cluster, const std::vector<RunningJob> &running,
	              const std::vector<PendingJob> &pending);
	// remember after update_in_place: only what the snapshot changed (no job copied again).
	void remember_changes(const std::vector<RunningJob> &running,
	                      const std::vector<PendingJob> &pending);

	PlannerConfig config_;
	Planner planner_;
	bool has_plan_ = false;
	ShapeChanges shape_changes_ = ShapeChanges::any;
	Cluster cluster_;
	std::unordered_map<JobId, RunningJob> running_; // as last seen
	// A pending job as last given to the planner, and its index in order_.
	struct KeptPending {
		PendingJob job; // only where keeps_jobs()
		size_t position = 0;
		uint64_t remembered = 0; // the last remember that listed it
	};
	std::unordered_map<JobId, KeptPending> pending_;
	uint64_t remembered_ = 0;
	// pending_ in rank order (a map's entries stay put until erased): a snapshot in the same
	// order is matched by walking it, without a look-up per job.
	std::vector<KeptPending *> order_;
	// Beside order_, so that a walk of the order reads no kept job: each one's id, campaign
	// (ShapeChanges::campaign_only) and the last snapshot that listed it.
	std::vector<JobId> order_ids_;
	std::vector<uint64_t> order_campaigns_;
	std::vector<uint64_t> order_listed_;
	std::unordered_set<JobId> running_now_; // the snapshot being applied
	// The snapshot being applied: its number, and for each of its pending jobs its kept
	// entry (nullptr: new).
	uint64_t snapshot_ = 0;
	std::vector<KeptPending *> listed_;
	std::vector<JobId> kept_order_, gone_; // apply_pending's, kept for capacity
	// The snapshot's ended running jobs (apply_running) and cancelled pending ones
	// (apply_pending), given back at once.
	std::vector<JobId> ended_now_, cancelled_;
	std::vector<Planner::Insert> inserts_; // the snapshot's new jobs ranked above kept ones
	int64_t next_reserved_s_ = -1;         // the last plan's earliest reserved start
	uint64_t rebuilds_ = 0, updates_ = 0;
};

} // namespace campaign::plan
