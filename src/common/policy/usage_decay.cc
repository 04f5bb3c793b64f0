// Decayed usage: the closed forms of Slurm's documented half-life decay. No Slurm types.
#include "policy/usage_decay.h"

#include <cmath>
#include <numbers>

namespace campaign
{

double UsageDecay::factor(double elapsed_s) const
{
	if (half_life_s_ == 0 || elapsed_s <= 0)
		return 1;
	return std::exp2(-elapsed_s / static_cast<double>(half_life_s_));
}

double UsageDecay::accrued(double elapsed_s) const
{
	if (elapsed_s <= 0)
		return 0;
	if (half_life_s_ == 0)
		return elapsed_s;
	// (1 - 2^(-T/h)) * h / ln 2, with expm1 so that short intervals keep their precision.
	const double rate = std::numbers::ln2 / static_cast<double>(half_life_s_);
	return -std::expm1(-elapsed_s * rate) / rate;
}

double UsageDecay::period_charge(double elapsed_s) const
{
	if (elapsed_s <= 0)
		return 0;
	return elapsed_s * factor(elapsed_s);
}

} // namespace campaign
