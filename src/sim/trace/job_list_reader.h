// Reads a plain job list (CSV with a header, or JSON) such as the cluster tests capture from
// Slurm, into a Workload, so campsim can be checked against the real cluster. No policy here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "trace/sim_job.h"
#include "util/result.h"

namespace campaign::sim
{

struct JobListOptions {
	std::optional<uint32_t> machine_cpus; // required unless the JSON gives it; overrides it
	std::optional<int64_t> from_s;        // keep jobs submitted at or after
	std::optional<int64_t> to_s;          // ... and before this
	bool lenient = false;                 // skip and count malformed jobs instead of failing
};

// Keys (CSV header columns or JSON object members): id, user, submit, cpus, limit required;
// start, end, runtime, account (or group) optional; others ignored. Times are integer seconds,
// -1 or empty/null for unknown. User and account are numbers or names (names numbered 1, 2, ...
// in order of first appearance). JSON when the first non-blank character is '[' (an array of
// jobs) or '{' ({"machine_cpus": N, "jobs": [...]}), else CSV. Run time: end - start where both
// are given, else runtime, else limit. Errors name the file and line (CSV) or jobs[index] (JSON).
Result<Workload> read_job_list(const std::string &path, const JobListOptions &options);

} // namespace campaign::sim
