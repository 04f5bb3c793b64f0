// Dispatchers. The plan dispatcher keeps one Planner for the whole run and updates it in place
// when the new rank order only adds jobs to the one it holds; it re-plans from scratch when
// ranks changed, as sched/campaign would.
#include "engine/job_dispatch.h"

#include <unordered_map>

namespace campaign::sim
{

Result<BackfillKind> parse_backfill_kind(const std::string &name)
{
	for (BackfillKind kind : {BackfillKind::none, BackfillKind::greedy, BackfillKind::easy,
	                          BackfillKind::conservative, BackfillKind::per_campaign})
		if (name == to_string(kind))
			return kind;
	return Error{"backfill '" + name +
	             "': expected none, greedy, easy, conservative or per_campaign"};
}

const char *to_string(BackfillKind kind)
{
	switch (kind) {
	case BackfillKind::none:
		return "none";
	case BackfillKind::greedy:
		return "greedy";
	case BackfillKind::easy:
		return "easy";
	case BackfillKind::conservative:
		return "conservative";
	case BackfillKind::per_campaign:
		return "per_campaign";
	}
	return "?";
}

namespace
{

plan::JobId plan_id(uint32_t job)
{
	return static_cast<plan::JobId>(job) + 1;
}

// List scheduling on free CPUs: none stops at the first job that does not fit (no backfill),
// greedy skips it (every job that fits starts, no reservation protects anyone).
class QueueDispatch final : public JobDispatch
{
public:
	QueueDispatch(uint32_t machine_cpus, DispatchJobs jobs, bool skip)
	    : free_cpus_(machine_cpus), jobs_(std::move(jobs)), skip_(skip)
	{
	}
	Result<std::vector<uint32_t>> dispatch(const std::vector<uint32_t> &order, int64_t) override
	{
		std::vector<uint32_t> starts;
		for (uint32_t job : order) {
			const uint32_t cpus = (*jobs_.cpus)[job];
			if (free_cpus_ == 0)
				break;
			if (cpus > free_cpus_) {
				if (skip_)
					continue;
				break;
			}
			free_cpus_ -= cpus;
			starts.push_back(job);
		}
		return starts;
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
	bool skip_;
};

class PlanDispatch final : public JobDispatch
{
public:
	PlanDispatch(uint32_t machine_cpus, plan::PlannerConfig config, DispatchJobs jobs)
	    : planner_(config), free_cpus_(machine_cpus), jobs_(std::move(jobs)),
	      // per_campaign reserves later campaigns' heads while earlier campaigns' other jobs
	      // wait unprotected: a kept plan would keep such a head's booking ahead of them, where
	      // sched/campaign, which plans afresh each pass, lets the higher-ranked job go first.
	      rebuild_every_pass_(config.mode == plan::ReservationMode::per_campaign)
	{
		// One node of the whole machine: SWF traces count processors, not nodes.
		cluster_.nodes.push_back(
		    {"machine", static_cast<int32_t>(machine_cpus), 0, plan::NodeState::up});
	}

	Result<std::vector<uint32_t>> dispatch(const std::vector<uint32_t> &order,
	                                       int64_t now_s) override
	{
		if (Status synced = sync(order, now_s); !synced)
			return Error{synced.error()};
		const plan::Plan plan = planner_.plan(now_s);
		next_planned_start_s_ = -1;
		for (const auto &[id, planned] : plan.planned)
			if (planned.start_s > now_s &&
			    (next_planned_start_s_ < 0 || planned.start_s < next_planned_start_s_))
				next_planned_start_s_ = planned.start_s;
		std::vector<uint32_t> starts;
		for (plan::JobId id : plan.starts_now) {
			const uint32_t job = static_cast<uint32_t>(id - 1);
			plan::RunningJob running{id, plan.planned.at(id).allocations,
			                         now_s + jobs_.estimate_s(job)};
			if (Status started = planner_.job_started(running, now_s); !started)
				return Error{started.error()};
			running_.emplace(job, std::move(running));
			in_planner_[job] = 0;
			free_cpus_ -= (*jobs_.cpus)[job];
			starts.push_back(job);
		}
		return starts;
	}

	Status ended(uint32_t job, int64_t now_s) override
	{
		running_.erase(job);
		free_cpus_ += (*jobs_.cpus)[job];
		return planner_.job_ended(plan_id(job), now_s);
	}

	Status extended(uint32_t job, int64_t expected_end_s, int64_t) override
	{
		auto found = running_.find(job);
		if (found == running_.end())
			return Error{"job index " + std::to_string(job) +
			             " extended but not running"};
		found->second.expected_end_s = expected_end_s;
		rebuild_next_ = true;
		return ok_status();
	}
	uint64_t free_cpus() const override { return free_cpus_; }
	int64_t next_planned_start_s() const override { return next_planned_start_s_; }

private:
	plan::PendingJob pending(uint32_t job) const
	{
		plan::PendingJob pending;
		pending.id = plan_id(job);
		pending.cpus = static_cast<int32_t>((*jobs_.cpus)[job]);
		pending.nodes_min = 1;
		pending.nodes_max = 1;
		pending.limit_s = jobs_.estimate_s(job);
		pending.campaign_id = jobs_.campaign_of(job);
		return pending;
	}

	// Whether `order` keeps the planner's jobs in the planner's order (only new jobs added).
	bool only_adds(const std::vector<uint32_t> &order) const
	{
		size_t kept = 0, index = 0;
		for (uint32_t job : order) {
			if (job >= in_planner_.size() || !in_planner_[job])
				continue;
			while (index < planned_.size() && !in_planner_[planned_[index]])
				++index;
			if (index == planned_.size() || planned_[index] != job)
				return false;
			++index;
			++kept;
		}
		return kept == planner_.pending_count();
	}

	Status sync(const std::vector<uint32_t> &order, int64_t now_s)
	{
		for (uint32_t job : order)
			if (job >= in_planner_.size())
				in_planner_.resize(job + 1, 0);
		if (!rebuild_every_pass_ && !rebuild_next_ && only_adds(order)) {
			for (size_t k = order.size(); k-- > 0;) {
				const uint32_t job = order[k];
				if (in_planner_[job])
					continue;
				const plan::JobId before =
				    k + 1 < order.size() ? plan_id(order[k + 1]) : 0;
				if (Status added =
				        planner_.job_submitted(pending(job), now_s, before);
				    !added)
					return added;
				in_planner_[job] = 1;
			}
			planned_ = order;
			return ok_status();
		}
		return rebuild(order, now_s);
	}

	Status rebuild(const std::vector<uint32_t> &order, int64_t now_s)
	{
		std::vector<plan::RunningJob> running;
		running.reserve(running_.size());
		for (const auto &[job, record] : running_)
			running.push_back(record);
		std::vector<plan::PendingJob> queue;
		queue.reserve(order.size());
		for (uint32_t job : planned_)
			in_planner_[job] = 0;
		for (uint32_t job : order) {
			queue.push_back(pending(job));
			in_planner_[job] = 1;
		}
		planned_ = order;
		rebuild_next_ = false;
		return planner_.rebuild(cluster_, running, queue, now_s);
	}

	plan::Planner planner_;
	plan::Cluster cluster_;
	uint64_t free_cpus_;
	DispatchJobs jobs_;
	std::vector<uint32_t> planned_;   // pending jobs given to the planner, rank order
	std::vector<uint8_t> in_planner_; // by job: pending in the planner
	std::unordered_map<uint32_t, plan::RunningJob> running_;
	bool rebuild_next_ = true;
	bool rebuild_every_pass_;
	int64_t next_planned_start_s_ = -1;
};

} // namespace

Result<std::unique_ptr<JobDispatch>> make_dispatch(uint32_t machine_cpus, BackfillKind kind,
                                                   plan::PlannerConfig config, DispatchJobs jobs)
{
	if (machine_cpus == 0)
		return Error{"machine has 0 CPUs"};
	switch (kind) {
	case BackfillKind::none:
		return std::unique_ptr<JobDispatch>(
		    std::make_unique<QueueDispatch>(machine_cpus, std::move(jobs), false));
	case BackfillKind::greedy:
		return std::unique_ptr<JobDispatch>(
		    std::make_unique<QueueDispatch>(machine_cpus, std::move(jobs), true));
	case BackfillKind::easy:
		config.mode = plan::ReservationMode::easy;
		break;
	case BackfillKind::conservative:
		config.mode = plan::ReservationMode::conservative;
		break;
	case BackfillKind::per_campaign:
		config.mode = plan::ReservationMode::per_campaign;
		break;
	}
	return std::unique_ptr<JobDispatch>(
	    std::make_unique<PlanDispatch>(machine_cpus, config, std::move(jobs)));
}

} // namespace campaign::sim
