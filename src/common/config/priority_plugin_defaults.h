// priority/campaign's own defaults that campsim models too: the one place for them
// (src/runtime/priority_plugin_parameters.cc prints them, SimulationOptions starts from them;
// test_defaults_match_plugin fails if the two drift).
#pragma once

#include <cstdint>

namespace campaign::priority_plugin_defaults
{

// Seconds between full re-rank passes (PriorityParameters calc_period).
inline constexpr int64_t calc_period_s = 5;

} // namespace campaign::priority_plugin_defaults
