// A time limit for the jobs a log gives none (SWF -1 or 0, a job list's -1 or 0). By
// default campsim plans such a job by its run, a limit no user gives: on a log where most jobs
// have none (LLNL-Thunder's batch partition, OSC-Clust, SDSC-Par, NASA-iPSC) every planner then
// knows those runs exactly, an oracle the fairness comparison is very sensitive to
// (doc/fairness-results.md, "Stop 71"). --missing-limit S[,M] gives them what a site's partition
// gives a job submitted without --time: DefaultTime S, and to a job that ran longer what its user
// would have asked for instead (M: a partition's MaxTime, or the log's longest run).
#pragma once

#include "trace/sim_job.h"

#include <cstdint>
#include <string>

namespace campaign::sim
{

// Read from --missing-limit "S", "S,M" or "S,max" (cli/campsim_options.cc).
struct MissingLimitRule {
	int64_t default_s = 0; // S: the limit of a job that ran at most this long (>= 1)
	// M: the limit of one that ran longer; 0: its own run; never below its run or S.
	int64_t longer_s = 0;
	bool longer_is_longest_run = false; // M is the longest run in the log (`max`)
};

struct MissingLimits {
	MissingLimitRule rule;
	uint64_t given = 0;      // jobs without a limit, now limited
	uint64_t ran_longer = 0; // of them, those that ran longer than S
	int64_t longer_s = 0;    // M as applied (the longest run for `max`); 0: their runs
};

// Every job with an unknown limit (limit_s < 0) gets S if it ran at most S, else max(M, its run)
// (its run when M is 0): a job that ran longer than its limit would have been ended there.
MissingLimits give_missing_limits(Workload &workload, const MissingLimitRule &rule);

// One line for the workload's notes.
std::string missing_limits_note(const MissingLimits &given);

// Without --missing-limit: a note saying how many jobs give no limit and that they are planned by
// their runs; empty when every job gives one.
std::string unknown_limits_note(const Workload &workload);

} // namespace campaign::sim
