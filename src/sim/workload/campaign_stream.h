// The papers' closed-loop job stream: each job opens a new campaign with a fixed probability or
// joins the previous one; the generator says who owns a campaign and how long a job runs.
// No profile or ownership law here (see ostrich_profiles.h, faircamp_zipf.h).
#pragma once

#include "trace/sim_job.h"
#include "workload/seeded_draws.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace campaign::sim
{

struct CampaignStreamSpec {
	uint64_t jobs = 0;
	double new_campaign_probability = 0;
};

// Draws, per job in order: the new-campaign chance (not for the first job, which always opens
// campaign 1), then the owner if a campaign opens, then the run time. Every job is a
// single-CPU closed-loop job: id = 1, 2, ...; campaign = 1, 2, ... in opening order;
// submit_s = 0 (the engine releases campaigns); think_s = 0; limit_s = runtime_s (exact).
std::vector<SimJob>
draw_campaign_stream(SeededDraws &draws, const CampaignStreamSpec &spec,
                     const std::function<uint32_t()> &draw_owner,
                     const std::function<int64_t(uint32_t user)> &draw_runtime_s);

// A closed-loop workload around `jobs`, with its counts filled in.
Workload closed_loop_workload(std::string name, uint32_t machine_cpus, std::vector<SimJob> jobs,
                              std::vector<std::string> notes);

} // namespace campaign::sim
