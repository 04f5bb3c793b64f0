// Time-limit resolution of the job model (doc/design.md §3). No Slurm types, no policy.
#include "model/job.h"

#include <algorithm>

namespace campaign
{

int64_t resolve_limit_s(const TimeLimit &limit, const PartitionCapacity *partition,
                        int64_t limit_cap_s)
{
	if (limit.kind == TimeLimit::Kind::Set)
		return std::max<int64_t>(0, limit.seconds);
	if (partition && partition->default_time_s)
		return std::max<int64_t>(0, *partition->default_time_s);
	if (partition && partition->max_time_s)
		return std::max<int64_t>(0, *partition->max_time_s);
	return std::max<int64_t>(0, limit_cap_s);
}

} // namespace campaign
