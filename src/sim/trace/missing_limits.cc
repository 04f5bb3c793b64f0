// A default limit for the jobs a log gives none (see the header).
#include "trace/missing_limits.h"

#include <algorithm>

namespace campaign::sim
{

MissingLimits give_missing_limits(Workload &workload, int64_t default_limit_s)
{
	MissingLimits given;
	given.default_s = default_limit_s;
	for (SimJob &job : workload.jobs) {
		if (job.limit_s >= 0)
			continue;
		++given.given;
		given.ran_longer += job.runtime_s > default_limit_s;
		job.limit_s = std::max(default_limit_s, job.runtime_s);
	}
	return given;
}

std::string missing_limits_note(const MissingLimits &given)
{
	return "--missing-limit " + std::to_string(given.default_s) + ": " +
	       std::to_string(given.given) + " jobs without a limit in the log given " +
	       std::to_string(given.default_s) + " s (" + std::to_string(given.ran_longer) +
	       " of them ran longer and were given their run)";
}

} // namespace campaign::sim
