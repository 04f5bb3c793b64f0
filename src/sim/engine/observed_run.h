// The schedule a log records (each job's own start), as a run the metrics score like a
// simulated one: how a real cluster did, scored with campsim's code.
#pragma once

#include "engine/run_result.h"
#include "engine/simulation.h"
#include "trace/sim_job.h"
#include "util/result.h"

namespace campaign::sim
{

// Label "observed/log". Every job needs its logged start (sacct, job lists with start, SWF with
// a wait time); the error names the first job without one. A job runs min(run time, limit).
Result<RunResult> observed_run(const Workload &workload, const SimulationOptions &options);

} // namespace campaign::sim
