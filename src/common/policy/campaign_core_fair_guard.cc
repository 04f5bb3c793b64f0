// starve_fair_factor: a guard against unbounded waits relative to each campaign's fair flow time.
// No Slurm types, no clock reads.
#include "policy/campaign_core.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace campaign
{

// A pending job that has waited more than starve_fair_factor times its campaign's fair flow time
// (its completion in OStrich's fluid schedule V less the campaign's start, at least
// starve_fair_floor_s) goes first, the most overdue (wait over fair flow) first, at most
// starve_campaigns of them; their campaigns' other jobs keep their place. A fixed wait
// (starve_after_s) is too weak at one load and too strong at the next; V's completion grows with
// the load, so the bound does too. The case it is for: short jobs with long limits of a light
// user, planned behind every wider job's reservation for days (CTC-SP2, doc/fairness-results.md).
void CampaignCore::move_unfair_waits_first(const std::vector<CampaignKey> &keys,
                                           Ranking &ranking) const
{
	const auto now = static_cast<double>(clock_s_);
	const auto floor = static_cast<double>(config_.starve_fair_floor_s);
	std::vector<std::pair<double, uint32_t>> overdue; // (-wait / fair flow, job id)
	for (const Job &job : jobs_) {
		if (job.state != JobState::Pending || job.held || job.admin_priority ||
		    job.eligible_s == kNoTime || job.campaign_slot >= keys.size())
			continue;
		const CampaignKey &key = keys[job.campaign_slot];
		if (key.campaign_id != job.campaign_id || !key.view.known)
			continue;
		const Campaign &campaign = campaigns_[job.campaign_slot];
		const double fair_flow_s = std::max(
		    floor, key.view.finish_s - static_cast<double>(campaign.first_eligible_s));
		const double wait_s = now - static_cast<double>(job.eligible_s);
		if (wait_s <= config_.starve_fair_factor * fair_flow_s)
			continue;
		const Domain &domain = domains_[groups_[campaign.group].domain];
		if (static_cast<double>(job.cpus) >
		    config_.starve_fair_width * projection_capacity(domain))
			continue;
		overdue.emplace_back(-wait_s / fair_flow_s, job.job_id);
	}
	move_most_overdue_first(overdue, ranking);
}

} // namespace campaign
