// Online campaign detection: the threshold and window rules applied event by event. No Slurm
// types, no clock reads: every time is passed in.
#include "campaign/campaign_detector.h"

namespace campaign
{

bool joins_campaign(const DetectionRule &rule, const OpenCampaign &current, int64_t eligible_s)
{
	if (current.campaign_id == 0)
		return false;
	if (rule.kind == DetectionRule::Kind::Window)
		return eligible_s - current.first_eligible_s < rule.window_s;
	if (rule.max_span_s > 0 && eligible_s - current.first_eligible_s >= rule.max_span_s)
		return false;
	if (current.unfinished > 0)
		return true;
	if (current.latest_end_s == kNoTime)
		return false; // every job left without completing (held): nothing keeps it open
	return eligible_s - current.latest_end_s < rule.threshold_s;
}

OpenCampaign &CampaignDetector::group(uint32_t index)
{
	if (index >= groups_.size())
		groups_.resize(index + 1);
	return groups_[index];
}

CampaignDetector::Assignment CampaignDetector::job_eligible(uint32_t group_index,
                                                            int64_t eligible_s)
{
	OpenCampaign &current = group(group_index);
	Assignment assignment;
	if (!joins_campaign(rule_, current, eligible_s)) {
		current = OpenCampaign{};
		current.campaign_id = next_campaign_id_++;
		current.first_eligible_s = eligible_s;
		assignment.opened = true;
	}
	current.unfinished++;
	assignment.campaign_id = current.campaign_id;
	return assignment;
}

void CampaignDetector::job_left(uint32_t group_index, uint64_t campaign_id, int64_t end_s,
                                bool completed)
{
	OpenCampaign &current = group(group_index);
	if (current.campaign_id != campaign_id)
		return; // an older campaign: it no longer takes jobs
	if (current.unfinished > 0)
		current.unfinished--;
	if (completed && (current.latest_end_s == kNoTime || end_s > current.latest_end_s))
		current.latest_end_s = end_s;
}

void CampaignDetector::close(uint32_t group_index, uint64_t campaign_id)
{
	if (group_index < groups_.size() && groups_[group_index].campaign_id == campaign_id)
		groups_[group_index] =
		    OpenCampaign{}; // as a group with no campaign: the next opens
}

bool CampaignDetector::still_open(uint32_t group_index, uint64_t campaign_id, int64_t now_s) const
{
	if (group_index >= groups_.size() || groups_[group_index].campaign_id != campaign_id)
		return false;
	return joins_campaign(rule_, groups_[group_index], now_s);
}

void CampaignDetector::restore(std::vector<OpenCampaign> groups, uint64_t next_campaign_id)
{
	groups_ = std::move(groups);
	next_campaign_id_ = next_campaign_id;
}

} // namespace campaign
