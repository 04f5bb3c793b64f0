// CampaignScheduler: lock once per pass, copy what we publish, write files after unlocking.
#include "campaign_scheduler.h"

#include "backfill_stats.h"
#include "ctld_lock.h"
#include "job_starter.h"
#include "state_file.h"

#include <chrono>

namespace campaign::slurm {

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
	const bool changed = last_job_update != seen_job_update_ ||
			     last_node_update != seen_node_update_;
	if (!changed && now - last_pass_ < period_s())
		return false;
	seen_job_update_ = last_job_update;
	seen_node_update_ = last_node_update;
	last_pass_ = now;
	return true;
}

uint32_t CampaignScheduler::start_fitting_jobs(uint32_t max_starts, uint64_t &queue_length)
{
	List queue = build_job_queue(false, false);
	sort_job_queue(queue);
	queue_length = list_count(queue);
	std::vector<const part_record_t *> blocked; // partitions whose top job must wait
	uint32_t started = 0;
	while (auto *record = static_cast<job_queue_rec_t *>(list_pop(queue))) {
		job_record_t *job = record->job_ptr;
		part_record_t *partition = record->part_ptr;
		xfree(record);
		if (started >= max_starts ||
		    std::find(blocked.begin(), blocked.end(), partition) != blocked.end())
			continue;
		StartOutcome outcome = start_job_now(job, partition, max_starts - started);
		started += outcome.started;
		if (outcome.rc == ESLURM_NODES_BUSY)
			blocked.push_back(partition);
	}
	FREE_NULL_LIST(queue);
	return started;
}

void CampaignScheduler::tick()
{
	if (slurmctld_config.shutdown_time || slurmctld_config.scheduling_disabled)
		return;
	if (!due(time(nullptr)))
		return;
	uint32_t max_starts = 0;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		max_starts = static_cast<uint32_t>(parameters_.integer("campaign_max_starts"));
	}
	uint64_t queue_length = 0;
	uint32_t started = 0;
	std::string state_dir;
	uint64_t took_us = 0;
	set_cycle_active(true);
	{
		CtldLock hold(kSchedule);
		const auto locked = std::chrono::steady_clock::now();
		state_dir = slurm_conf.state_save_location ? slurm_conf.state_save_location : "";
		started = start_fitting_jobs(max_starts, queue_length);
		took_us = std::chrono::duration_cast<std::chrono::microseconds>(
				  std::chrono::steady_clock::now() - locked)
				  .count();
		record_cycle({.cycle_us = static_cast<uint32_t>(took_us),
			      .queue_length = static_cast<uint32_t>(queue_length),
			      .depth_tried = static_cast<uint32_t>(queue_length),
			      .jobs_started = started});
	}
	set_cycle_active(false);
	{
		std::lock_guard<std::mutex> hold(mutex_);
		stats_.passes++;
		stats_.jobs_started += started;
		stats_.last_pass_us = took_us;
		stats_.max_pass_us = std::max(stats_.max_pass_us, took_us);
		stats_.last_queue_length = queue_length;
	}
	log_flag(BACKFILL, "sched/campaign: pass over %lu queued jobs started %u in %lu us",
		 static_cast<unsigned long>(queue_length), started,
		 static_cast<unsigned long>(took_us));
	publish_stats(state_dir);
}

void CampaignScheduler::publish_stats(const std::string &state_dir) const
{
	const SchedulerStats now = stats();
	const std::string json = "{\"passes\": " + std::to_string(now.passes) +
				 ", \"jobs_started\": " + std::to_string(now.jobs_started) +
				 ", \"last_pass_us\": " + std::to_string(now.last_pass_us) +
				 ", \"max_pass_us\": " + std::to_string(now.max_pass_us) +
				 ", \"last_queue_length\": " +
				 std::to_string(now.last_queue_length) + "}\n";
	Status written = write_file_atomically(state_dir, "campaign_sched_stats.json", json);
	if (!written.ok())
		error("sched/campaign: %s", written.error().c_str());
}

} // namespace campaign::slurm
