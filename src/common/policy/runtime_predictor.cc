// The recent-runs predictor of job run times (work_estimate=recent). No Slurm types.
#include "policy/runtime_predictor.h"

#include <algorithm>
#include <cmath>

namespace campaign
{

double RuntimePredictor::fraction(uint32_t user_id) const
{
	const auto found = users_.find(user_id);
	if (found == users_.end() || found->second.runs == 0)
		return all_users_;
	const Recent &recent = found->second;
	return recent.runs == 1 ? recent.latest : (recent.latest + recent.previous) / 2;
}

int64_t RuntimePredictor::of_limit(double fraction, int64_t limit_s) const
{
	const auto predicted_s =
	    static_cast<int64_t>(std::ceil(fraction * static_cast<double>(limit_s)));
	return std::min(limit_s, std::max(predicted_s, floor_s_));
}

void RuntimePredictor::record(uint32_t user_id, int64_t runtime_s, int64_t limit_s)
{
	if (limit_s <= 0)
		return;
	const double fraction =
	    std::clamp(static_cast<double>(runtime_s) / static_cast<double>(limit_s), 0.0, 1.0);
	Recent &recent = users_[user_id];
	recent.previous = recent.latest;
	recent.latest = fraction;
	recent.runs = std::min<uint32_t>(2, recent.runs + 1);
	all_users_ += kAllUsersWeight * (fraction - all_users_);
}

} // namespace campaign
