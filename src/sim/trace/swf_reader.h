// Reads a Standard Workload Format trace (Parallel Workloads Archive; plain or .gz) into a
// Workload, applying and stating the archive's conventions. No scheduling policy here.
#pragma once

#include <cstdint>
#include <string>

#include "trace/sim_job.h"
#include "trace/trace_options.h"
#include "util/result.h"

namespace campaign::sim
{

// Each data line is counted once, in the first of: every field -1, malformed (lenient only),
// unknown submit time, outside the window, cancelled without run time, unknown run time, unknown
// CPUs; else it is kept. Kept jobs may also count as zero run time, limit 0 (read as unknown),
// status outside -1..5 (read as -1), requested time below run time (with the CPU-seconds lost), or
// clamped. Errors name the file and line ("trace.swf:12: field 4 (run time) is not a number:
// 'abc'").
Result<Workload> read_swf(const std::string &path, const TraceOptions &options);

} // namespace campaign::sim
