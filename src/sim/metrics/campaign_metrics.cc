// Campaign metrics (OStrich 5.1, FairCamp 5.2): flow, lower bound, stretch, Delta(zeta), the
// stretch shares and intervals. Part of compute_metrics; no output formatting.
#include "metrics/lpt_schedule.h"
#include "metrics/metrics_parts.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace campaign::sim::metrics_detail
{
namespace
{

using Member = std::pair<uint64_t, size_t>; // (campaign, outcome index)

// Outcomes grouped by campaign id (campaign 0 left out), each group in outcome order.
std::vector<Member> campaign_members(const RunResult &run)
{
	std::vector<Member> members;
	members.reserve(run.jobs.size());
	for (size_t i = 0; i < run.jobs.size(); i++)
		if (run.jobs[i].campaign != 0)
			members.push_back({run.jobs[i].campaign, i});
	std::sort(members.begin(), members.end());
	return members;
}

// One campaign whose jobs all finished; false if its lower bound is 0 (only 0 s jobs).
bool score_campaign(const ScoredRun &scored, const Member *begin, const Member *end,
                    CampaignMetrics &row, bool &mixed_users)
{
	const auto &outcomes = scored.run.jobs;
	const size_t first = begin->second;
	row.campaign = begin->first;
	row.user = scored.workload.jobs[outcomes[first].job].user;
	row.submit_s = outcomes[first].submit_s;
	row.start_s = outcomes[first].start_s;
	row.end_s = outcomes[first].end_s;
	std::vector<LptJob> lpt_jobs;
	lpt_jobs.reserve(end - begin);
	for (const Member *member = begin; member != end; ++member) {
		const JobOutcome &outcome = outcomes[member->second];
		const int64_t run_s = scored.times[member->second].run_s;
		const uint32_t cpus = scored.cpus(member->second);
		mixed_users |= scored.workload.jobs[outcome.job].user != row.user;
		row.submit_s = std::min(row.submit_s, outcome.submit_s);
		row.start_s = std::min(row.start_s, outcome.start_s);
		row.end_s = std::max(row.end_s, outcome.end_s);
		row.work_cpu_s += static_cast<double>(run_s) * cpus;
		row.longest_job_s = std::max(row.longest_job_s, run_s);
		lpt_jobs.push_back({run_s, cpus});
	}
	row.jobs = static_cast<uint32_t>(end - begin);
	row.flow_s = row.end_s - row.submit_s;
	row.lower_bound_s =
	    std::max(row.work_cpu_s / scored.machine_cpus, static_cast<double>(row.longest_job_s));
	if (row.lower_bound_s <= 0)
		return false;
	row.stretch = static_cast<double>(row.flow_s) / row.lower_bound_s;
	row.lpt_makespan_s = lpt_makespan_s(std::move(lpt_jobs), scored.machine_cpus);
	return true;
}

bool all_finished(const ScoredRun &scored, const Member *begin, const Member *end)
{
	return std::all_of(begin, end, [&](const Member &member) {
		return scored.times[member.second].state == JobState::Finished;
	});
}

void count_stretches(const MetricOptions &options, RunMetrics &out)
{
	out.stretch_histogram = stretch_intervals();
	std::vector<double> stretches, flows;
	stretches.reserve(out.campaigns.size());
	flows.reserve(out.campaigns.size());
	uint64_t one = 0, below_1_5 = 0, above_20 = 0;
	for (const CampaignMetrics &row : out.campaigns) {
		stretches.push_back(row.stretch);
		flows.push_back(static_cast<double>(row.flow_s));
		one += std::abs(row.stretch - 1) <= options.stretch_one_tolerance;
		below_1_5 += row.stretch < 1.5;
		above_20 += row.stretch > 20;
		auto interval = std::find_if(
		    out.stretch_histogram.rbegin(), out.stretch_histogram.rend(),
		    [&](const StretchInterval &bin) { return bin.low <= row.stretch; });
		if (interval == out.stretch_histogram.rend())
			out.stretch_histogram.front().count++;
		else
			interval->count++;
	}
	if (!out.campaigns.empty()) {
		const double scored = static_cast<double>(out.campaigns.size());
		out.share_stretch_one = one / scored;
		out.share_stretch_below_1_5 = below_1_5 / scored;
		out.share_stretch_above_20 = above_20 / scored;
	}
	out.campaign_stretch = summarize(std::move(stretches));
	out.campaign_flow_s = summarize(std::move(flows));
}

} // namespace

void score_campaigns(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out)
{
	const std::vector<Member> members = campaign_members(scored.run);
	uint64_t mixed = 0;
	for (size_t begin = 0; begin < members.size();) {
		size_t end = begin + 1;
		while (end < members.size() && members[end].first == members[begin].first)
			end++;
		out.campaigns_total++;
		const Member *first = members.data() + begin;
		const Member *last = members.data() + end;
		begin = end;
		if (!all_finished(scored, first, last)) {
			out.campaigns_unfinished++;
			continue;
		}
		CampaignMetrics row;
		bool mixed_users = false;
		const bool has_stretch = score_campaign(scored, first, last, row, mixed_users);
		mixed += mixed_users;
		if (!has_stretch) {
			out.campaigns_zero_length++;
			continue;
		}
		out.campaigns.push_back(row);
	}
	out.campaigns_scored = out.campaigns.size();
	if (mixed != 0)
		out.notes.push_back(std::to_string(mixed) +
		                    " campaigns hold jobs of several users: each is scored for the "
		                    "user of its first job");
	if (out.campaigns_unfinished != 0)
		out.notes.push_back(
		    std::to_string(out.campaigns_unfinished) +
		    " campaigns have a job that never started or ended: not scored");
	count_stretches(options, out);
}

} // namespace campaign::sim::metrics_detail
