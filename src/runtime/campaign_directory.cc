// The process-wide campaign directory.
#include "runtime/campaign_directory.h"

namespace campaign
{

void CampaignDirectory::publish(const std::vector<Entry> &entries)
{
	std::unordered_map<uint32_t, Entry> published;
	published.reserve(entries.size());
	for (const Entry &entry : entries)
		published.emplace(entry.job_id, entry);
	std::lock_guard<std::mutex> hold(mutex_);
	entries_.swap(published);
}

uint64_t CampaignDirectory::campaign_of(uint32_t job_id) const
{
	return entry_of(job_id).campaign_id;
}

CampaignDirectory::Entry CampaignDirectory::entry_of(uint32_t job_id) const
{
	std::lock_guard<std::mutex> hold(mutex_);
	auto found = entries_.find(job_id);
	return found == entries_.end() ? Entry{} : found->second;
}

size_t CampaignDirectory::size() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return entries_.size();
}

void CampaignDirectory::clear()
{
	std::lock_guard<std::mutex> hold(mutex_);
	entries_.clear();
}

CampaignDirectory &process_campaign_directory()
{
	static CampaignDirectory directory;
	return directory;
}

} // namespace campaign
