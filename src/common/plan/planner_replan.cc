// Planner, afresh on the kept machine: a new ranked queue planned on the running jobs already
// booked, updating only those that started, ended or changed. The simulator in per_campaign
// mode replans at every event; a rebuild would book every running job again each time.
#include "plan/planner.h"

#include <algorithm>
#include <string>

namespace campaign::plan
{

Status Planner::replan(const std::vector<RunningJob> &running,
                       const std::vector<PendingJob> &pending_in_rank_order, int64_t now_s)
{
	if (Status moved = advance(now_s, "replan"); !moved)
		return moved;
	if (Status replaced = unplace_all_and_replace_running(running); !replaced)
		return replaced; // the profile now holds the running jobs only
	Status status = plan_queue(pending_in_rank_order, "replan");
	queue_.release_spare();
	if (status)
		local_search();
	return status;
}

Status Planner::replan_walk(const std::vector<RunningJob> &running, PendingSource &source,
                            int64_t now_s)
{
	if (!config_.starts_only)
		return Error{"replan: a walked queue needs starts_only"};
	if (Status moved = advance(now_s, "replan"); !moved)
		return moved;
	if (Status replaced = unplace_all_and_replace_running(running); !replaced)
		return replaced;
	Status status = plan_walk(source, "replan");
	queue_.release_spare();
	return status;
}

// Every pending job's booking given back, the slots merged once at the end. The queue is made
// afresh next: each entry is popped right after it is unplaced, while it is in the cache (at
// 100,000 jobs, a pass to unplace and then one to destroy each read 100,000 cold entries, 5 %
// of per_campaign's update), its allocation kept for the next entries (pop_back_kept; those
// left over are freed once the queue is made again). Any order gives the same profile: a
// release only adds. Where the bookings outnumber the running jobs and windows, the profile is
// made again from those instead (as unplace_from).
Status Planner::unplace_all_and_replace_running(const std::vector<RunningJob> &running)
{
	const ResourceProfile::DeferredMerges deferred(profile_);
	waiting_tail_ = WaitingTail{};
	if (Status valid = check_running_list(running); !valid) {
		for (Entry &entry : queue_) // as a valid list would leave the profile
			unplace(entry);
		return valid;
	}
	size_t given_back = 0;
	for (const Entry &entry : queue_)
		given_back += entry.placed();
	const bool remake = remaking_is_cheaper(0, given_back);
	for (; !queue_.empty(); queue_.pop_back_kept())
		if (!remake)
			unplace(queue_.back());
	pending_ids_.clear();
	replace_running(running, !remake);
	if (remake)
		remake_profile(0);
	return ok_status();
}

Status Planner::check_running_list(const std::vector<RunningJob> &running)
{
	scratch_ids_.clear();
	for (const RunningJob &job : running) {
		if (Status valid = check_running(job); !valid)
			return Error{"replan: " + valid.error()};
		scratch_ids_.push_back(job.id);
	}
	std::sort(scratch_ids_.begin(), scratch_ids_.end());
	if (auto twice = std::adjacent_find(scratch_ids_.begin(), scratch_ids_.end());
	    twice != scratch_ids_.end())
		return Error{"replan: job " + std::to_string(*twice) + " is listed twice"};
	return ok_status();
}

// Makes running_ and its bookings (with `in_profile`; else running_ alone) those of `running`, as
// load would book them at now_s_. Only right after check_running_list passed: it reads the sorted
// ids that check left in scratch_ids_.
void Planner::replace_running(const std::vector<RunningJob> &running, bool in_profile)
{
	for (size_t i = running_.size(); i-- > 0;) { // ended: give back what is left of them
		const RunningJob &kept = running_.data()[i];
		if (std::binary_search(scratch_ids_.begin(), scratch_ids_.end(), kept.id))
			continue;
		if (in_profile)
			profile_.release(kept.allocations, now_s_, kept.expected_end_s,
			                 kept.booked_long);
		running_.erase(kept.id);
	}
	for (const RunningJob &job : running) {
		const int64_t end_s = std::max(job.expected_end_s, now_s_ + 1); // as load does
		RunningJob *kept = running_.find(job.id);
		if (kept && kept->allocations == job.allocations && kept->expected_end_s == end_s)
			continue;
		const bool long_job = holds_long(end_s - now_s_);
		if (kept && in_profile)
			profile_.release(kept->allocations, now_s_, kept->expected_end_s,
			                 kept->booked_long);
		if (kept) {
			kept->allocations = job.allocations;
			kept->expected_end_s = end_s;
			kept->booked_long = long_job;
		} else {
			running_.insert(RunningJob{job.id, job.allocations, end_s, long_job});
		}
		if (in_profile)
			profile_.book(job.allocations, now_s_, end_s, long_job);
	}
}

} // namespace campaign::plan
