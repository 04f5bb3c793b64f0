// campsim's command line: parsed into plain options, every bad option or value an error that
// names it. No simulation here.
#pragma once

#include "engine/simulation.h"
#include "trace/missing_limits.h"
#include "util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace campaign::sim
{

struct PolicyChoice {
	std::string priority;
	BackfillKind backfill = BackfillKind::per_campaign;
	std::string label() const;
};

struct CampsimOptions {
	std::string command;                // run, rank, replay-plan, reproduce, help
	std::vector<std::string> arguments; // the whole command line as given, for run files
	// Workload: exactly one of these.
	std::string swf_path, jobs_path, sacct_path, generator;
	uint32_t users = 20;
	uint64_t seed = 1;
	uint64_t job_count = 10000;
	std::optional<uint32_t> machine_cpus;
	std::optional<int64_t> from_s, to_s;
	bool lenient = false;
	// --missing-limit: the limits of jobs the log gives none (trace/missing_limits.h); unset:
	// their runs.
	std::optional<MissingLimitRule> missing_limit;
	bool anonymise = false;     // --sacct: user names -> u1, u2, ...
	bool dependencies = false;  // -> simulation.dependencies
	bool rank_lag = false;      // -> simulation.rank_lag
	std::optional<double> load; // run --load: inter-arrival times scaled to this offered load
	// Policies.
	std::vector<PolicyChoice> policies;
	SimulationOptions simulation; // priority and backfill set per policy
	// Output.
	std::string out_dir;
	bool plots = false;
	bool progress = false;
	unsigned parallel = 1; // run: policies simulated at once (threads)
	// rank
	std::optional<int64_t> at_s;
	std::string rank_policy = "ostrich"; // a core policy: fifo, ostrich, faircamp
	// run --observed: the log's own schedule scored beside the policies (first row)
	bool observed = false;
	double tau_s = 10; // --tau: MetricOptions' bounded slowdown and campaign stretch floor
	// replay-plan: the local cluster and the mapping (replay/replay_plan.h)
	uint32_t replay_nodes = 0, replay_node_cpus = 0;
	double compression = 0;
	std::string cpu_map = "scale", wide = "drop", user_prefix = "rp";
	// reproduce NAME
	std::string experiment;
	uint32_t instances = 0; // 0: the experiment's own count
};

// argv without the program name.
Result<CampsimOptions> parse_campsim_options(const std::vector<std::string> &arguments);
const char *campsim_usage();

} // namespace campaign::sim
