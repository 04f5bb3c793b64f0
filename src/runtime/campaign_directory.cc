// The process-wide campaign directory.
#include "runtime/campaign_directory.h"

namespace campaign
{

void CampaignDirectory::publish(const std::vector<Entry> &entries)
{
	std::unordered_map<uint32_t, uint64_t> campaigns;
	campaigns.reserve(entries.size());
	for (const Entry &entry : entries)
		campaigns.emplace(entry.job_id, entry.campaign_id);
	std::lock_guard<std::mutex> hold(mutex_);
	campaigns_.swap(campaigns);
}

uint64_t CampaignDirectory::campaign_of(uint32_t job_id) const
{
	std::lock_guard<std::mutex> hold(mutex_);
	auto found = campaigns_.find(job_id);
	return found == campaigns_.end() ? 0 : found->second;
}

size_t CampaignDirectory::size() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return campaigns_.size();
}

void CampaignDirectory::clear()
{
	std::lock_guard<std::mutex> hold(mutex_);
	campaigns_.clear();
}

CampaignDirectory &process_campaign_directory()
{
	static CampaignDirectory directory;
	return directory;
}

} // namespace campaign
