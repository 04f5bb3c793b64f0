// CampaignScheduler: lock once per pass, plan and start under it, write files after unlocking.
#include "campaign_scheduler.h"

#include "plan_snapshot.h"

#include "plan/planner.h"

#include "backfill_stats.h"
#include "ctld_lock.h"
#include "job_starter.h"
#include "state_file.h"

#include <chrono>

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

CampaignScheduler::PassFigures CampaignScheduler::plan_and_start(const ParameterValues &parameters)
{
	PassFigures figures;
	list_for_each(job_list, clear_estimate, nullptr);
	List queue = build_job_queue(true, false);
	sort_job_queue(queue);
	const time_t now = time(nullptr);
	PlanInput input = plan_input_from(queue, now);
	FREE_NULL_LIST(queue);
	figures.queue_length = static_cast<uint32_t>(input.pending.size());

	plan::Planner planner(planner_config(parameters));
	Status built = planner.rebuild(input.cluster, input.running, input.pending, now);
	if (!built.ok()) {
		error("sched/campaign: plan not built: %s", built.error().c_str());
		return figures;
	}
	const plan::Plan plan = planner.plan(now);
	std::unordered_map<plan::JobId, size_t> index;
	for (size_t i = 0; i < input.pending.size(); i++)
		index[input.pending[i].id] = i;

	const auto max_starts = static_cast<uint32_t>(parameters.integer("campaign_max_starts"));
	for (const plan::JobId id : plan.starts_now) {
		if (figures.started >= max_starts)
			break;
		job_record_t *job = find_job_record(job_id_of(id));
		if (!job || !IS_JOB_PENDING(job) || !job->details)
			continue;
		StartOutcome outcome = start_on(job, input.partition_of[index.at(id)],
		                                plan.planned.at(id).allocations);
		figures.started += outcome.started;
		if (!outcome.started) {
			figures.refused++;
			log_flag(BACKFILL, "sched/campaign: start of JobId=%u refused: %s",
			         job_id_of(id), slurm_strerror(outcome.rc));
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
	PassFigures figures;
	std::string state_dir;
	uint64_t took_us = 0;
	set_cycle_active(true);
	{
		CtldLock hold(kSchedule);
		const auto locked = std::chrono::steady_clock::now();
		state_dir = slurm_conf.state_save_location ? slurm_conf.state_save_location : "";
		figures = plan_and_start(parameters);
		took_us = std::chrono::duration_cast<std::chrono::microseconds>(
		              std::chrono::steady_clock::now() - locked)
		              .count();
		record_cycle({.cycle_us = static_cast<uint32_t>(took_us),
		              .queue_length = figures.queue_length,
		              .depth_tried = figures.queue_length,
		              .jobs_started = figures.started,
		              .plan_records = figures.reserved + figures.started});
	}
	set_cycle_active(false);
	{
		std::lock_guard<std::mutex> hold(mutex_);
		stats_.passes++;
		stats_.jobs_started += figures.started;
		stats_.refused += figures.refused;
		stats_.last_pass_us = took_us;
		stats_.max_pass_us = std::max(stats_.max_pass_us, took_us);
		stats_.last_queue_length = figures.queue_length;
		stats_.last_reserved = figures.reserved;
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
	    ", \"refused\": " + std::to_string(now.refused) + "}\n";
	Status written = write_file_atomically(state_dir, "campaign_sched_stats.json", json);
	if (!written.ok())
		error("sched/campaign: %s", written.error().c_str());
}

} // namespace campaign::slurm
