// The campaign listing scampaign shows, and its JSON form: one row per campaign, built by the
// priority plugin from the core after each pass. No Slurm types.
#pragma once

#include "policy/scheduler_metrics.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace campaign
{

struct CampaignRow {
	uint32_t uid = 0;
	std::string user;
	std::string account;
	std::string domain; // fairness domain (partition, or "cluster")
	uint64_t campaign_id = 0;
	uint32_t jobs_pending = 0;
	uint32_t jobs_running = 0;
	uint32_t jobs_done = 0;
	int64_t submit_s = 0;
	std::optional<int64_t> virtual_start_s;  // OStrich
	std::optional<int64_t> virtual_finish_s; // OStrich
	std::optional<int64_t> deadline_s;       // FairCamp
	double remaining_work_cpu_s = 0;
	double stretch = 0; // current stretch (elapsed or finished flow over ideal length)
};

struct CampaignReport {
	std::string policy;
	int64_t generated_s = 0;
	std::vector<CampaignRow> rows;
	// sched/campaign's figures; none when it is not the scheduler (JSON null).
	std::optional<SchedulerMetrics> scheduler;
};

std::string report_to_json(const CampaignReport &report);
Result<CampaignReport> report_from_json(const std::string &text);

} // namespace campaign
