// Loads the workload campsim's options name: a trace, a job list or a generated instance.
#pragma once

#include "cli/campsim_options.h"
#include "trace/sim_job.h"

#include <map>
#include <string>

namespace campaign::sim
{

struct LoadedWorkload {
	Workload workload;
	std::map<uint32_t, std::string> user_profiles; // ostrich-profiles: short/long per user
};

Result<LoadedWorkload> load_workload(const CampsimOptions &options);

} // namespace campaign::sim
