// The process-wide campaign directory.
#include "runtime/campaign_directory.h"

namespace campaign
{

void CampaignDirectory::publish(const std::vector<Entry> &entries, int64_t snapshot_s, bool applied)
{
	std::unordered_map<uint32_t, Entry> published;
	published.reserve(entries.size());
	for (const Entry &entry : entries)
		published.emplace(entry.job_id, entry);
	std::lock_guard<std::mutex> hold(mutex_);
	entries_.swap(published);
	stamp_ = {.snapshot_s = snapshot_s, .count = stamp_.count + 1, .applied = applied};
}

CampaignDirectory::Stamp CampaignDirectory::stamp() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return stamp_;
}

void CampaignDirectory::set_ranking_waker(std::function<void()> waker)
{
	std::lock_guard<std::mutex> hold(waker_mutex_);
	waker_ = std::move(waker);
}

bool CampaignDirectory::request_ranking() const
{
	std::lock_guard<std::mutex> hold(waker_mutex_);
	if (!waker_)
		return false;
	waker_();
	return true;
}

bool CampaignDirectory::has_ranking_waker() const
{
	std::lock_guard<std::mutex> hold(waker_mutex_);
	return static_cast<bool>(waker_);
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
