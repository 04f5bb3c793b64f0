// RunningSet: a sorted vector whose unused tail keeps its allocation lists for reuse.
#include "plan/running_set.h"

#include <algorithm>

namespace campaign::plan
{

std::optional<JobId> RunningSet::assign(const std::vector<RunningJob> &jobs)
{
	if (jobs_.size() < jobs.size())
		jobs_.resize(jobs.size());
	for (size_t i = 0; i < jobs.size(); ++i) {
		jobs_[i].id = jobs[i].id;
		jobs_[i].allocations = jobs[i].allocations; // reuses the capacity already there
		jobs_[i].expected_end_s = jobs[i].expected_end_s;
	}
	size_ = jobs.size();
	auto by_id = [](const RunningJob &a, const RunningJob &b) { return a.id < b.id; };
	if (!std::is_sorted(begin(), end(), by_id))
		std::sort(jobs_.begin(), jobs_.begin() + static_cast<std::ptrdiff_t>(size_), by_id);
	auto twice = std::adjacent_find(
	    begin(), end(), [](const RunningJob &a, const RunningJob &b) { return a.id == b.id; });
	if (twice == end())
		return std::nullopt;
	const JobId duplicate = twice->id;
	size_ = 0;
	return duplicate;
}

size_t RunningSet::lower_bound(JobId id) const
{
	auto found = std::lower_bound(
	    begin(), end(), id, [](const RunningJob &job, JobId key) { return job.id < key; });
	return static_cast<size_t>(found - begin());
}

size_t RunningSet::position(JobId id) const
{
	const size_t at = lower_bound(id);
	return at < size_ && jobs_[at].id == id ? at : size_;
}

RunningJob *RunningSet::find(JobId id)
{
	const size_t at = position(id);
	return at < size_ ? &jobs_[at] : nullptr;
}

const RunningJob *RunningSet::find(JobId id) const
{
	const size_t at = position(id);
	return at < size_ ? &jobs_[at] : nullptr;
}

bool RunningSet::insert(RunningJob job)
{
	const size_t at = lower_bound(job.id);
	if (at < size_ && jobs_[at].id == job.id)
		return false;
	if (size_ == jobs_.size())
		jobs_.push_back(std::move(job));
	else
		jobs_[size_] = std::move(job);
	const auto first = jobs_.begin() + static_cast<std::ptrdiff_t>(at);
	const auto added = jobs_.begin() + static_cast<std::ptrdiff_t>(size_);
	std::rotate(first, added, added + 1);
	++size_;
	return true;
}

void RunningSet::erase(JobId id)
{
	const size_t at = position(id);
	if (at == size_)
		return;
	const auto gone = jobs_.begin() + static_cast<std::ptrdiff_t>(at);
	std::rotate(gone, gone + 1, jobs_.begin() + static_cast<std::ptrdiff_t>(size_));
	--size_; // its storage stays, as spare
}

} // namespace campaign::plan
