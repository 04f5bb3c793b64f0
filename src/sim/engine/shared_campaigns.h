// The campaigns every policy is scored on, fixed before any run (doc/design.md §3, §5): the
// explicit campaigns of a closed-loop workload, or those the MAX rule finds in the log's own
// schedule.
#pragma once

#include "campaign/campaign_detector.h"
#include "trace/sim_job.h"

#include <cstdint>
#include <vector>

namespace campaign::sim
{

// Campaign id (1, 2, ...) of every job, in workload order. A trace job without the log's own
// start counts as started at submission. `runtimes_s` are the effective run times.
std::vector<uint64_t> shared_campaigns(const Workload &workload,
                                       const std::vector<int64_t> &runtimes_s,
                                       const DetectionRule &rule);

} // namespace campaign::sim
