// When Slurm's PriorityUsageResetPeriod clears association usage: at local midnight (daily), on
// Sunday at 00:00 (weekly), and at 00:00 on the first day of the month, quarter or year. One
// rule for the plugin's accounting and campsim. No Slurm types, no clock reads.
#pragma once

#include <cstdint>

namespace campaign
{

// Slurm's PRIORITY_RESET_* values, in the same order.
enum class UsageResetPeriod { none, now, daily, weekly, monthly, quarterly, yearly };

// The latest reset boundary at or before now_s (local time, as Slurm resets); 0 for none and now,
// which have no boundaries (now clears once, at start and reconfiguration).
int64_t latest_usage_reset(UsageResetPeriod period, int64_t now_s);

} // namespace campaign
