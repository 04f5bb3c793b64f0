// Dependencies and begin times as planner input (see dependency_snapshot.h). The kinds the plan
// cannot model are left out by name: OR'd lists ("DependencyOr"), after:job (start) on a pending
// job, aftercorr, expand and burst-buffer dependencies, and a wait on a whole job array or one
// task of a pending array record ("DependencyNotPlanned").
#include "dependency_snapshot.h"

#include "plan_snapshot.h"

#include <unordered_set>

namespace campaign::slurm
{
namespace
{

constexpr const char *kNotPlanned = "DependencyNotPlanned";

// Pending for a dependency, a begin time or a reservation that starts later alone:
// build_job_queue's job_independent has just set the reason (WAIT_DEPENDENCY, WAIT_TIME for a
// begin time later than now, WAIT_RESERVATION when job_test_resv_now says not yet).
bool waits_only(const job_record_t *job, time_t now)
{
	if (!IS_JOB_PENDING(job) || IS_JOB_COMPLETING(job) || IS_JOB_REVOKED(job) ||
	    !job->details || job->priority == 0 || job->het_job_id)
		return false;
	if (job->state_reason == WAIT_DEPENDENCY)
		return true;
	if (job->state_reason == WAIT_RESERVATION)
		return job->resv_ptr && job->resv_ptr->start_time > now;
	return job->state_reason == WAIT_TIME && job->details->begin_time > now;
}

void append_record(list_t *queue, job_record_t *job, part_record_t *part, uint32_t priority)
{
	auto *record = static_cast<job_queue_rec_t *>(xmalloc(sizeof(job_queue_rec_t)));
	record->array_task_id = job->array_task_id;
	record->job_id = job->job_id;
	record->job_ptr = job;
	record->part_ptr = part;
	record->priority = priority;
	set_queue_record_qos(record, job);
	list_append(queue, record);
}

bool running(const job_record_t *job)
{
	return IS_JOB_RUNNING(job) || IS_JOB_SUSPENDED(job);
}

// A pending array record stands for several tasks: which planned one a dependency means is
// not known.
bool array_record(const job_record_t *job)
{
	return job->array_recs != nullptr;
}

} // namespace

void queue_waiting_jobs(list_t *queue, time_t now)
{
	std::unordered_set<uint32_t> queued;
	list_itr_t *records = list_iterator_create(queue);
	while (auto *record = static_cast<job_queue_rec_t *>(list_next(records)))
		if (record->job_ptr)
			queued.insert(record->job_ptr->job_id);
	list_iterator_destroy(records);
	list_itr_t *jobs = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(jobs))) {
		if (!waits_only(job, now) || queued.contains(job->job_id))
			continue;
		if (!job->part_ptr_list) {
			if (job->part_ptr)
				append_record(queue, job, job->part_ptr, job->priority);
			continue;
		}
		// priority_array follows part_ptr_list, as in build_job_queue
		int index = 0;
		list_itr_t *parts = list_iterator_create(job->part_ptr_list);
		while (auto *part = static_cast<part_record_t *>(list_next(parts))) {
			append_record(queue, job, part, partition_priority(job, index));
			index++;
		}
		list_iterator_destroy(parts);
	}
	list_iterator_destroy(jobs);
}

Waits WaitReader::waits_of(const job_record_t *job)
{
	Waits waits;
	const job_details_t *details = job->details;
	if (details && details->begin_time > now_)
		waits.earliest_start_s = details->begin_time;
	if (!details || !details->depend_list || list_count(details->depend_list) == 0)
		return waits;
	list_itr_t *dependencies = list_iterator_create(details->depend_list);
	while (auto *dependency = static_cast<depend_spec_t *>(list_next(dependencies))) {
		if (dependency->depend_state == DEPEND_FULFILLED)
			continue;
		if (dependency->depend_flags & SLURM_FLAGS_OR) {
			waits.not_planned = "DependencyOr";
			break;
		}
		if (dependency->depend_state == DEPEND_FAILED ||
		    (dependency->depend_flags & SLURM_FLAGS_REMOTE)) {
			waits.not_planned = kNotPlanned;
			break;
		}
		if (dependency->depend_type == SLURM_DEPEND_SINGLETON)
			add_singleton(job, waits);
		else
			add_one(dependency, waits);
		if (waits.not_planned)
			break;
	}
	list_iterator_destroy(dependencies);
	return waits;
}

// As _find_singleton_job: the user's other jobs of the same name running, or pending and
// submitted before it (a lower id).
void WaitReader::add_singleton(const job_record_t *job, Waits &waits)
{
	if (!job->name) {
		waits.not_planned = kNotPlanned;
		return;
	}
	if (!indexed_) {
		indexed_ = true;
		list_itr_t *jobs = list_iterator_create(job_list);
		while (auto *other = static_cast<job_record_t *>(list_next(jobs)))
			if (other->name && (running(other) || IS_JOB_PENDING(other)))
				by_name_[{other->user_id, other->name}].push_back(other);
		list_iterator_destroy(jobs);
	}
	auto same = by_name_.find({job->user_id, job->name});
	if (same == by_name_.end())
		return;
	for (const job_record_t *other : same->second) {
		if (other == job)
			continue;
		if (running(other))
			waits.after.push_back(other->job_id);
		else if (IS_JOB_PENDING(other) && other->job_id < job->job_id)
			waits.after.push_back(plan_id(other->job_id, 0));
	}
}

void WaitReader::add_one(const depend_spec_t *dependency, Waits &waits)
{
	const uint16_t type = dependency->depend_type;
	const bool after_end = type == SLURM_DEPEND_AFTER_OK || type == SLURM_DEPEND_AFTER_ANY ||
	                       type == SLURM_DEPEND_AFTER_NOT_OK;
	if (!after_end && type != SLURM_DEPEND_AFTER) {
		waits.not_planned = kNotPlanned; // aftercorr, expand, burst buffer
		return;
	}
	const job_record_t *before =
	    find_job_array_rec(dependency->job_id, dependency->array_task_id);
	if (!before ||
	    (before->job_id != dependency->job_id && before->array_job_id != dependency->job_id))
		return; // gone: Slurm lifts the dependency at its next test
	if (dependency->array_task_id == INFINITE &&
	    (array_record(before) || before->array_task_id != NO_VAL)) {
		waits.not_planned = kNotPlanned; // the whole array
		return;
	}
	if (IS_JOB_COMPLETED(before) || IS_JOB_COMPLETING(before))
		return;                   // decided at Slurm's next test; never started before then
	if (type == SLURM_DEPEND_AFTER) { // after its start (+ minutes)
		if (!running(before)) {
			waits.not_planned = kNotPlanned;
			return;
		}
		waits.earliest_start_s =
		    std::max<int64_t>(waits.earliest_start_s,
		                      before->start_time + int64_t{dependency->depend_time} * 60);
		return;
	}
	if (running(before)) {
		waits.after.push_back(before->job_id);
		return;
	}
	if (!IS_JOB_PENDING(before) || array_record(before)) {
		waits.not_planned = kNotPlanned;
		return;
	}
	waits.after.push_back(plan_id(before->job_id, 0));
}

} // namespace campaign::slurm
