// What sched/campaign plans with when SchedulerParameters name nothing: the one place for these
// values. The SchedulerParameters schema (config/scheduler_parameters.cc) prints them as its
// defaults, and campsim's SimulationOptions start from them, so the plugin and the simulator run
// the same default (test_scheduler_defaults fails if the two drift).
#pragma once

#include <cstdint>

#include "plan/plan_types.h"

namespace campaign::plan::scheduler_defaults
{

inline constexpr int32_t depth = 1000;
inline constexpr int64_t horizon_s = 7 * 86400;
// The room for short jobs, sized by the short jobs a plan could not start in the last 6 hours,
// at most 5 % of the CPUs (whole CPUs, rounded down: none below 20 CPUs). Chosen on the tuning
// logs (KTH-SP2, CTC-SP2) and checked on the held-out ones: doc/fairness-results.md.
inline constexpr double short_room = 0.05;
inline constexpr int64_t short_limit_s = 3600;
inline constexpr double short_room_wide = 1;
inline constexpr int64_t short_room_recent_s = 6 * 3600;
inline constexpr ShortRoomDemand short_room_demand = ShortRoomDemand::blocked;
inline constexpr bool short_by_expected = false; // campaign_short_room_by=limit
inline constexpr int32_t local_search_iterations = 0;
inline constexpr int64_t local_search_ms = 100;
inline constexpr int64_t freeze_slip_s = 0;      // campaign_freeze_slip: off
inline constexpr double freeze_wide = 0;         // campaign_freeze_wide: any job
inline constexpr bool freeze_keeps_room = false; // campaign_freeze_room=now
inline constexpr int32_t freeze_skip_first = 0;  // campaign_freeze_skip_first: none

} // namespace campaign::plan::scheduler_defaults
