// Per-user metrics: max/mean campaign stretch, FairCamp's cumulative user stretch, Jain's index,
// Klusacek's NUWT and its fairness F, per-profile means. Part of compute_metrics.
#include "metrics/metrics_parts.h"

#include <algorithm>
#include <unordered_map>

namespace campaign::sim::metrics_detail
{
namespace
{

struct UserTotals {
	UserMetrics row;
	double bounded_slowdown_sum = 0;
	double stretch_sum = 0;
	double flow_sum_s = 0;
	double lpt_sum_s = 0;
	double lower_bound_sum_s = 0;
};

using UserMap = std::unordered_map<uint32_t, UserTotals>;

void add_jobs(const ScoredRun &scored, UserMap &users)
{
	for (size_t i = 0; i < scored.run.jobs.size(); i++) {
		const JobTimes &times = scored.times[i];
		if (times.state != JobState::Finished)
			continue;
		const uint32_t user = scored.workload.jobs[scored.run.jobs[i].job].user;
		UserTotals &totals = users[user];
		totals.row.jobs++;
		totals.bounded_slowdown_sum += times.bounded_slowdown;
		totals.row.total_wait_s += static_cast<double>(times.wait_s);
		totals.row.total_area_cpu_s += static_cast<double>(times.run_s) * scored.cpus(i);
	}
}

void add_campaigns(const std::vector<CampaignMetrics> &campaigns, UserMap &users)
{
	for (const CampaignMetrics &campaign : campaigns) {
		UserTotals &totals = users[campaign.user];
		totals.row.campaigns++;
		totals.row.max_campaign_stretch =
		    std::max(totals.row.max_campaign_stretch, campaign.stretch);
		totals.stretch_sum += campaign.stretch;
		totals.flow_sum_s += static_cast<double>(campaign.flow_s);
		totals.lpt_sum_s += static_cast<double>(campaign.lpt_makespan_s);
		totals.lower_bound_sum_s += campaign.lower_bound_s;
	}
}

UserMetrics finish_user(uint32_t user, const UserTotals &totals, const MetricOptions &options)
{
	UserMetrics row = totals.row;
	row.user = user;
	auto profile = options.user_profiles.find(user);
	if (profile != options.user_profiles.end())
		row.profile = profile->second;
	if (row.jobs != 0)
		row.mean_bounded_slowdown = totals.bounded_slowdown_sum / row.jobs;
	if (row.total_area_cpu_s > 0)
		row.nuwt = row.total_wait_s / row.total_area_cpu_s;
	if (row.campaigns != 0) {
		row.mean_campaign_stretch = totals.stretch_sum / row.campaigns;
		if (totals.lpt_sum_s > 0)
			row.cumulative_stretch_lpt = totals.flow_sum_s / totals.lpt_sum_s;
		row.cumulative_stretch_bound = totals.flow_sum_s / totals.lower_bound_sum_s;
	}
	return row;
}

void score_nuwt(RunMetrics &out)
{
	std::vector<double> nuwts;
	for (const UserMetrics &user : out.users)
		if (user.total_area_cpu_s > 0)
			nuwts.push_back(user.nuwt);
	out.nuwt = summarize(nuwts);
	out.uwt = out.nuwt.mean;
	out.nuwt_fairness = 0;
	for (const double nuwt : nuwts)
		out.nuwt_fairness += (out.uwt - nuwt) * (out.uwt - nuwt);
}

void score_profiles(RunMetrics &out)
{
	std::map<std::string, ProfileMetrics> profiles;
	for (const UserMetrics &user : out.users) {
		if (user.profile.empty() || user.campaigns == 0)
			continue;
		ProfileMetrics &profile = profiles[user.profile];
		profile.profile = user.profile;
		profile.users++;
		profile.mean_max_campaign_stretch += user.max_campaign_stretch;
		profile.mean_mean_campaign_stretch += user.mean_campaign_stretch;
	}
	for (auto &[name, profile] : profiles) {
		profile.mean_max_campaign_stretch /= profile.users;
		profile.mean_mean_campaign_stretch /= profile.users;
		out.profiles.push_back(profile);
	}
}

void score_user_stretch(RunMetrics &out)
{
	std::vector<double> max_stretch, mean_stretch, lpt, bound, slowdowns;
	for (const UserMetrics &user : out.users) {
		slowdowns.push_back(user.mean_bounded_slowdown);
		if (user.campaigns == 0)
			continue;
		max_stretch.push_back(user.max_campaign_stretch);
		mean_stretch.push_back(user.mean_campaign_stretch);
		lpt.push_back(user.cumulative_stretch_lpt);
		bound.push_back(user.cumulative_stretch_bound);
	}
	out.jain_user_mean_campaign_stretch = jain_index(mean_stretch);
	out.jain_user_mean_bounded_slowdown = jain_index(slowdowns);
	out.user_max_campaign_stretch = summarize(std::move(max_stretch));
	out.user_mean_campaign_stretch = summarize(std::move(mean_stretch));
	out.user_cumulative_stretch_lpt = summarize(std::move(lpt));
	out.user_cumulative_stretch_bound = summarize(std::move(bound));
	out.max_user_cumulative_stretch_lpt = out.user_cumulative_stretch_lpt.max;
	out.max_user_cumulative_stretch_bound = out.user_cumulative_stretch_bound.max;
}

} // namespace

void score_users(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out)
{
	UserMap users;
	add_jobs(scored, users);
	add_campaigns(out.campaigns, users);
	out.users.reserve(users.size());
	for (const auto &[user, totals] : users)
		out.users.push_back(finish_user(user, totals, options));
	std::sort(out.users.begin(), out.users.end(),
	          [](const UserMetrics &a, const UserMetrics &b) { return a.user < b.user; });
	out.users_total = out.users.size();
	score_user_stretch(out);
	score_nuwt(out);
	score_profiles(out);
}

} // namespace campaign::sim::metrics_detail
