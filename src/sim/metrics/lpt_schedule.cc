// Delta(zeta) for the FairCamp user stretch: the makespan of an LPT list schedule of one
// campaign's jobs on the whole machine. Exact integer event simulation; no policy state.
#include "metrics/lpt_schedule.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace campaign::sim
{

int64_t lpt_makespan_s(std::vector<LptJob> jobs, uint32_t machine_cpus)
{
	const uint64_t capacity_cpus = std::max<uint32_t>(1, machine_cpus);
	std::stable_sort(jobs.begin(), jobs.end(), [](const LptJob &a, const LptJob &b) {
		return a.runtime_s > b.runtime_s;
	});
	using Running = std::pair<int64_t, uint64_t>; // (end_s, cpus)
	std::priority_queue<Running, std::vector<Running>, std::greater<Running>> running;
	uint64_t free_cpus = capacity_cpus;
	int64_t now_s = 0;
	int64_t makespan_s = 0;
	for (const LptJob &job : jobs) {
		const uint64_t cpus = std::clamp<uint64_t>(job.cpus, 1, capacity_cpus);
		while (free_cpus < cpus) {
			now_s = std::max(now_s, running.top().first);
			free_cpus += running.top().second;
			running.pop();
		}
		free_cpus -= cpus;
		const int64_t end_s = now_s + std::max<int64_t>(0, job.runtime_s);
		running.push({end_s, cpus});
		makespan_s = std::max(makespan_s, end_s);
	}
	return makespan_s;
}

} // namespace campaign::sim
