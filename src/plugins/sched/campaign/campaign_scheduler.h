// The sched/campaign pass: walk Slurm's sorted job queue under the scheduler locks and start,
// through select_nodes, every job that fits now, in priority order per partition.
#pragma once

#include "slurm_api.h"

#include "util/parameters.h"

#include <ctime>

namespace campaign::slurm {

struct SchedulerStats {
	uint64_t passes = 0;
	uint64_t jobs_started = 0;
	uint64_t last_pass_us = 0;
	uint64_t max_pass_us = 0;
	uint64_t last_queue_length = 0;
};

class CampaignScheduler {
public:
	explicit CampaignScheduler(ParameterValues parameters);

	// Called every tick by the plugin thread; plans only when something changed or the
	// period elapsed. Takes and releases the slurmctld locks itself.
	void tick();
	void set_parameters(ParameterValues parameters);
	int64_t period_s() const;
	SchedulerStats stats() const;

private:
	bool due(time_t now);
	uint32_t start_fitting_jobs(uint32_t max_starts, uint64_t &queue_length);
	void publish_stats(const std::string &state_dir) const;

	mutable std::mutex mutex_;
	ParameterValues parameters_;
	SchedulerStats stats_;
	time_t last_pass_ = 0;
	time_t seen_job_update_ = 0;
	time_t seen_node_update_ = 0;
};

} // namespace campaign::slurm
