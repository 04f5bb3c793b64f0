// The plain FCFS queue: events arrive in time order, so appending keeps submission order.
#include "engine/fcfs_priority.h"

#include <algorithm>

namespace campaign::sim
{

Status FcfsPriority::submit(uint32_t job, const SimJob &, int64_t)
{
	if (job >= started_.size())
		started_.resize(job + 1, 0);
	started_[job] = 0;
	queue_.push_back(job);
	return ok_status();
}

Status FcfsPriority::start(uint32_t job, int64_t)
{
	if (job >= started_.size() || started_[job])
		return Error{"job index " + std::to_string(job) + " started but not pending"};
	started_[job] = 1;
	++started_in_queue_;
	return ok_status();
}

Status FcfsPriority::end(uint32_t, int64_t)
{
	return ok_status();
}

Result<std::vector<uint32_t>> FcfsPriority::rank(int64_t)
{
	if (started_in_queue_ > 0) {
		std::erase_if(queue_, [this](uint32_t job) { return started_[job] != 0; });
		started_in_queue_ = 0;
	}
	return queue_;
}

} // namespace campaign::sim
