// Reads a Standard Workload Format trace (Parallel Workloads Archive; plain or .gz) into a
// Workload, applying and stating the archive's conventions. No scheduling policy here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "trace/sim_job.h"
#include "util/result.h"

namespace campaign::sim
{

struct SwfOptions {
	std::optional<int64_t> from_s;        // keep jobs submitted at or after (log seconds)
	std::optional<int64_t> to_s;          // ... and before this
	bool lenient = false;                 // skip and count malformed lines instead of failing
	std::optional<uint32_t> machine_cpus; // overrides the MaxProcs/MaxNodes header
};

// Each data line is counted once, in the first of: every field -1, malformed (lenient only),
// outside the window, cancelled without run time, unknown run time, unknown CPUs; else it is
// kept. Kept jobs may also count as zero run time, limit 0 (read as unknown), status outside
// -1..5 (read as -1), requested time below run time (with the CPU-seconds lost), or clamped.
// Errors name the file and line ("trace.swf:12: field 4 (run time) is not a number: 'abc'").
Result<Workload> read_swf(const std::string &path, const SwfOptions &options);

} // namespace campaign::sim
