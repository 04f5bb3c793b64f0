// The end of a running job of a reservation: Slurm ends it at the reservation's end plus
// ResvOverRun (job_time_limit), before its own limit when that runs on longer.
#pragma once

#include "plan/plan_types.h"

#include <vector>

namespace campaign::plan
{

// Each job with a window_id found in `windows` is planned to end by that window's end plus its
// overrun_s (not before now_s + 1, as an overrunning job). Jobs of windows not listed (ended)
// keep their end.
void end_with_windows(std::vector<RunningJob> &running,
                      const std::vector<UnavailableWindow> &windows, int64_t now_s);

} // namespace campaign::plan
