// Rank-to-priority mapping. No Slurm types.
#include "util/rank_priority.h"

#include <algorithm>

namespace campaign
{

uint32_t priority_for_rank(size_t rank)
{
	if (rank >= kTopPriority - 1)
		return 1;
	return kTopPriority - static_cast<uint32_t>(rank);
}

uint32_t published_priority(uint32_t rank_priority, int64_t nice)
{
	const int64_t value = static_cast<int64_t>(rank_priority) - nice;
	return static_cast<uint32_t>(std::clamp<int64_t>(value, 1, kHighestPriority));
}

int64_t rank_priority_of(uint32_t published, int64_t nice)
{
	return static_cast<int64_t>(published) + nice;
}

} // namespace campaign
