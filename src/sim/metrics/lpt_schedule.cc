// Delta(zeta) for the FairCamp user stretch: the core's own list schedule (one definition for
// the policy's deadlines and the metric's denominator), in whole seconds.
#include "metrics/lpt_schedule.h"

#include "policy/faircamp_deadlines.h"

#include <algorithm>
#include <cmath>

namespace campaign::sim
{

int64_t lpt_makespan_s(std::vector<LptJob> jobs, uint32_t machine_cpus)
{
	const uint32_t capacity_cpus = std::max<uint32_t>(1, machine_cpus);
	std::vector<ListJob> list;
	list.reserve(jobs.size());
	for (size_t i = 0; i < jobs.size(); ++i)
		list.push_back({static_cast<uint32_t>(i + 1),
		                std::clamp<uint32_t>(jobs[i].cpus, 1, capacity_cpus), 1,
		                std::max<int64_t>(0, jobs[i].runtime_s)});
	return std::llround(list_schedule_makespan_s(std::move(list), capacity_cpus));
}

} // namespace campaign::sim
