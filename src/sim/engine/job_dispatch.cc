// Dispatchers. The plan dispatcher keeps its plan across passes through the PlanKeeper that
// sched/campaign uses, so the simulator plans as the plugin does.
#include "engine/job_dispatch.h"

#include "plan/plan_text.h"

#include <algorithm>

namespace campaign::sim
{

namespace
{

plan::JobId plan_id(uint32_t job)
{
	return static_cast<plan::JobId>(job) + 1;
}

// List scheduling on free CPUs without backfill: stops at the first job that does not fit.
class QueueDispatch final : public JobDispatch
{
public:
	QueueDispatch(uint32_t machine_cpus, DispatchJobs jobs)
	    : free_cpus_(machine_cpus), jobs_(std::move(jobs))
	{
	}
	Result<std::optional<std::vector<uint32_t>>>
	dispatch(const std::vector<uint32_t> &order, const std::optional<plan::RestBound> &rest,
	         int64_t) override
	{
		std::vector<uint32_t> starts;
		uint64_t free_cpus = free_cpus_;
		bool stopped = false;
		for (uint32_t job : order) {
			const uint32_t cpus = (*jobs_.cpus)[job];
			if (free_cpus == 0 || cpus > free_cpus) {
				stopped = true;
				break;
			}
			free_cpus -= cpus;
			starts.push_back(job);
		}
		if (!stopped && rest && free_cpus >= static_cast<uint64_t>(rest->cpus))
			return std::optional<std::vector<uint32_t>>(); // the next job might fit too
		free_cpus_ = free_cpus;
		return std::optional<std::vector<uint32_t>>(std::move(starts));
	}
	Status ended(uint32_t job, int64_t) override
	{
		free_cpus_ += (*jobs_.cpus)[job];
		return ok_status();
	}
	Status extended(uint32_t, int64_t, int64_t) override { return ok_status(); }
	uint64_t free_cpus() const override { return free_cpus_; }

private:
	uint64_t free_cpus_;
	DispatchJobs jobs_;
};

class PlanDispatch final : public JobDispatch
{
	using ShapeChanges = plan::PlanKeeper::ShapeChanges;

public:
	PlanDispatch(uint32_t machine_cpus, plan::PlannerConfig config, DispatchJobs jobs,
	             MachineNodes nodes, PlanDump dump)
	    : keeper_(config), free_cpus_(machine_cpus), jobs_(std::move(jobs)),
	      dump_(std::move(dump)), starts_only_(config.starts_only), any_nodes_(nodes.nodes > 0),
	      reads_expected_run_(config.short_by_expected)
	{
		// The core's expected run times move too: read, they make every job's entry again.
		if (jobs_.changes == ShapeChanges::campaign_only && reads_expected_run_)
			jobs_.changes = ShapeChanges::any;
		keeper_.set_shape_changes(jobs_.changes);
		if (!any_nodes_) {
			// One node of the whole machine: SWF traces count processors, not nodes.
			cluster_.nodes.push_back({"machine", static_cast<int32_t>(machine_cpus), 0,
			                          plan::NodeState::up});
			return;
		}
		for (uint32_t node = 0; node < nodes.nodes; ++node)
			cluster_.nodes.push_back({"n" + std::to_string(node),
			                          static_cast<int32_t>(nodes.node_cpus), 0,
			                          plan::NodeState::up});
	}

	// The same PlanKeeper sched/campaign keeps: the plan is updated with what changed since
	// the last pass, or made afresh (always in per_campaign mode).
	// With starts_only, a head of the queue does when no job below it could start now.
	Result<std::optional<std::vector<uint32_t>>>
	dispatch(const std::vector<uint32_t> &order, const std::optional<plan::RestBound> &rest,
	         int64_t now_s) override
	{
		auto plan = plan_order(order, now_s);
		if (!plan)
			return Error{plan.error()};
		if (rest && (!starts_only_ || keeper_.could_start_now(rest->cpus, rest->limit_s)))
			return std::optional<std::vector<uint32_t>>();
		auto starts = start_planned(plan.value(), now_s);
		if (!starts)
			return Error{starts.error()};
		return std::optional<std::vector<uint32_t>>(std::move(starts).value());
	}
	bool takes_heads() const override { return starts_only_; }
	bool takes_walks() const override { return starts_only_; }

	// The planner pulls the queue from the walk, which passes over the jobs it may.
	Result<std::vector<uint32_t>> dispatch_walk(JobWalk &walk, int64_t now_s) override
	{
		WalkSource source(walk, *this);
		tell_short_pending();
		auto plan = keeper_.update_walk(cluster_, running_, source, now_s);
		if (!plan)
			return Error{plan.error()};
		return start_planned(plan.value(), now_s);
	}

	// The plan's starts now down to the first job of `order` that does not start: a job
	// above it starts now, so none reserves, and each of these is placed as a strict
	// in-order scheduler places it (the rest of the plan is not used).
	Result<std::vector<uint32_t>> dispatch_in_order(const std::vector<uint32_t> &order,
	                                                int64_t now_s) override
	{
		auto plan = plan_order(order, now_s);
		if (!plan)
			return Error{plan.error()};
		size_t prefix = 0;
		const std::vector<plan::JobId> &starts = plan.value().starts_now;
		while (prefix < starts.size() && prefix < order.size() &&
		       starts[prefix] == plan_id(order[prefix]))
			++prefix;
		return start_planned(plan.value(), now_s, prefix);
	}

	Status ended(uint32_t job, int64_t) override
	{
		std::erase_if(running_, [&](const plan::RunningJob &record) {
			return record.id == plan_id(job);
		});
		free_cpus_ += (*jobs_.cpus)[job];
		return ok_status();
	}

	Status extended(uint32_t job, int64_t expected_end_s, int64_t) override
	{
		auto found = std::find_if(
		    running_.begin(), running_.end(),
		    [&](const plan::RunningJob &record) { return record.id == plan_id(job); });
		if (found == running_.end())
			return Error{"job index " + std::to_string(job) +
			             " extended but not running"};
		found->expected_end_s = expected_end_s; // the keeper plans afresh
		return ok_status();
	}
	uint64_t free_cpus() const override { return free_cpus_; }
	int64_t next_planned_start_s() const override { return next_planned_start_s_; }

private:
	// A JobWalk as the planner's PendingSource.
	class WalkSource final : public plan::PendingSource
	{
	public:
		WalkSource(JobWalk &walk, const PlanDispatch &owner) : walk_(walk), owner_(owner) {}
		const plan::PendingJob *next(const plan::Planner &planner) override
		{
			const std::optional<uint32_t> job = walk_.next(planner);
			if (!job)
				return nullptr;
			job_ = owner_.pending_of(*job);
			return &job_;
		}
		plan::RestBound rest() const override { return walk_.rest(); }
		void restart() override { walk_.restart(); }

	private:
		JobWalk &walk_;
		const PlanDispatch &owner_;
		plan::PendingJob job_;
	};

	// The keeper's plan of `order` (the whole queue in that order). Only the starts are listed:
	// the reservations' details go unread here.
	Result<plan::Plan> plan_order(const std::vector<uint32_t> &order, int64_t now_s)
	{
		// Written over the last pass's entries: a deep queue is listed at every pass, and
		// building and freeing a PendingJob each time was a tenth of a pass.
		// Unless any job may change (DispatchJobs::changes), an entry that holds the same
		// job as at the last pass holds it as it is (but for its campaign, where that
		// moves).
		pending_.resize(order.size());
		for (size_t k = 0; k < order.size(); ++k) {
			if (jobs_.changes == ShapeChanges::any ||
			    pending_[k].id != plan_id(order[k]))
				fill_pending(pending_[k], order[k]);
			else if (jobs_.changes == ShapeChanges::campaign_only)
				pending_[k].campaign_id = jobs_.campaign_of(order[k]);
		}
		tell_short_pending();
		if (!dump_.covers(now_s))
			return keeper_.update(cluster_, running_, pending_, now_s,
			                      plan::PlanDetail::starts_now);
		auto plan = keeper_.update(cluster_, running_, pending_, now_s);
		if (plan)
			dump_.line(now_s, plan::describe_plan(plan.value(), running_, cluster_,
			                                      keeper_.short_room_cpus()));
		return plan;
	}

	// Books the plan's starts now (the first `most` of them) and remembers its next planned
	// start.
	Result<std::vector<uint32_t>> start_planned(const plan::Plan &plan, int64_t now_s,
	                                            size_t most = static_cast<size_t>(-1))
	{
		next_planned_start_s_ = plan.next_reserved_s; // every later start is a reservation
		std::vector<uint32_t> starts;
		for (plan::JobId id : plan.starts_now) {
			if (starts.size() == most)
				break;
			const uint32_t job = static_cast<uint32_t>(id - 1);
			const int64_t end_estimate_s = jobs_.running_estimate_s
			                                   ? jobs_.running_estimate_s(job)
			                                   : jobs_.estimate_s(job);
			plan::RunningJob record{id, plan.planned.at(id).allocations,
			                        now_s + end_estimate_s};
			if (Status started = keeper_.started(record, now_s); !started)
				return Error{started.error()};
			running_.push_back(std::move(record));
			free_cpus_ -= (*jobs_.cpus)[job];
			starts.push_back(job);
		}
		return starts;
	}

	// What the whole queue holds of short jobs, for a plan of its head (starts_only).
	void tell_short_pending()
	{
		if (starts_only_ && jobs_.short_pending_cpus)
			keeper_.set_short_pending_cpus(jobs_.short_pending_cpus());
	}

	plan::PendingJob pending_of(uint32_t job) const
	{
		plan::PendingJob pending;
		fill_pending(pending, job);
		return pending;
	}

	// Sets every field pending_of sets (the others keep their defaults: none is ever set).
	void fill_pending(plan::PendingJob &pending, uint32_t job) const
	{
		pending.id = plan_id(job);
		pending.cpus = static_cast<int32_t>((*jobs_.cpus)[job]);
		pending.nodes_min = 1;
		pending.nodes_max = any_nodes_ ? 0 : 1; // -n K: any CPUs on any nodes
		pending.limit_s = jobs_.pending_estimate_s ? jobs_.pending_estimate_s(job)
		                                           : jobs_.estimate_s(job);
		pending.campaign_id = jobs_.campaign_of(job);
		if (jobs_.submit_s)
			pending.submit_s = jobs_.submit_s(job);
		if (reads_expected_run_ && jobs_.expected_run_s) // a prediction, each job each pass
			pending.expected_run_s = jobs_.expected_run_s(job);
	}

	plan::PlanKeeper keeper_;
	plan::Cluster cluster_;
	uint64_t free_cpus_;
	DispatchJobs jobs_;
	PlanDump dump_;
	// In start order (the same snapshot every run); kept across passes, as is pending_, so a
	// pass copies no job.
	std::vector<plan::RunningJob> running_;
	std::vector<plan::PendingJob> pending_;
	int64_t next_planned_start_s_ = -1;
	bool starts_only_;
	bool any_nodes_; // the machine as nodes: a job may span them
	// The planner reads PendingJob::expected_run_s only to tell short jobs by it.
	bool reads_expected_run_;
};

} // namespace

Result<std::unique_ptr<JobDispatch>> make_dispatch(uint32_t machine_cpus, BackfillKind kind,
                                                   plan::PlannerConfig config, DispatchJobs jobs,
                                                   MachineNodes nodes, PlanDump dump)
{
	if (machine_cpus == 0)
		return Error{"machine has 0 CPUs"};
	if (nodes.nodes > 0 && static_cast<uint64_t>(nodes.nodes) * nodes.node_cpus != machine_cpus)
		return Error{std::to_string(nodes.nodes) + " nodes x " +
		             std::to_string(nodes.node_cpus) + " CPUs are not the machine's " +
		             std::to_string(machine_cpus) + " CPUs"};
	const std::optional<plan::ReservationMode> mode = plan::reservation_mode_of(kind);
	if (!mode)
		return std::unique_ptr<JobDispatch>(
		    std::make_unique<QueueDispatch>(machine_cpus, std::move(jobs)));
	// sched/campaign's planner in every mode. per_campaign plans afresh every pass in both; the
	// simulator publishes no expected starts, so it stops placing below the last rank that can
	// start now (starts_only): the same starts as the plugin's whole plan, which
	// test_plans_match_plugin checks on random queues (with and without long jobs and the
	// room for short ones), at a fraction of the cost. So does easy without the room: its one
	// reservation is the first blocked job's earliest start, kept or made afresh (the same
	// test), and the fair-share baselines' easy plan of a queue of thousands was 12x the cost
	// of its head's. With the room the kept plan holds the room sized at its last fresh plan,
	// which a plan of the head would size again at every pass.
	config.mode = *mode;
	config.starts_only = *mode == plan::ReservationMode::per_campaign ||
	                     (*mode == plan::ReservationMode::easy && config.short_room <= 0);
	config.whole_node_reservations = kind == BackfillKind::slurm_backfill;
	return std::unique_ptr<JobDispatch>(std::make_unique<PlanDispatch>(
	    machine_cpus, config, std::move(jobs), nodes, std::move(dump)));
}

} // namespace campaign::sim
