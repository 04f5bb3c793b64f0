// Offered load of a trace and its rescaling (campsim run --load): the log replayed with its
// inter-arrival times stretched or compressed by one factor so that the work offered per second
// is a given fraction of the machine. Each job keeps its log submission for the shared campaigns,
// so every load scores the same campaigns.
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>
#include <vector>

namespace campaign::sim
{

// CPU-seconds of the run times (as replayed: cut at known limits) over the machine's CPU-seconds
// between the first and the last submission; 0 when the span is empty.
double offered_load(const Workload &workload, const std::vector<int64_t> &runtimes_s);

// Every submission t becomes first + (t - first) * offered / target (rounded to the second), the
// log's own time kept in log_submit_s, and a note says by how much. Refuses a closed-loop
// workload and a trace whose offered load cannot be measured.
Status scale_to_load(Workload &workload, double target);

} // namespace campaign::sim
