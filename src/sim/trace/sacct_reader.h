// Reads `sacct --parsable2` output (a site's own accounting) into a Workload: columns found by
// name, steps, array tasks, requeues and unfinished jobs handled and counted. No policy here.
#pragma once

#include <cstdint>
#include <string>

#include "trace/sim_job.h"
#include "trace/trace_options.h"
#include "util/result.h"

namespace campaign::sim
{

// The first line is sacct's header; columns are found by name, in any order. Needed: JobID,
// User, Submit, Start, End, State, AllocCPUS and Timelimit or TimelimitRaw; read when present:
// JobIDRaw (an array task's own id), Eligible (the arrival), ElapsedRaw or Elapsed (the run
// time, else End - Start), ReqCPUS, Account, Partition. Records of one JobID (--duplicates:
// a requeued job's runs) make one job: the last record's run, the first record's arrival.
// Each record is counted once, by the first of: step, earlier run of a requeued job, unfinished
// at export, outside the window, cancelled before it ran, unknown run time, unknown CPUs.
// Errors name the file, line and column ("a.txt:7: column Submit: 'x' is not a time ...").
Result<Workload> read_sacct(const std::string &path, const TraceOptions &options);

} // namespace campaign::sim
