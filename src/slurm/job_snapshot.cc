// take_snapshot: the Slurm-to-core field mapping of doc/design.md §3 (NO_VAL and INFINITE limits
// kept explicit, begin_time as eligibility, priority 0 as held), done once, here.
#include "job_snapshot.h"

#include "ctld_lock.h"

#include <algorithm>

namespace campaign::slurm
{

TimeLimit limit_of(uint32_t minutes)
{
	if (minutes == NO_VAL)
		return TimeLimit::unset();
	if (minutes == INFINITE)
		return TimeLimit::infinite();
	return TimeLimit::of_seconds(static_cast<int64_t>(minutes) * 60);
}

std::optional<int64_t> minutes_to_seconds(uint32_t minutes)
{
	if (minutes == NO_VAL || minutes == INFINITE)
		return std::nullopt;
	return static_cast<int64_t>(minutes) * 60;
}

namespace
{

std::vector<std::string> partitions_of(const job_record_t *job)
{
	std::vector<std::string> names;
	if (job->part_ptr_list) {
		list_itr_t *it = list_iterator_create(job->part_ptr_list);
		while (auto *part = static_cast<part_record_t *>(list_next(it)))
			names.emplace_back(part->name);
		list_iterator_destroy(it);
	} else if (job->part_ptr) {
		names.emplace_back(job->part_ptr->name);
	} else if (job->partition) {
		names.emplace_back(job->partition);
	}
	return names;
}

JobFields fields_of(const job_record_t *job)
{
	const job_details_t *details = job->details;
	JobFields fields;
	fields.job_id = job->job_id;
	fields.user_id = job->user_id;
	fields.account = job->account ? job->account : "";
	fields.partitions = partitions_of(job);
	fields.submit_s = details->submit_time;
	// Slurm sets begin_time when a job becomes independent (job_independent); 0 means an
	// unmet dependency, so no eligibility yet.
	if (details->begin_time)
		fields.eligible_s = std::max(details->begin_time, details->submit_time);
	const bool running = !IS_JOB_PENDING(job);
	fields.cpus =
	    std::max<uint32_t>(1, running && job->total_cpus ? job->total_cpus : details->min_cpus);
	fields.nodes =
	    std::max<uint32_t>(1, running && job->node_cnt ? job->node_cnt : details->min_nodes);
	if (job->billable_tres > 0 && job->billable_tres != static_cast<double>(NO_VAL))
		fields.billable_tres = job->billable_tres;
	fields.limit = limit_of(job->time_limit);
	fields.qos_priority = job->qos_ptr ? job->qos_ptr->priority : 0;
	fields.nice = static_cast<int32_t>(static_cast<int64_t>(details->nice) - NICE_OFFSET);
	fields.partition_tier = job->part_ptr ? job->part_ptr->priority_tier : 0;
	fields.admin_priority = job->direct_set_prio;
	fields.held = IS_JOB_PENDING(job) && job->priority == 0;
	if (job->array_recs && job->array_task_id == NO_VAL)
		fields.array_tasks = std::max<uint32_t>(1, job->array_recs->task_cnt);
	return fields;
}

ObservedJob observe(const job_record_t *job)
{
	ObservedJob observed;
	observed.fields = fields_of(job);
	if (IS_JOB_PENDING(job)) {
		observed.state = ObservedJob::State::Pending;
	} else if (IS_JOB_RUNNING(job) || IS_JOB_SUSPENDED(job)) {
		observed.state = ObservedJob::State::Running;
		observed.start_s = job->start_time;
	} else {
		observed.state = ObservedJob::State::Finished;
		observed.start_s = job->start_time;
		observed.end_s = job->end_time;
		observed.ran = job->nodes && job->nodes[0] != '\0'; // cancelled while pending: none
	}
	return observed;
}

PartitionCapacity capacity_of(const part_record_t *part)
{
	PartitionCapacity capacity{.partition = part->name,
	                           .max_time_s = minutes_to_seconds(part->max_time),
	                           .default_time_s = minutes_to_seconds(part->default_time)};
	if (!part->node_bitmap)
		return capacity;
	node_record_t *node;
	for (int i = 0; (node = next_node(&i)); i++)
		if (bit_test(part->node_bitmap, node->index) &&
		    bit_test(avail_node_bitmap, node->index))
			capacity.cpus_up += node->cpus;
	return capacity;
}

// An association's share of the whole cluster: at each level its raw shares over the level's
// (an association with Fairshare=parent counts as its parent's).
double cluster_share_of(const slurmdb_assoc_rec_t *assoc)
{
	double share = 1;
	for (; assoc && assoc->usage && assoc->usage->parent_assoc_ptr;
	     assoc = assoc->usage->parent_assoc_ptr) {
		if (assoc->shares_raw == SLURMDB_FS_USE_PARENT)
			continue;
		if (!assoc->usage->level_shares)
			return 0;
		share *= static_cast<double>(assoc->shares_raw) /
		         static_cast<double>(assoc->usage->level_shares);
	}
	return share;
}

// Association read lock held. The root association (no parent) is every unit's sum: skipped. A
// unit with usage counts in the usage shares' total with its share, so its share is read too
// (after the pending jobs' own associations, whose shares are kept for a user with several).
void read_usage(ClusterSnapshot &snapshot)
{
	if (!assoc_mgr_assoc_list)
		return;
	list_itr_t *it = list_iterator_create(assoc_mgr_assoc_list);
	while (auto *assoc = static_cast<slurmdb_assoc_rec_t *>(list_next(it))) {
		if (!assoc->usage || !assoc->usage->parent_assoc_ptr)
			continue;
		// Slurm resets RawUsage by subtracting it up the tree: a parent may keep a rounding
		// error below 0.
		const double raw = std::max(0.0, static_cast<double>(assoc->usage->usage_raw));
		if (assoc->user && assoc->uid != NO_VAL) {
			snapshot.user_usage[assoc->uid] += raw;
			if (raw > 0)
				snapshot.user_shares.emplace(assoc->uid, cluster_share_of(assoc));
		} else if (!assoc->user && assoc->acct) {
			snapshot.account_usage[assoc->acct] = raw;
			if (raw > 0)
				snapshot.account_shares.emplace(assoc->acct,
				                                cluster_share_of(assoc));
		}
	}
	list_iterator_destroy(it);
}

void read_shares(ClusterSnapshot &snapshot, AssociationUsage usage)
{
	AssocLock hold({.assoc = READ_LOCK});
	list_itr_t *jobs = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(jobs))) {
		const slurmdb_assoc_rec_t *assoc = job->assoc_ptr;
		if (!IS_JOB_PENDING(job) || !assoc || !assoc->usage)
			continue;
		snapshot.user_shares.emplace(job->user_id, cluster_share_of(assoc));
		const slurmdb_assoc_rec_t *account = assoc->usage->parent_assoc_ptr;
		if (job->account && account)
			snapshot.account_shares.emplace(job->account, cluster_share_of(account));
	}
	list_iterator_destroy(jobs);
	if (usage == AssociationUsage::read)
		read_usage(snapshot);
}

} // namespace

ClusterSnapshot take_snapshot(AssociationUsage usage)
{
	ClusterSnapshot snapshot;
	CtldLock hold(kReadConfigAndJobs);
	snapshot.now = time(nullptr);
	snapshot.private_jobs = slurm_conf.private_data & PRIVATE_DATA_JOBS;
	if (slurm_conf.state_save_location)
		snapshot.state_dir = slurm_conf.state_save_location;
	snapshot.jobs.reserve(list_count(job_list));
	list_itr_t *jobs = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(jobs)))
		if (job->details && !IS_JOB_REVOKED(job) && !job->het_job_id)
			snapshot.jobs.push_back(observe(job));
	list_iterator_destroy(jobs);
	list_itr_t *parts = list_iterator_create(part_list);
	while (auto *part = static_cast<part_record_t *>(list_next(parts)))
		snapshot.partitions.push_back(capacity_of(part));
	list_iterator_destroy(parts);
	if (slurm_conf.accounting_storage_type &&
	    xstrcmp(slurm_conf.accounting_storage_type, "accounting_storage/none"))
		read_shares(snapshot, usage);
	return snapshot;
}

} // namespace campaign::slurm
