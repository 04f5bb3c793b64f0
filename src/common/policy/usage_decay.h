// Decayed usage as Slurm's fair-share keeps it (PriorityDecayHalfLife): past usage halves every
// half-life, and usage accrued over an interval is decayed from each instant to the interval's end
// (campsim), or over the whole interval as multifactor charges a period (the plugin).
// One model for the plugin's association accounting and campsim's fair-share baselines. No Slurm
// types.
#pragma once

#include <cstdint>

namespace campaign
{

class UsageDecay
{
public:
	// half_life_s 0: no decay (usage only grows until reset).
	explicit UsageDecay(int64_t half_life_s) : half_life_s_(half_life_s > 0 ? half_life_s : 0)
	{
	}

	// What one unit of usage is worth elapsed_s later: 2^(-elapsed / half-life).
	double factor(double elapsed_s) const;
	// Usage of one unit per second running over elapsed_s, as valued at the interval's end:
	// the integral of 2^(-(T - t) / half-life) over [0, T] (T itself without decay).
	double accrued(double elapsed_s) const;
	// The same run as Slurm's priority/multifactor values it at each PriorityCalcPeriod pass
	// and at job end: every second of the interval decayed over the whole interval, elapsed *
	// 2^(-elapsed / half-life). A little below accrued() (1.2 % at a minute and a 30-minute
	// half-life); the plugin charges so, for sshare to read as under multifactor.
	double period_charge(double elapsed_s) const;
	int64_t half_life_s() const { return half_life_s_; }

private:
	int64_t half_life_s_;
};

} // namespace campaign
