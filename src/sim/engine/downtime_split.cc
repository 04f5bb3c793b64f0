// downtime_pieces: one pass over the jobs in submit order, tracking the log's latest end so far.
#include "engine/downtime_split.h"

#include <algorithm>

namespace campaign::sim
{

std::vector<std::pair<size_t, size_t>>
downtime_pieces(const Workload &workload, const std::vector<int64_t> &runtimes_s, int64_t gap_s)
{
	std::vector<std::pair<size_t, size_t>> pieces;
	size_t first = 0;
	int64_t busy_until_s = 0; // the latest end in the log of the jobs so far
	for (size_t i = 0; i < workload.jobs.size(); ++i) {
		const SimJob &job = workload.jobs[i];
		if (i > first && job.submit_s - busy_until_s >= gap_s) {
			pieces.emplace_back(first, i);
			first = i;
		}
		const int64_t started_s =
		    job.trace_start_s >= job.submit_s ? job.trace_start_s : job.submit_s;
		busy_until_s = i == first ? started_s + runtimes_s[i]
		                          : std::max(busy_until_s, started_s + runtimes_s[i]);
	}
	if (first < workload.jobs.size())
		pieces.emplace_back(first, workload.jobs.size());
	return pieces;
}

} // namespace campaign::sim
