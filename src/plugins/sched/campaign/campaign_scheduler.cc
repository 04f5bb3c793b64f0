// CampaignScheduler: copy under the locks, plan without them, start and publish under them
// again; write files after unlocking.
#include "campaign_scheduler.h"

#include "plan_snapshot.h"

#include "plan/planner.h"

#include "backfill_stats.h"
#include "ctld_lock.h"
#include "job_starter.h"
#include "runtime/state_file.h"

#include <chrono>
#include <unordered_map>

namespace campaign::slurm
{
namespace
{

plan::PlannerConfig planner_config(const ParameterValues &parameters)
{
	plan::PlannerConfig config;
	const std::string &mode = parameters.text("campaign_mode");
	config.mode = mode == "easy"           ? plan::ReservationMode::easy
	              : mode == "none"         ? plan::ReservationMode::none
	              : mode == "per_campaign" ? plan::ReservationMode::per_campaign
	                                       : plan::ReservationMode::conservative;
	config.depth = static_cast<int32_t>(parameters.integer("campaign_depth"));
	config.horizon_s = parameters.integer("campaign_horizon");
	return config;
}

// Starts `job` on the plan's nodes: the other nodes are excluded for the call, as
// sched/backfill's _start_job does, then the job's own exclusions are put back.
StartOutcome start_on(job_record_t *job, part_record_t *partition,
                      const std::vector<plan::NodeAllocation> &allocations)
{
	bitstr_t *saved = job->details->exc_node_bitmap;
	bitstr_t *excluded = node_bitmap_of(allocations);
	bit_not(excluded);
	if (saved)
		bit_or(excluded, saved);
	job->details->exc_node_bitmap = excluded;
	StartOutcome outcome = start_job_now(job, partition, 1);
	FREE_NULL_BITMAP(job->details->exc_node_bitmap);
	job->details->exc_node_bitmap = saved;
	return outcome;
}

// Forgets every pending job's published start and planned nodes, as backfill.c's
// _clear_job_estimates: build_job_queue zeroes start_time but keeps sched_nodes, so a job that
// lost its reservation would show its old nodes in squeue --start.
int clear_estimate(void *record, void *)
{
	auto *job = static_cast<job_record_t *>(record);
	if (IS_JOB_PENDING(job)) {
		job->start_time = 0;
		xfree(job->sched_nodes);
	}
	return SLURM_SUCCESS;
}

// Pending reasons as the main scheduler gives them (sched_interval=-1 leaves them to us): a
// job the plan reserved, or could not place, waits for Resources; one behind the reservations
// for Priority. Slurm's own reasons (held, dependency, limits, ...) are left alone. Not a job
// update for due(): a reason alone must not trigger another pass.
void publish_reason(job_record_t *job, plan::JobStatus status)
{
	const uint32_t current = job->state_reason;
	if (current != WAIT_NO_REASON && current != WAIT_RESOURCES && current != WAIT_PRIORITY)
		return;
	if (status == plan::JobStatus::starts_now || status == plan::JobStatus::refused)
		return;
	const uint32_t reason = status == plan::JobStatus::waiting ? WAIT_PRIORITY : WAIT_RESOURCES;
	if (current != reason) {
		job->state_reason = reason;
		xfree(job->state_desc);
	}
}

void publish_reservation(job_record_t *job, const plan::PlannedJob &planned)
{
	job->start_time = static_cast<time_t>(planned.start_s);
	xfree(job->sched_nodes);
	job->sched_nodes = node_names_of(planned.allocations);
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

SchedulerStats CampaignScheduler::stats() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return stats_;
}

bool CampaignScheduler::due(time_t now)
{
	// Unlocked reads of two time stamps, as sched/backfill's _more_work(): a stale value only
	// delays a pass by one tick.
	const bool changed =
	    last_job_update != seen_job_update_ || last_node_update != seen_node_update_;
	if (!changed && now - last_pass_ < period_s())
		return false;
	seen_job_update_ = last_job_update;
	seen_node_update_ = last_node_update;
	last_pass_ = now;
	return true;
}

// What crosses the unlocked planning step: plain values only.
struct CampaignScheduler::PassInput {
	PlanInput plan;
	std::vector<std::string> partitions; // plan.pending[i]'s partition, by name
	time_t now = 0;
	time_t conf_update = 0; // slurm.conf's last update: a reconfigure renumbers nodes
	uint32_t node_count = 0;
	std::string state_dir;
};

struct PlanOutcome {
	bool built = false;
	plan::Plan plan;
	std::vector<plan::PlannedJob> queue; // every pending job's status, rank order
};

CampaignScheduler::PassInput CampaignScheduler::snapshot_queue() const
{
	PassInput input;
	list_for_each(job_list, clear_estimate, nullptr);
	List queue = build_job_queue(true, false);
	sort_job_queue(queue);
	input.now = time(nullptr);
	input.plan = plan_input_from(queue, input.now);
	FREE_NULL_LIST(queue);
	for (part_record_t *partition : input.plan.partition_of)
		input.partitions.push_back(partition && partition->name ? partition->name : "");
	input.plan.partition_of.clear(); // valid under this lock only
	input.conf_update = slurm_conf.last_update;
	input.node_count = static_cast<uint32_t>(node_record_count);
	input.state_dir = slurm_conf.state_save_location ? slurm_conf.state_save_location : "";
	return input;
}

PlanOutcome CampaignScheduler::plan_queue(const PassInput &input, const ParameterValues &parameters)
{
	PlanOutcome outcome;
	const std::string wanted = parameters.describe();
	if (!keeper_ || keeper_parameters_ != wanted) {
		keeper_ = std::make_unique<plan::PlanKeeper>(planner_config(parameters));
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
	return outcome;
}

CampaignScheduler::PassFigures CampaignScheduler::apply_plan(const PassInput &input,
                                                             const PlanOutcome &outcome,
                                                             const ParameterValues &parameters)
{
	PassFigures figures;
	figures.queue_length = static_cast<uint32_t>(input.plan.pending.size());
	if (!outcome.built)
		return figures;
	if (slurm_conf.last_update != input.conf_update ||
	    static_cast<uint32_t>(node_record_count) != input.node_count) {
		log_flag(BACKFILL, "sched/campaign: reconfigured while planning: plan dropped");
		return figures;
	}
	const plan::Plan &plan = outcome.plan;
	std::unordered_map<plan::JobId, size_t> index;
	for (size_t i = 0; i < input.plan.pending.size(); i++)
		index[input.plan.pending[i].id] = i;
	const auto max_starts = static_cast<uint32_t>(parameters.integer("campaign_max_starts"));
	for (const plan::JobId id : plan.starts_now) {
		if (figures.started >= max_starts)
			break;
		// Found again by id: the job may have started, ended or moved while we planned.
		job_record_t *job = find_job_record(job_id_of(id));
		std::string name = input.partitions[index.at(id)];
		part_record_t *partition = name.empty() ? nullptr : find_part_record(name.data());
		if (!job || !IS_JOB_PENDING(job) || !job->details || !partition)
			continue;
		StartOutcome started = start_on(job, partition, plan.planned.at(id).allocations);
		figures.started += started.started;
		if (started.started) { // the kept plan books it as planned
			const int64_t limit_s = input.plan.pending[index.at(id)].limit_s;
			(void)keeper_->started(
			    {id, plan.planned.at(id).allocations, input.now + limit_s}, input.now);
		} else {
			// A refusal holds the job out of the plan for a while; one for licenses
			// need not: the next snapshot leaves it out for as long as its licenses are
			// taken.
			if (!started.licenses_busy)
				(void)keeper_->refused(id, input.now);
			figures.refused++;
			log_flag(BACKFILL, "sched/campaign: start of JobId=%u refused: %s",
			         job_id_of(id), slurm_strerror(started.rc));
		}
	}
	for (const auto &[id, planned] : plan.planned) {
		if (planned.status != plan::JobStatus::reserved || !first_task(id))
			continue;
		job_record_t *job = find_job_record(job_id_of(id));
		if (job && IS_JOB_PENDING(job)) {
			publish_reservation(job, planned);
			figures.reserved++;
		}
	}
	for (const plan::PlannedJob &queued : outcome.queue) {
		if (!first_task(queued.id))
			continue;
		job_record_t *job = find_job_record(job_id_of(queued.id));
		if (job && IS_JOB_PENDING(job))
			publish_reason(job, queued.status);
	}
	return figures;
}

void CampaignScheduler::tick()
{
	if (slurmctld_config.shutdown_time || slurmctld_config.scheduling_disabled)
		return;
	if (!due(time(nullptr)))
		return;
	ParameterValues parameters;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		parameters = parameters_;
	}
	set_cycle_active(true);
	const auto began = std::chrono::steady_clock::now();
	PassInput input;
	{
		CtldLock hold(kSchedule);
		input = snapshot_queue();
	}
	// The yield: planning, the costly step, holds no slurmctld lock.
	const PlanOutcome outcome = plan_queue(input, parameters);
	PassFigures figures;
	uint64_t took_us = 0;
	{
		CtldLock hold(kSchedule);
		figures = apply_plan(input, outcome, parameters);
		took_us = std::chrono::duration_cast<std::chrono::microseconds>(
		              std::chrono::steady_clock::now() - began)
		              .count();
		record_cycle({.cycle_us = static_cast<uint32_t>(took_us),
		              .queue_length = figures.queue_length,
		              .depth_tried = figures.queue_length,
		              .jobs_started = figures.started,
		              .plan_records = figures.reserved + figures.started});
	}
	set_cycle_active(false);
	const std::string &state_dir = input.state_dir;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		stats_.passes++;
		stats_.jobs_started += figures.started;
		stats_.refused += figures.refused;
		stats_.last_pass_us = took_us;
		stats_.max_pass_us = std::max(stats_.max_pass_us, took_us);
		stats_.last_queue_length = figures.queue_length;
		stats_.last_reserved = figures.reserved;
		if (keeper_) {
			stats_.plans_kept = keeper_->updates();
			stats_.plans_rebuilt = keeper_->rebuilds();
		}
	}
	log_flag(BACKFILL,
	         "sched/campaign: pass over %u queued jobs: %u started, %u reserved, %u refused, "
	         "%lu us",
	         figures.queue_length, figures.started, figures.reserved, figures.refused,
	         static_cast<unsigned long>(took_us));
	publish_stats(state_dir);
}

void CampaignScheduler::publish_stats(const std::string &state_dir) const
{
	const SchedulerStats now = stats();
	const std::string json =
	    "{\"passes\": " + std::to_string(now.passes) +
	    ", \"jobs_started\": " + std::to_string(now.jobs_started) +
	    ", \"last_pass_us\": " + std::to_string(now.last_pass_us) +
	    ", \"max_pass_us\": " + std::to_string(now.max_pass_us) +
	    ", \"last_queue_length\": " + std::to_string(now.last_queue_length) +
	    ", \"last_reserved\": " + std::to_string(now.last_reserved) +
	    ", \"refused\": " + std::to_string(now.refused) +
	    ", \"plans_kept\": " + std::to_string(now.plans_kept) +
	    ", \"plans_rebuilt\": " + std::to_string(now.plans_rebuilt) + "}\n";
	Status written = write_file_atomically(state_dir, "campaign_sched_stats.json", json);
	if (!written.ok())
		error("sched/campaign: %s", written.error().c_str());
}

} // namespace campaign::slurm
