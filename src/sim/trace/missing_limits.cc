// A default limit for the jobs a log gives none (see the header).
#include "trace/missing_limits.h"

#include <algorithm>

namespace campaign::sim
{

MissingLimits give_missing_limits(Workload &workload, const MissingLimitRule &rule)
{
	MissingLimits given;
	given.rule = rule;
	given.longer_s = rule.longer_s;
	if (rule.longer_is_longest_run)
		for (const SimJob &job : workload.jobs)
			given.longer_s = std::max(given.longer_s, job.runtime_s);
	for (SimJob &job : workload.jobs) {
		if (job.limit_s >= 0)
			continue;
		++given.given;
		if (job.runtime_s <= rule.default_s) {
			job.limit_s = rule.default_s;
			continue;
		}
		++given.ran_longer;
		job.limit_s = std::max(given.longer_s, job.runtime_s);
	}
	return given;
}

std::string missing_limits_note(const MissingLimits &given)
{
	const std::string longer = given.longer_s > 0
	                               ? std::to_string(given.longer_s) + " s (at least their run)"
	                               : "their run";
	return "--missing-limit: " + std::to_string(given.given) +
	       " jobs without a limit in the log given " + std::to_string(given.rule.default_s) +
	       " s; the " + std::to_string(given.ran_longer) + " of them that ran longer " + longer;
}

std::string unknown_limits_note(const Workload &workload)
{
	const auto unknown =
	    static_cast<uint64_t>(std::count_if(workload.jobs.begin(), workload.jobs.end(),
	                                        [](const SimJob &job) { return job.limit_s < 0; }));
	if (unknown == 0)
		return "";
	const uint64_t percent = (200 * unknown / workload.jobs.size() + 1) / 2; // rounded
	return "limits unknown: " + std::to_string(unknown) + " of " +
	       std::to_string(workload.jobs.size()) + " jobs (" + std::to_string(percent) +
	       " %) give none and are planned by their runs, a limit known exactly, by every "
	       "policy (--missing-limit S[,M] gives them a DefaultTime instead)";
}

} // namespace campaign::sim
