// Offline campaign detection: one pass over an eligible-time-sorted trace, keeping per group the
// first eligible time and the running maximum end time. No Slurm types.
#include "campaign/offline_detection.h"

#include <algorithm>

namespace campaign
{
namespace
{

struct GroupState {
	uint64_t campaign = 0;
	int64_t first_eligible_s = 0;
	int64_t max_end_s = 0;
};

bool joins(const DetectionRule &rule, const GroupState &state, int64_t eligible_s)
{
	if (state.campaign == 0)
		return false;
	if (rule.kind == DetectionRule::Kind::Window)
		return eligible_s - state.first_eligible_s < rule.window_s;
	if (rule.max_span_s > 0 && eligible_s - state.first_eligible_s >= rule.max_span_s)
		return false;
	return eligible_s < state.max_end_s + rule.threshold_s;
}

} // namespace

std::vector<uint64_t> detect_campaigns_offline(const std::vector<TraceJob> &jobs,
                                               const DetectionRule &rule)
{
	std::vector<GroupState> groups;
	std::vector<uint64_t> campaign_of_job;
	campaign_of_job.reserve(jobs.size());
	uint64_t next_campaign = 1;
	for (const TraceJob &job : jobs) {
		if (job.group >= groups.size())
			groups.resize(job.group + 1);
		GroupState &state = groups[job.group];
		if (!joins(rule, state, job.eligible_s)) {
			state.campaign = next_campaign++;
			state.first_eligible_s = job.eligible_s;
			state.max_end_s = job.end_s;
		}
		state.max_end_s = std::max(state.max_end_s, job.end_s);
		campaign_of_job.push_back(state.campaign);
	}
	return campaign_of_job;
}

} // namespace campaign
