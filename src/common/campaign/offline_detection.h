// Offline campaign detection on a trace with known end times (the thesis's MAX loop,
// generalised to the threshold and window rules). Written apart from the online detector so
// that tests can check both agree. No Slurm types.
#pragma once

#include "campaign/campaign_detector.h"

#include <cstdint>
#include <vector>

namespace campaign
{

struct TraceJob {
	uint32_t group = 0; // fairness unit x domain, numbered by the caller
	int64_t eligible_s = 0;
	int64_t end_s = 0; // >= eligible_s
};

// Campaign number (1, 2, ... in order of opening, over all groups) of every job, in the
// trace's order. `jobs` must be sorted by eligible_s; equal times keep the trace's order.
std::vector<uint64_t> detect_campaigns_offline(const std::vector<TraceJob> &jobs,
                                               const DetectionRule &rule);

} // namespace campaign
