// Shared campaigns: offline detection on the log (the same code the tests check against the
// online detector), or the generator's own campaign numbers.
#include "engine/shared_campaigns.h"

#include "campaign/offline_detection.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace campaign::sim
{

std::vector<uint64_t> shared_campaigns(const Workload &workload,
                                       const std::vector<int64_t> &runtimes_s,
                                       const DetectionRule &rule)
{
	const std::vector<SimJob> &jobs = workload.jobs;
	if (workload.closed_loop) {
		std::vector<uint64_t> campaigns;
		campaigns.reserve(jobs.size());
		for (const SimJob &job : jobs)
			campaigns.push_back(job.campaign);
		return campaigns;
	}
	// The log's own submissions: with --load every job keeps the campaign of the original log.
	const auto submitted = [](const SimJob &job) {
		return job.log_submit_s >= 0 ? job.log_submit_s : job.submit_s;
	};
	std::vector<uint32_t> order(jobs.size());
	std::iota(order.begin(), order.end(), 0u);
	std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
		return submitted(jobs[a]) < submitted(jobs[b]);
	});
	std::unordered_map<uint32_t, uint32_t> group_of_user;
	std::vector<TraceJob> trace;
	trace.reserve(jobs.size());
	for (uint32_t index : order) {
		const SimJob &job = jobs[index];
		const int64_t submit = submitted(job);
		const int64_t start = job.trace_start_s >= submit ? job.trace_start_s : submit;
		const auto group =
		    group_of_user.emplace(job.user, group_of_user.size()).first->second;
		trace.push_back({group, submit, start + runtimes_s[index]});
	}
	const std::vector<uint64_t> sorted = detect_campaigns_offline(trace, rule);
	std::vector<uint64_t> campaigns(jobs.size());
	for (size_t i = 0; i < order.size(); ++i)
		campaigns[order[i]] = sorted[i];
	return campaigns;
}

} // namespace campaign::sim
