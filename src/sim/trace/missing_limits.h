// A time limit for the jobs a log gives none (SWF -1 or 0, a job list's empty or -1 limit). By
// default campsim plans such a job by its run, a limit no user gives: on a log where most jobs
// have none (LLNL-Thunder's batch partition, OSC-Clust, SDSC-Par) every planner then knows those
// runs exactly, an oracle the fairness comparison is very sensitive to (doc/fairness-results.md,
// "Stop 71"). --missing-limit S gives them what a site's partition DefaultTime gives a job
// submitted without --time.
#pragma once

#include "trace/sim_job.h"

#include <cstdint>
#include <string>

namespace campaign::sim
{

struct MissingLimits {
	uint64_t given = 0;      // jobs without a limit, now limited
	uint64_t ran_longer = 0; // of them, those that ran longer than the default: given their run
	int64_t default_s = 0;   // the default limit given
};

// Every job with an unknown limit (limit_s < 0) gets max(default_limit_s, its run): a job that ran
// longer than the default must have asked for at least its run. default_limit_s >= 1.
MissingLimits give_missing_limits(Workload &workload, int64_t default_limit_s);

// One line for the workload's notes.
std::string missing_limits_note(const MissingLimits &given);

} // namespace campaign::sim
