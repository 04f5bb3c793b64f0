// starve_stretch: a guard against waits long against the job's own expected run time.
// No Slurm types, no clock reads.
#include "policy/campaign_core.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace campaign
{

namespace
{
// The least run time a stretch is taken over: the bounded stretch's tau (doc/fairness-results.md).
constexpr double kStretchFloorS = 10;
} // namespace

// A pending job whose stretch so far (1 + wait since eligible over its expected run time, the
// core's RuntimePredictor, at least 10 s) is at least starve_stretch, or with
// starve_stretch_scale=queue_median at least starve_stretch times the median of every pending
// job's, goes first, the most stretched first, at most starve_campaigns of them; their
// campaigns' other jobs keep their place. The case it is for: a short wide job (SDSC-SP2's
// 64-CPU runs of a minute) of a user backlogged in V, waiting weeks behind every newer
// campaign, which a fixed wait (starve_after_s) cannot tell from a long job and V's fair flow
// (starve_fair_factor) counts as fair. Against the queue's median the threshold rises with the
// load, where a fixed multiple would always find some job past it.
void CampaignCore::move_stretched_jobs_first(Ranking &ranking) const
{
	std::vector<std::pair<double, uint32_t>> stretched; // (-stretch, job id)
	for (const Job &job : jobs_) {
		if (job.state != JobState::Pending || job.held || job.admin_priority ||
		    job.eligible_s == kNoTime)
			continue;
		const double run_s =
		    std::max(kStretchFloorS,
		             static_cast<double>(predictor_.predict(job.user_id, job.limit_s)));
		const double wait_s = static_cast<double>(clock_s_ - job.eligible_s);
		stretched.emplace_back(-(1 + std::max(0.0, wait_s) / run_s), job.job_id);
	}
	if (stretched.empty())
		return;
	double threshold = config_.starve_stretch;
	if (config_.starve_stretch_of_median) {
		std::vector<double> stretches;
		stretches.reserve(stretched.size());
		for (const auto &entry : stretched)
			stretches.push_back(-entry.first);
		const auto middle =
		    stretches.begin() + static_cast<std::ptrdiff_t>(stretches.size() / 2);
		std::nth_element(stretches.begin(), middle, stretches.end());
		threshold *= *middle;
	}
	std::erase_if(stretched,
	              [threshold](const auto &entry) { return -entry.first < threshold; });
	move_most_overdue_first(stretched, ranking);
}

} // namespace campaign
