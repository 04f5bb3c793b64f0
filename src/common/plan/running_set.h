// RunningSet: the planner's running jobs, sorted by id. Loading a snapshot reuses the storage of
// the jobs it held before (the simulator plans afresh hundreds of thousands of times). No Slurm
// types, no validation: the planner checks jobs before they come here.
#pragma once

#include "plan/plan_types.h"

#include <optional>
#include <vector>

namespace campaign::plan
{

class RunningSet
{
public:
	using const_iterator = std::vector<RunningJob>::const_iterator;

	// Replaces the content with `jobs`. A duplicate id: returned, and the set is left empty.
	std::optional<JobId> assign(const std::vector<RunningJob> &jobs);
	bool contains(JobId id) const { return position(id) < size_; }
	RunningJob *find(JobId id);
	const RunningJob *find(JobId id) const;
	// False if a job with that id is already there.
	bool insert(RunningJob job);
	void erase(JobId id);
	void clear() { size_ = 0; }

	size_t size() const { return size_; }
	const_iterator begin() const { return jobs_.begin(); }
	const_iterator end() const { return jobs_.begin() + static_cast<std::ptrdiff_t>(size_); }
	RunningJob *data() { return jobs_.data(); }

private:
	// Index of the job with this id, or size_.
	size_t position(JobId id) const;
	size_t lower_bound(JobId id) const;

	std::vector<RunningJob> jobs_; // [0, size_) in use, sorted by id; the rest is spare storage
	size_t size_ = 0;
};

} // namespace campaign::plan
