// Reads a plain job list (CSV with a header, or JSON) such as the cluster tests capture from
// Slurm, into a Workload, so campsim can be checked against the real cluster. No policy here.
#pragma once

#include <cstdint>
#include <string>

#include "trace/sim_job.h"
#include "trace/trace_options.h"
#include "util/result.h"

namespace campaign::sim
{

// Keys (CSV header columns or JSON object members): id, user, submit, cpus, limit required;
// start, end, runtime, account (or group) optional; others ignored. Times are integer seconds,
// -1 or empty/null for unknown. User and account are numbers or names (names numbered 1, 2, ...
// in order of first appearance). JSON when the first non-blank character is '[' (an array of
// jobs) or '{' ({"machine_cpus": N, "jobs": [...]}), else CSV. Run time: end - start where both
// are given, else runtime, else limit. Errors name the file and line (CSV) or jobs[index] (JSON).
Result<Workload> read_job_list(const std::string &path, const TraceOptions &options);

} // namespace campaign::sim
