// The log's own schedule as a RunResult.
#include "engine/observed_run.h"

#include "engine/estimates.h"
#include "engine/shared_campaigns.h"

#include <algorithm>

namespace campaign::sim
{

Result<RunResult> observed_run(const Workload &workload, const SimulationOptions &options)
{
	if (workload.closed_loop)
		return Error{"observed: " + workload.name +
		             " is generated (closed loop): it has no logged schedule"};
	const std::vector<int64_t> runtimes_s = effective_runtimes(workload);
	const std::vector<uint64_t> campaigns =
	    shared_campaigns(workload, runtimes_s, options.scoring_rule);
	RunResult run;
	run.label = "observed/log";
	run.priority = "observed";
	run.backfill = "log";
	run.estimate = to_string(options.estimate.kind);
	run.machine_cpus = workload.machine_cpus;
	run.jobs.reserve(workload.jobs.size());
	for (uint32_t index = 0; index < workload.jobs.size(); ++index) {
		const SimJob &job = workload.jobs[index];
		if (job.trace_start_s < 0)
			return Error{"observed: " + workload.name + ": job " +
			             std::to_string(job.id) + " has no logged start"};
		JobOutcome outcome;
		outcome.job = index;
		outcome.submit_s = job.submit_s;
		// A start logged before the arrival (sacct rounds to seconds) counts from the
		// arrival.
		outcome.start_s = std::max(job.trace_start_s, job.submit_s);
		outcome.end_s = outcome.start_s + runtimes_s[index];
		outcome.campaign = campaigns[index];
		run.jobs.push_back(outcome);
	}
	return run;
}

} // namespace campaign::sim
