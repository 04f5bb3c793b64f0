// How close a workload's time limits are to its jobs' runs. Backfilling sees the holes that early
// ends leave only as far as limits are near the runs, and that decides more of the fairness
// comparison than any ranking (doc/fairness-results.md, "Correction (stop 48)"), so campsim
// prints it with the input: a site reads it off its own month before it reads the table.
#pragma once

#include "trace/sim_job.h"

#include <cstdint>
#include <string>

namespace campaign::sim
{

struct LimitAccuracy {
	uint64_t jobs = 0;      // jobs with a known limit and a run longer than 0 s
	double used_part = 0;   // their run x CPUs over their limit x CPUs (runs cut at the limit)
	double median_part = 0; // the median job's run over its limit
	double under_tenth = 0; // part of those jobs whose run is under a tenth of the limit
};

LimitAccuracy limit_accuracy(const Workload &workload);

// One line for the workload's notes: "limits against runs: ...".
std::string limit_accuracy_note(const LimitAccuracy &accuracy);

} // namespace campaign::sim
