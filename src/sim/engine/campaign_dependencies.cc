// CampaignDependencies: per campaign, jobs sorted by the log's end; a job needs the prefix of
// those that ended before its submission, and is released once that prefix has completed.
#include "engine/campaign_dependencies.h"

#include <algorithm>

namespace campaign::sim
{

CampaignDependencies::CampaignDependencies(const Workload &workload,
                                           const std::vector<uint64_t> &campaigns,
                                           const std::vector<int64_t> &runtimes_s)
    : campaign_of_(campaigns), needed_(workload.jobs.size(), 0), position_(workload.jobs.size(), 0)
{
	auto log_end = [&](uint32_t job) {
		const SimJob &fields = workload.jobs[job];
		return fields.trace_start_s < 0 ? -1 : fields.trace_start_s + runtimes_s[job];
	};
	for (uint32_t job = 0; job < workload.jobs.size(); ++job)
		if (campaigns[job] != 0)
			campaigns_[campaigns[job]].by_log_end.push_back(job);
	for (auto &[id, campaign] : campaigns_) {
		std::vector<uint32_t> &jobs = campaign.by_log_end;
		std::stable_sort(jobs.begin(), jobs.end(),
		                 [&](uint32_t a, uint32_t b) { return log_end(a) < log_end(b); });
		campaign.done.assign(jobs.size(), false);
		std::vector<int64_t> ends;
		for (size_t i = 0; i < jobs.size(); ++i) {
			position_[jobs[i]] = static_cast<uint32_t>(i);
			ends.push_back(log_end(jobs[i]));
		}
		for (const uint32_t job : jobs) {
			const int64_t submit_s = workload.jobs[job].submit_s;
			if (workload.jobs[job].trace_start_s < 0)
				continue; // no log schedule: nothing to depend on
			// Jobs that ended strictly before this one was submitted (never itself: its
			// end is not before its submission). Unknown ends (-1) sort first: skip
			// them.
			const auto first_known = std::upper_bound(ends.begin(), ends.end(), -1);
			const auto before = std::lower_bound(first_known, ends.end(), submit_s);
			if (before == first_known)
				continue;
			needed_[job] = static_cast<uint32_t>(before - ends.begin());
			++dependent_jobs_;
		}
	}
}

bool CampaignDependencies::submit_now(uint32_t job)
{
	if (needed_[job] == 0)
		return true;
	Campaign &campaign = campaigns_.at(campaign_of_[job]);
	if (campaign.done_prefix >= needed_[job])
		return true;
	campaign.waiting.emplace(needed_[job], job);
	return false;
}

std::vector<uint32_t> CampaignDependencies::completed(uint32_t job)
{
	std::vector<uint32_t> released;
	auto found = campaigns_.find(campaign_of_[job]);
	if (campaign_of_[job] == 0 || found == campaigns_.end())
		return released;
	Campaign &campaign = found->second;
	campaign.done[position_[job]] = true;
	while (campaign.done_prefix < campaign.done.size() && campaign.done[campaign.done_prefix])
		++campaign.done_prefix;
	auto last = campaign.waiting.upper_bound(campaign.done_prefix);
	for (auto it = campaign.waiting.begin(); it != last; ++it)
		released.push_back(it->second);
	campaign.waiting.erase(campaign.waiting.begin(), last);
	std::sort(released.begin(), released.end());
	return released;
}

} // namespace campaign::sim
