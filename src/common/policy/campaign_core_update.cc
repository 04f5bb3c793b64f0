// CampaignCore events that change a job or the platform after submission: updates (limit,
// size, partition, tasks), partition capacity and unit weights. No Slurm types.
#include "policy/campaign_core.h"

#include <algorithm>

namespace campaign
{

void CampaignCore::apply_fields(Job &job, const JobUpdate &update)
{
	if (update.limit) {
		job.limit_kind = static_cast<uint8_t>(update.limit->kind);
		job.limit_s = std::max<int64_t>(0, update.limit->seconds);
	}
	const uint32_t old_cpus = job.cpus;
	if (update.cpus)
		job.cpus = std::max<uint32_t>(1, *update.cpus);
	if (update.nodes)
		job.nodes = std::max<uint32_t>(1, *update.nodes);
	if (update.billable_tres)
		job.billable = *update.billable_tres > 0 ? *update.billable_tres : job.cpus;
	else if (update.cpus) // billable TRES scale with the CPU count
		job.billable = job.billable * job.cpus / old_cpus;
	if (update.partition_tier)
		job.tier =
		    static_cast<uint16_t>(std::min<uint32_t>(*update.partition_tier, 0xFFFF));
	if (update.qos_priority)
		job.qos_priority = *update.qos_priority;
	if (update.nice)
		job.nice = *update.nice;
	if (update.array_tasks && job.state != JobState::Running)
		job.tasks = std::max<uint32_t>(1, *update.array_tasks);
	if (update.admin_priority)
		job.admin_priority = *update.admin_priority;
	resolve_job(job);
}

Status CampaignCore::update_unguarded(const JobUpdate &update, int64_t now_s)
{
	advance(now_s);
	Job *job = find(update.job_id);
	if (!job)
		return missing(update.job_id, "update");
	advance_domain(groups_[job->group].domain, static_cast<double>(clock_s_));
	const std::string partition =
	    update.partitions ? (update.partitions->empty() ? "" : update.partitions->front())
	                      : partitions_[job->partition].partition;
	const bool moves =
	    partition != partitions_[job->partition].partition && job->state != JobState::Running;
	const bool was_pending = job->state == JobState::Pending;
	if (moves) {
		if (was_pending)
			leave_campaign(*job, clock_s_, false);
		if (!partition_index_.count(partition)) {
			partitions_.push_back({partition, 0, std::nullopt, std::nullopt});
			partition_index_[partition] = static_cast<uint32_t>(partitions_.size() - 1);
		}
		job = find(update.job_id); // no reallocation happened, but stay explicit
		job->partition = partition_index_[partition];
		job->group =
		    group_of(job->user_id, job->account, domain_of_partition(job->partition));
		advance_domain(groups_[job->group].domain, static_cast<double>(clock_s_));
	}
	const double old_billable = job->billable;
	const uint32_t old_tasks = job->tasks;
	apply_fields(*job, update);
	if (moves) {
		if (was_pending)
			make_eligible(*job, clock_s_); // detected anew in the new domain, from now
		return ok_status();
	}
	if (job->state == JobState::Running)
		domains_[groups_[job->group].domain].busy_cpus += job->billable - old_billable;
	if (job->state == JobState::Pending)
		campaigns_[job->campaign_slot].pending += job->tasks - old_tasks;
	if (job->state != JobState::Waiting)
		change_counted_work(*job, job_work_cpu_s(*job));
	if (job->state == JobState::Pending && config_.policy == PolicyKind::FairCamp)
		deadlines_.put_job(job->campaign_id,
		                   {job->job_id, job->cpus, job->tasks, job->limit_s},
		                   static_cast<uint64_t>(
		                       projection_capacity(domains_[groups_[job->group].domain])));
	return ok_status();
}

void CampaignCore::refresh_cluster_capacity()
{
	auto entry = domain_index_.find("cluster");
	if (!config_.domain_is_cluster || entry == domain_index_.end())
		return;
	Domain &domain = domains_[entry->second];
	if (domain.capacity_overridden)
		return;
	advance_domain(entry->second, static_cast<double>(clock_s_));
	uint64_t cpus = 0;
	for (const PartitionCapacity &partition : partitions_)
		cpus += partition.cpus_up;
	domain.cpus_up = cpus;
	if (cpus > 0)
		domain.last_positive_cpus = cpus;
}

Status CampaignCore::capacity_unguarded(const PartitionCapacity &partition, int64_t now_s)
{
	advance(now_s);
	if (!partition_index_.count(partition.partition)) {
		partitions_.push_back({partition.partition, 0, std::nullopt, std::nullopt});
		partition_index_[partition.partition] =
		    static_cast<uint32_t>(partitions_.size() - 1);
	}
	const uint32_t index = partition_index_[partition.partition];
	const uint32_t domain = domain_of_partition(index);
	advance_domain(domain, static_cast<double>(clock_s_));
	const bool times_changed = partitions_[index].max_time_s != partition.max_time_s ||
	                           partitions_[index].default_time_s != partition.default_time_s;
	partitions_[index] = partition;
	if (config_.domain_is_cluster) {
		refresh_cluster_capacity();
	} else {
		domains_[domain].cpus_up = partition.cpus_up;
		if (partition.cpus_up > 0)
			domains_[domain].last_positive_cpus = partition.cpus_up;
	}
	if (!times_changed)
		return ok_status();
	for (Job &job : jobs_) // re-resolve INFINITE and unset limits of this partition
		if (job.partition == index &&
		    job.limit_kind != static_cast<uint8_t>(TimeLimit::Kind::Set)) {
			resolve_job(job);
			if (job.state != JobState::Waiting)
				change_counted_work(job, job_work_cpu_s(job));
			index_job(job); // its limit orders it under LPT and SPT
		}
	return ok_status();
}

Status CampaignCore::cluster_capacity_unguarded(uint64_t cpus_up, int64_t now_s)
{
	if (!config_.domain_is_cluster)
		return Error{"cluster_capacity: domain=cluster is not configured"};
	advance(now_s);
	auto entry = domain_index_.find("cluster");
	uint32_t domain;
	if (entry == domain_index_.end()) {
		domain = static_cast<uint32_t>(domains_.size());
		domain_index_["cluster"] = domain;
		add_domain("cluster");
	} else {
		domain = entry->second;
	}
	advance_domain(domain, static_cast<double>(clock_s_));
	domains_[domain].cpus_up = cpus_up;
	domains_[domain].capacity_overridden = true;
	if (cpus_up > 0)
		domains_[domain].last_positive_cpus = cpus_up;
	return ok_status();
}

Status CampaignCore::set_unit_weight(uint32_t unit, double weight, int64_t now_s)
{
	if (!(weight > 0) || weight > 1e12)
		return Error{"weight of unit " + std::to_string(unit) + " must be in (0, 1e12]"};
	advance(now_s);
	unit_weights_[unit] = weight;
	if (!config_.weighted_shares)
		return ok_status();
	for (uint32_t group = 0; group < groups_.size(); group++)
		if (groups_[group].unit == unit) {
			advance_domain(groups_[group].domain, static_cast<double>(clock_s_));
			domains_[groups_[group].domain].schedule.set_weight(group, weight);
		}
	return ok_status();
}

Status CampaignCore::set_user_weight_unguarded(uint32_t user_id, double weight, int64_t now_s)
{
	if (config_.unit_is_account)
		return Error{"set_user_weight: unit=account is configured"};
	return set_unit_weight(user_id, weight, now_s);
}

Status CampaignCore::set_account_weight_unguarded(const std::string &account, double weight,
                                                  int64_t now_s)
{
	if (!config_.unit_is_account)
		return Error{"set_account_weight: unit=user is configured"};
	return set_unit_weight(intern(accounts_, account_index_, account), weight, now_s);
}

} // namespace campaign
