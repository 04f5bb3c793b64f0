// CampaignScheduler: copy under the locks, plan without them, start and publish under them
// again; write files after unlocking.
#include "campaign_scheduler.h"

#include "backfill_stats.h"
#include "ctld_lock.h"
#include "sched_pass.h"

#include "config/scheduler_parameters.h"
#include "plan/off_plan_nodes.h"
#include "plan/plan_text.h"
#include "plan/planner.h"
#include "runtime/scheduler_metrics_board.h"
#include "runtime/state_file.h"

#include <algorithm>
#include <chrono>
#include <unordered_map>

namespace campaign::slurm
{
namespace
{

// The partition of the node set the plan chose (a job queued in several partitions starts in
// the one it was planned in); "" when there is none (the start is then skipped).
std::string partition_of(const std::vector<std::string> &partitions, int32_t node_set)
{
	return node_set >= 0 && static_cast<size_t>(node_set) < partitions.size()
	           ? partitions[static_cast<size_t>(node_set)]
	           : std::string();
}

// The longest a job waits for a ranking after it became eligible: a stuck ranking thread never
// stalls the queue.
constexpr int64_t kRankingWaitS = 5;

// A job that became eligible after the snapshot of the ranking the queue was sorted by has its
// submit priority still: started now, it would start in job-id order (a begin time releases
// many at once) and defeat the policy. Eligibility is in whole seconds, so a job eligible in the
// snapshot's own second (a submission, or dependents released by a job's end, after the
// snapshot) waits too unless that ranking lists it. eligible_s 0: never waits (an admin-set
// priority).
bool awaits_ranking(int64_t eligible_s, uint32_t job_id, const CampaignDirectory::Stamp &stamp,
                    time_t now)
{
	if (eligible_s < stamp.snapshot_s || now >= eligible_s + kRankingWaitS)
		return false;
	return eligible_s > stamp.snapshot_s ||
	       process_campaign_directory().entry_of(job_id).job_id == 0;
}

} // namespace

CampaignScheduler::CampaignScheduler(ParameterValues parameters)
    : parameters_(std::move(parameters))
{
}

void CampaignScheduler::set_parameters(ParameterValues parameters)
{
	std::lock_guard<std::mutex> hold(mutex_);
	parameters_ = std::move(parameters);
}

int64_t CampaignScheduler::period_s() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return parameters_.integer("campaign_period");
}

std::chrono::milliseconds CampaignScheduler::min_gap() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return std::chrono::milliseconds(parameters_.integer("campaign_min_gap_ms"));
}

bool CampaignScheduler::due(Clock::time_point now, time_t wall_now)
{
	// The rate limit first: job ends inside one gap cost one pass.
	if (last_pass_began_ != Clock::time_point{} && now - last_pass_began_ < min_gap())
		return false;
	// Unlocked reads, as backfill's _more_work(): a stale value only delays a pass by a poll.
	const UpdateStamps stamps = update_stamps();
	const bool changed = !(stamps == seen_updates_);
	// Equal stamps of the copy's own second may hide a change made later in that second:
	// once that second is over, one pass looks.
	const bool hidden_change = !seen_second_checked_ && wall_now > seen_second_ &&
	                           (stamps.jobs >= seen_second_ || stamps.nodes >= seen_second_);
	const bool retry = retry_at_ && now >= *retry_at_;
	const bool ranked = ranking_wait_ && (wall_now >= ranking_wait_->until_s ||
	                                      process_campaign_directory().stamp().count !=
	                                          ranking_wait_->stamp_count);
	if (!changed && !hidden_change && !retry && !ranked && wall_now - last_pass_ < period_s())
		return false;
	if (hidden_change)
		seen_second_checked_ = true;
	last_pass_ = wall_now;
	last_pass_began_ = now;
	retry_at_.reset();
	ranking_wait_.reset();
	return true;
}

void CampaignScheduler::note_completing(bool nodes_completing, Clock::time_point began)
{
	if (!nodes_completing) {
		completing_passes_ = 0;
		return;
	}
	const auto cap = std::chrono::milliseconds(period_s() * 1000);
	auto delay = min_gap();
	for (uint32_t i = 0; i < completing_passes_ && delay < cap; i++)
		delay *= 2;
	completing_passes_++;
	retry_at_ = began + std::min(delay, cap);
}

struct PlanOutcome {
	bool built = false;
	plan::Plan plan;
	std::vector<plan::PlannedJob> queue; // every pending job's status, rank order
};

PlanOutcome CampaignScheduler::plan_queue(const PassInput &input, const ParameterValues &parameters)
{
	PlanOutcome outcome;
	const std::string wanted = parameters.describe();
	if (!keeper_ || keeper_parameters_ != wanted) {
		auto config = scheduler_plan_config(parameters);
		if (!config.ok()) { // the schema accepted the mode: an internal error
			error("sched/campaign: plan not built: %s", config.error().c_str());
			return outcome;
		}
		keeper_ = std::make_unique<plan::PlanKeeper>(config.value().planner);
		keeper_parameters_ = wanted;
	}
	const PlanInput &snapshot = input.plan;
	auto plan =
	    keeper_->update(snapshot.cluster, snapshot.running, snapshot.pending, input.now);
	if (!plan.ok()) {
		error("sched/campaign: plan not built: %s", plan.error().c_str());
		return outcome;
	}
	outcome.built = true;
	outcome.plan = std::move(plan).value();
	outcome.queue = keeper_->queue();
	// Planned starts and the room, as sched/backfill logs its map: campsim's --dump-plan
	// prints the same line, so a replay's plans can be compared pass by pass.
	if (plan_map_logged())
		log_plan_map(plan::describe_plan(outcome.plan, snapshot.running, snapshot.cluster,
		                                 keeper_->short_room_cpus()));
	return outcome;
}

CampaignScheduler::RankingSeen CampaignScheduler::ranking_seen()
{
	const CampaignDirectory &directory = process_campaign_directory();
	RankingSeen seen{.stamp = directory.stamp()};
	// No waker: no priority/campaign (multifactor ranks at submit). shadow=yes: no ranking
	// is applied, so none is worth waiting for.
	seen.holds = seen.stamp.applied && directory.has_ranking_waker();
	return seen;
}

CampaignScheduler::PassFigures CampaignScheduler::apply_plan(const PassInput &input,
                                                             const PlanOutcome &outcome,
                                                             const ParameterValues &parameters,
                                                             const RankingSeen &ranking)
{
	PassFigures figures;
	figures.queue_length = static_cast<uint32_t>(input.plan.pending.size());
	figures.left_out_by_reason = input.plan.left_out;
	if (!outcome.built)
		return figures;
	if (reconfigured_since(input)) {
		log_flag(BACKFILL, "sched/campaign: reconfigured while planning: plan dropped");
		return figures;
	}
	const plan::Plan &plan = outcome.plan;
	std::unordered_map<plan::JobId, size_t> index;
	for (size_t i = 0; i < input.plan.pending.size(); i++)
		index[input.plan.pending[i].id] = i;
	const auto max_starts = static_cast<uint32_t>(parameters.integer("campaign_max_starts"));
	plan::OffPlanNodes off_plan;
	// Array records refused in this pass (job id: whether for licenses): the record's other
	// planned tasks are the same record to select_nodes, refused for the same reason, so they
	// are held as it is, neither tried nor counted again.
	std::unordered_map<uint32_t, bool> refused_records;
	// Planned to start now, not started and not refused: their planned start is published
	// as a reserved job's is (squeue --start shows no N/A while they wait for a pass).
	std::vector<plan::JobId> not_started;
	std::optional<time_t> ranking_wait_until;
	for (const plan::JobId id : plan.starts_now) {
		if (figures.started >= max_starts) {
			not_started.push_back(id);
			continue;
		}
		if (auto refused = refused_records.find(job_id_of(id));
		    refused != refused_records.end()) {
			if (!refused->second)
				(void)keeper_->refused(id, input.now);
			continue;
		}
		const int64_t eligible_s = ranking.holds ? ranking_eligible_s(id) : 0;
		if (ranking.holds &&
		    awaits_ranking(eligible_s, job_id_of(id), ranking.stamp, input.now)) {
			// Planned (it keeps its place), started once a ranking lists it.
			figures.left_out_by_reason["AwaitingRanking"]++;
			const time_t until = static_cast<time_t>(eligible_s + kRankingWaitS);
			ranking_wait_until = std::min(ranking_wait_until.value_or(until), until);
			not_started.push_back(id);
			continue;
		}
		const plan::PlannedJob &planned = plan.planned.at(id);
		if (off_plan.touches(planned.allocations)) {
			// Planned on CPUs an earlier start of this pass took: the next pass plans
			// it from the allocations Slurm made.
			figures.left_out_by_reason["OffPlanNode"]++;
			not_started.push_back(id);
			continue;
		}
		std::optional<StartOutcome> outcome_of_start = start_planned(
		    id, partition_of(input.partitions[index.at(id)], planned.node_set),
		    planned.allocations,
		    planned.limit_s < input.plan.pending[index.at(id)].limit_s ? planned.limit_s
		                                                               : 0);
		if (!outcome_of_start) {
			not_started.push_back(id); // published only if it is still pending
			continue;                  // started, ended or moved while we planned
		}
		const StartOutcome &started = *outcome_of_start;
		figures.started += started.started;
		if (started.started) { // the kept plan books it as planned
			(void)keeper_->started(
			    {id, planned.allocations, input.now + planned.limit_s}, input.now);
			if (!started.allocated.empty())
				(void)off_plan.started(planned.allocations, started.allocated);
		} else if (started.nodes_completing) {
			// Not a refusal: it keeps its rank and starts once the node is done
			// completing (the next pass, as backfill.c's now + 1).
			figures.left_out_by_reason["NodeCompleting"]++;
			not_started.push_back(id);
		} else if (started.preempting) {
			// Slurm is removing the jobs it preempts for this one: no refusal, so it
			// keeps its rank and claim, and starts in a later pass once they are gone.
			figures.preempting++;
			log_flag(BACKFILL,
			         "sched/campaign: JobId=%u preempting: starts when its "
			         "preemptees are gone",
			         job_id_of(id));
			not_started.push_back(id);
		} else {
			// A refusal holds the job out of the plan for a while; one for licenses
			// need not: the next snapshot leaves it out for as long as its licenses are
			// taken.
			if (!started.licenses_busy)
				(void)keeper_->refused(id, input.now);
			refused_records.emplace(job_id_of(id), started.licenses_busy);
			figures.refused++;
			figures.refused_by_reason[started.refusal]++;
			// start_planned logged it, with the nodes and the reason
		}
	}
	for (const auto &[id, planned] : plan.planned) {
		if (planned.status != plan::JobStatus::reserved || !first_task(id))
			continue;
		if (publish_reservation(id, planned))
			figures.reserved++;
	}
	for (const plan::JobId id : not_started)
		if (first_task(id))
			(void)publish_reservation(id, plan.planned.at(id));
	if (ranking_wait_until) {
		ranking_wait_ = RankingWait{ranking.stamp.count, *ranking_wait_until};
		(void)process_campaign_directory().request_ranking();
	}
	for (const plan::PlannedJob &queued : outcome.queue) {
		if (!first_task(queued.id))
			continue;
		if (queued.status == plan::JobStatus::refused) // held out after a refusal
			figures.left_out_by_reason["HeldAfterRefusal"]++;
		publish_reason(queued.id, queued.status);
	}
	return figures;
}

void CampaignScheduler::tick()
{
	if (scheduling_stopped())
		return;
	const Clock::time_point began_at = Clock::now();
	if (!due(began_at, time(nullptr)))
		return;
	ParameterValues parameters;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		parameters = parameters_;
	}
	ActiveCycle active_cycle;
	const auto began = std::chrono::steady_clock::now();
	PassInput input;
	RankingSeen ranking;
	{
		CtldLock hold(kSchedule);
		seen_updates_ = update_stamps();
		seen_second_ = time(nullptr);
		seen_second_checked_ = false;
		input = copy_pass_input();
		ranking = ranking_seen();
	}
	note_completing(input.nodes_completing, began_at);
	// The yield: planning, the costly step, holds no slurmctld lock.
	PlanOutcome outcome = plan_queue(input, parameters);
	PassFigures figures;
	uint64_t took_us = 0;
	std::string state_dir;
	{
		CtldLock hold(kSchedule);
		figures = apply_plan(input, outcome, parameters, ranking);
		// The pass's copies (a record per array task) and its plan are freed inside its
		// timed cycle, so sdiag's cycle time holds all of the pass's work.
		state_dir = std::move(input.state_dir);
		input = PassInput{};
		outcome = PlanOutcome{};
		took_us = std::chrono::duration_cast<std::chrono::microseconds>(
		              std::chrono::steady_clock::now() - began)
		              .count();
		record_cycle({.cycle_us = static_cast<uint32_t>(took_us),
		              .queue_length = figures.queue_length,
		              .depth_tried = figures.queue_length,
		              .jobs_started = figures.started,
		              .plan_records = figures.reserved + figures.started});
	}
	active_cycle.end();
	SchedulerMetrics metrics;
	PlanFigures plan_figures;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		plan_figures_.last_reserved = figures.reserved;
		if (keeper_) {
			plan_figures_.plans_kept = keeper_->updates();
			plan_figures_.plans_rebuilt = keeper_->rebuilds();
		}
		plan_figures = plan_figures_;
		metrics_.add({.took_us = took_us,
		              .queue_length = figures.queue_length,
		              .started = figures.started,
		              .reserved = figures.reserved,
		              .refused = figures.refused_by_reason,
		              .left_out = figures.left_out_by_reason});
		metrics = metrics_.metrics();
	}
	// For scampaign, through priority/campaign's channel; no Slurm lock held here.
	process_scheduler_metrics().publish(metrics);
	log_flag(
	    BACKFILL,
	    "sched/campaign: pass over %u queued jobs: %u started, %u preempting, %u reserved, "
	    "%u refused, %lu us",
	    figures.queue_length, figures.started, figures.preempting, figures.reserved,
	    figures.refused, static_cast<unsigned long>(took_us));
	publish_stats(state_dir, metrics, plan_figures);
}

void CampaignScheduler::publish_stats(const std::string &state_dir, const SchedulerMetrics &metrics,
                                      const PlanFigures &plan)
{
	uint64_t refused = 0;
	for (const auto &[reason, count] : metrics.refused_total)
		refused += count;
	const std::string json =
	    "{\"passes\": " + std::to_string(metrics.passes) +
	    ", \"jobs_started\": " + std::to_string(metrics.jobs_started) +
	    ", \"last_pass_us\": " + std::to_string(metrics.last_pass_us) +
	    ", \"max_pass_us\": " + std::to_string(metrics.max_pass_us) +
	    ", \"last_queue_length\": " + std::to_string(metrics.last_queue_length) +
	    ", \"last_reserved\": " + std::to_string(plan.last_reserved) +
	    ", \"refused\": " + std::to_string(refused) +
	    ", \"plans_kept\": " + std::to_string(plan.plans_kept) +
	    ", \"plans_rebuilt\": " + std::to_string(plan.plans_rebuilt) +
	    ", \"by_reason\": " + scheduler_metrics_to_json(metrics) + "}\n";
	Status written = write_file_atomically(state_dir, "campaign_sched_stats.json", json);
	if (!written.ok())
		error("sched/campaign: %s", written.error().c_str());
}

} // namespace campaign::slurm
