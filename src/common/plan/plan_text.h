// One line describing a plan, for the scheduler's debug log (sched/campaign's BackfillMap) and
// campsim's plan dump, in the same words so the two can be compared pass by pass.
#pragma once

#include "plan/plan_types.h"

#include <string>
#include <vector>

namespace campaign::plan
{

// "room=R running=ID>+E,... planned=ID@+S/L:NODExCPUS+...,..." with times in seconds from
// plan.now_s: each running job's expected end (sorted by end), then each planned job's start,
// limit and allocations (sorted by start, then id), node names from `cluster`.
// `room_cpus`: the room for short jobs at this plan.
std::string describe_plan(const Plan &plan, const std::vector<RunningJob> &running,
                          const Cluster &cluster, int64_t room_cpus);

} // namespace campaign::plan
