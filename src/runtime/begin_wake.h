// When priority/campaign's worker wakes for a begin time (sbatch --begin): a job becomes eligible
// at a whole second, and a ranking pass aimed just into that second ranks it before
// sched/campaign starts it at its submit priority. Pure: the clock reading is an argument.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

namespace campaign
{

// How far into the begin time's second the pass is aimed: past the second's start, so that
// time() reads that second and the job counts as eligible.
inline constexpr std::chrono::milliseconds kBeginWakeOffset{20};

// The delay from `now` to kBeginWakeOffset into second `begin_s` (epoch seconds), 0 when that
// moment has passed; nullopt when it is further than `period_s` (the worker's own pass comes
// first, and computes again). Compared in whole seconds before any time_point is made: a begin
// time centuries ahead (a --begin typo) must not overflow system_clock's nanoseconds.
std::optional<std::chrono::milliseconds> begin_wake_delay(std::chrono::system_clock::time_point now,
                                                          int64_t begin_s, int64_t period_s);

} // namespace campaign
