// Filling prio_factors and answering sprio, with PrivateData=jobs enforced as multifactor does.
#include "priority_factors.h"

#include "ctld_lock.h"

#include "util/rank_priority.h"

#include <ctime>

namespace campaign::slurm
{
namespace
{

// Our list owns its partition strings (xstrdup), so its destructor frees them too.
void destroy_factors(void *object)
{
	auto *factors = static_cast<priority_factors_object_t *>(object);
	if (!factors)
		return;
	xfree(factors->partition);
	slurm_destroy_priority_factors_object(factors);
}

bool listed(list_t *ids, uint32_t wanted)
{
	if (!ids)
		return true;
	list_itr_t *it = list_iterator_create(ids);
	bool found = false;
	while (uint32_t *id = static_cast<uint32_t *>(list_next(it)))
		if (*id == wanted) {
			found = true;
			break;
		}
	list_iterator_destroy(it);
	return found;
}

bool partition_wanted(const char *requested, const char *name)
{
	if (!requested)
		return true;
	std::string list = std::string(",") + requested + ",";
	return name && list.find(std::string(",") + name + ",") != std::string::npos;
}

bool visible_to(const job_record_t *job, uid_t uid)
{
	if (!(slurm_conf.private_data & PRIVATE_DATA_JOBS) || job->user_id == uid)
		return true;
	if (validate_operator(uid))
		return true;
	return is_user_acct_coord(uid, job->account);
}

void append_job(list_t *out, job_record_t *job, const char *partition)
{
	auto *factors =
	    static_cast<priority_factors_object_t *>(xmalloc(sizeof(priority_factors_object_t)));
	if (job->direct_set_prio || !job->prio_factors)
		factors->direct_prio = job->priority;
	else
		copy_job_factors(factors, job);
	xfree(factors->partition);
	factors->partition = xstrdup(partition);
	set_factors_job_id(factors, job);
	factors->user_id = job->user_id;
	list_append(out, factors);
}

bool listable(const job_record_t *job, time_t now)
{
	if (!IS_JOB_PENDING(job) || IS_JOB_REVOKED(job) || job->priority == 0 || !job->details)
		return false;
	const time_t begin = job->details->begin_time;
	return begin && begin <= now;
}

} // namespace

void set_priority_factors(job_record_t *job, uint32_t priority, uint32_t campaign_score)
{
	if (!job->prio_factors)
		job->prio_factors = static_cast<JobFactors *>(xmalloc(sizeof(JobFactors)));
	JobFactors *factors = job->prio_factors;
	const int64_t nice = job->details ? static_cast<int64_t>(job->details->nice) : NICE_OFFSET;
	factors->nice = static_cast<uint32_t>(nice);
	// sprio prints age + site - NICE_OFFSET - (nice - NICE_OFFSET); make that equal priority.
	const int64_t score = std::min<int64_t>(campaign_score, priority);
	factors->priority_age = static_cast<double>(score);
	const int64_t site = static_cast<int64_t>(priority) - score + (nice - NICE_OFFSET);
	factors->priority_site = static_cast<uint32_t>(NICE_OFFSET + site);
	clear_cached_direct_prio(factors);
}

int64_t nice_of(const job_record_t *job)
{
	return job->details ? static_cast<int64_t>(job->details->nice) - NICE_OFFSET : 0;
}

uint32_t campaign_score_of(const job_record_t *job)
{
	const JobFactors *factors = job->prio_factors;
	if (!factors || cached_direct_prio(factors) || factors->priority_age < 0)
		return 0;
	return static_cast<uint32_t>(factors->priority_age);
}

std::optional<int64_t> ranked_priority_of(const job_record_t *job)
{
	const JobFactors *factors = job->prio_factors;
	if (!factors || cached_direct_prio(factors) || job->direct_set_prio || job->priority == 0)
		return std::nullopt;
	// The sum sprio prints (see set_priority_factors): equal to the priority only while the
	// value is still ours.
	const int64_t published_nice = static_cast<int64_t>(factors->nice) - NICE_OFFSET;
	const int64_t sum = static_cast<int64_t>(factors->priority_age) +
	                    static_cast<int64_t>(factors->priority_site) - NICE_OFFSET -
	                    published_nice;
	if (sum != static_cast<int64_t>(job->priority))
		return std::nullopt;
	return rank_priority_of(job->priority, published_nice);
}

namespace
{

// What sprio asked for; 22.05 filters in slurmctld, 24.11 in the client (no filter: all null).
struct SprioFilter {
	list_t *job_ids = nullptr;
	list_t *user_ids = nullptr;
	const char *partitions = nullptr;
};

// The listable jobs visible to uid, one object per partition; the job read lock must be held.
list_t *factors_of_visible_jobs(const SprioFilter &filter, uid_t uid)
{
	list_t *out = list_create(destroy_factors);
	const time_t now = time(nullptr);
	list_itr_t *it = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(it))) {
		if (!listable(job, now) || !visible_to(job, uid))
			continue;
		if (!listed(filter.job_ids, job->job_id) || !listed(filter.user_ids, job->user_id))
			continue;
		if (job->part_ptr_list) {
			list_itr_t *parts = list_iterator_create(job->part_ptr_list);
			while (auto *part = static_cast<part_record_t *>(list_next(parts)))
				if (partition_wanted(filter.partitions, part->name))
					append_job(out, job, part->name);
			list_iterator_destroy(parts);
		} else if (job->part_ptr &&
		           partition_wanted(filter.partitions, job->part_ptr->name)) {
			append_job(out, job, job->part_ptr->name);
		}
	}
	list_iterator_destroy(it);
	if (list_count(out) == 0)
		FREE_NULL_LIST(out);
	return out;
}

} // namespace

#if SC_SLURM_24
list_t *priority_factors_list(uid_t uid)
{
	if (!in_slurmctld())
		return nullptr;
	return factors_of_visible_jobs(SprioFilter{}, uid);
}
#else
list_t *priority_factors_list(priority_factors_request_msg_t *request, uid_t uid)
{
	if (!in_slurmctld())
		return nullptr;
	SprioFilter filter;
	if (request) {
		filter.job_ids = request->job_id_list;
		filter.user_ids = request->uid_list;
		filter.partitions = request->partitions;
	}
	CtldLock hold(kReadJobs);
	return factors_of_visible_jobs(filter, uid);
}
#endif

} // namespace campaign::slurm
