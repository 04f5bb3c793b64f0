// `campsim run`: every chosen policy on one workload, metrics side by side, files if asked.
#pragma once

#include "cli/campsim_options.h"
#include "engine/run_result.h"
#include "metrics/run_metrics.h"

#include <functional>
#include <map>
#include <vector>

namespace campaign::sim
{

struct PolicyRun {
	RunResult run;
	RunMetrics metrics;
};

// Runs `policies` on `workload` and scores each run. Errors name the policy.
Result<std::vector<PolicyRun>> run_policies(const Workload &workload,
                                            const std::vector<PolicyChoice> &policies,
                                            const SimulationOptions &base,
                                            const MetricOptions &metric_options, bool progress,
                                            unsigned parallel = 1);

int run_command(const CampsimOptions &options);

} // namespace campaign::sim
