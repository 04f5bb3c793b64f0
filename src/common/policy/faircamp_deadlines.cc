// FairCamp deadlines: list-schedule makespans over varint-packed job lists and the per-group
// deadline chain, recomputed lazily when a job joins or changes. No Slurm types, no clock reads.
#include "policy/faircamp_deadlines.h"

#include <algorithm>
#include <functional>
#include <queue>

namespace campaign
{

namespace
{

// A hash node (value, next pointer, malloc header) and a vector's block (malloc header).
template <typename Value> constexpr size_t kNodeBytes = sizeof(Value) + 2 * sizeof(void *);
size_t block_bytes(size_t capacity_bytes)
{
	return capacity_bytes == 0 ? 0 : capacity_bytes + sizeof(void *);
}

} // namespace

double list_schedule_makespan_s(std::vector<ListJob> jobs, uint64_t capacity_cpus)
{
	capacity_cpus = std::max<uint64_t>(1, capacity_cpus);
	std::stable_sort(jobs.begin(), jobs.end(), [](const ListJob &a, const ListJob &b) {
		return a.length_s > b.length_s;
	});
	using Running = std::pair<int64_t, uint64_t>; // (end, cpus)
	std::priority_queue<Running, std::vector<Running>, std::greater<Running>> running;
	uint64_t free_cpus = capacity_cpus;
	int64_t now_s = 0;
	int64_t makespan_s = 0;
	for (const ListJob &job : jobs) {
		const uint64_t cpus = std::clamp<uint64_t>(job.cpus, 1, capacity_cpus);
		// Huge arrays count at most kMaxListTasks tasks (bounded cost per recomputation).
		const uint32_t tasks = std::clamp<uint32_t>(job.tasks, 1, kMaxListTasks);
		for (uint32_t task = 0; task < tasks; task++) {
			while (free_cpus < cpus) {
				now_s = std::max(now_s, running.top().first);
				free_cpus += running.top().second;
				running.pop();
			}
			free_cpus -= cpus;
			const int64_t end_s = now_s + std::max<int64_t>(0, job.length_s);
			running.push({end_s, cpus});
			makespan_s = std::max(makespan_s, end_s);
		}
	}
	return static_cast<double>(makespan_s);
}

void FairCampDeadlines::open(uint64_t campaign_id, uint32_t group_index, int64_t opened_s,
                             uint32_t k)
{
	Campaign &campaign = campaigns_[campaign_id];
	campaign.group = group_index;
	campaign.opened_s = opened_s;
	campaign.k = std::max<uint32_t>(1, k);
	Group &group = groups_[group_index];
	group.campaigns.push_back(campaign_id);
	group.stale = true;
}

void FairCampDeadlines::put_job(uint64_t campaign_id, const ListJob &job, uint64_t capacity_cpus)
{
	auto entry = campaigns_.find(campaign_id);
	if (entry == campaigns_.end())
		return;
	Campaign &campaign = entry->second;
	campaign.jobs.put(job);
	campaign.capacity_cpus = capacity_cpus;
	campaign.delta_stale = true;
	groups_[campaign.group].stale = true;
}

void FairCampDeadlines::remove_job(uint64_t campaign_id, uint32_t job_id)
{
	auto entry = campaigns_.find(campaign_id);
	if (entry == campaigns_.end())
		return;
	Campaign &campaign = entry->second;
	campaign.jobs.remove(job_id);
	campaign.delta_stale = true;
	groups_[campaign.group].stale = true;
}

void FairCampDeadlines::refresh_group(Group &group)
{
	double previous_deadline_s = group.base_deadline_s;
	for (const uint64_t campaign_id : group.campaigns) {
		Campaign &campaign = campaigns_.at(campaign_id);
		if (campaign.delta_stale) {
			campaign.delta_s = list_schedule_makespan_s(campaign.jobs.unpack(),
			                                            campaign.capacity_cpus);
			campaign.delta_stale = false;
		}
		double anchor_s = previous_deadline_s;
		if (mode_ == Mode::Anchored)
			anchor_s = std::max(anchor_s, static_cast<double>(campaign.opened_s));
		campaign.deadline_s = anchor_s + campaign.k * campaign.delta_s;
		previous_deadline_s = campaign.deadline_s;
	}
	group.stale = false;
}

double FairCampDeadlines::deadline_s(uint64_t campaign_id)
{
	auto entry = campaigns_.find(campaign_id);
	if (entry == campaigns_.end())
		return 0;
	Group &group = groups_[entry->second.group];
	if (group.stale)
		refresh_group(group);
	return entry->second.deadline_s;
}

double FairCampDeadlines::delta_s(uint64_t campaign_id)
{
	deadline_s(campaign_id);
	auto entry = campaigns_.find(campaign_id);
	return entry == campaigns_.end() ? 0 : entry->second.delta_s;
}

void FairCampDeadlines::retire(uint64_t campaign_id)
{
	auto entry = campaigns_.find(campaign_id);
	if (entry == campaigns_.end())
		return;
	Group &group = groups_[entry->second.group];
	if (group.stale)
		refresh_group(group);
	// The chain needs every earlier live deadline: pop retired campaigns from the front only.
	entry->second.retired = true;
	while (!group.campaigns.empty() && campaigns_.at(group.campaigns.front()).retired) {
		const uint64_t front = group.campaigns.front();
		group.base_deadline_s = campaigns_.at(front).deadline_s;
		group.campaigns.erase(group.campaigns.begin()); // a handful of live campaigns
		campaigns_.erase(front);
	}
}

void FairCampDeadlines::restore(std::unordered_map<uint64_t, Campaign> campaigns,
                                std::unordered_map<uint32_t, Group> groups)
{
	campaigns_ = std::move(campaigns);
	groups_ = std::move(groups);
}

size_t FairCampDeadlines::approximate_bytes() const
{
	size_t bytes = (campaigns_.bucket_count() + groups_.bucket_count()) * sizeof(void *);
	for (const auto &[campaign_id, campaign] : campaigns_)
		bytes += kNodeBytes<std::pair<const uint64_t, Campaign>> +
		         block_bytes(campaign.jobs.allocated_bytes());
	for (const auto &[group_index, group] : groups_)
		bytes += kNodeBytes<std::pair<const uint32_t, Group>> +
		         block_bytes(group.campaigns.capacity() * sizeof(uint64_t));
	return bytes;
}

} // namespace campaign
