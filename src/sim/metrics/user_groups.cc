// Campaign fairness by user group, the score sites compare with Slurm's fair-share: bounded
// campaign stretch flow / max(lower bound, tau) for all campaigns, light users (bottom half by
// CPU-seconds, and by job count), heavy users (top 10 % by CPU-seconds), and the p95 over users of
// each user's worst campaign. Groups come from the workload (the log's own run times and sizes),
// so every policy is scored on the same users. Part of compute_metrics.
#include "metrics/metrics_parts.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace campaign::sim::metrics_detail
{
namespace
{

struct UserLoad {
	uint32_t user = 0;
	double cpu_s = 0;
	uint64_t jobs = 0;
};

std::vector<UserLoad> user_loads(const Workload &workload)
{
	std::unordered_map<uint32_t, UserLoad> by_user;
	for (const SimJob &job : workload.jobs) {
		UserLoad &load = by_user[job.user];
		load.user = job.user;
		load.cpu_s += static_cast<double>(std::max<int64_t>(0, job.runtime_s)) * job.cpus;
		load.jobs++;
	}
	std::vector<UserLoad> loads;
	loads.reserve(by_user.size());
	for (const auto &[user, load] : by_user)
		loads.push_back(load);
	return loads;
}

// The first `count` users after sorting by `key` ascending (ties by user id, so stable).
template <typename Key>
std::unordered_set<uint32_t> lowest(std::vector<UserLoad> loads, size_t count, Key key)
{
	std::sort(loads.begin(), loads.end(), [&](const UserLoad &a, const UserLoad &b) {
		if (key(a) != key(b))
			return key(a) < key(b);
		return a.user < b.user;
	});
	std::unordered_set<uint32_t> users;
	for (size_t i = 0; i < std::min(count, loads.size()); i++)
		users.insert(loads[i].user);
	return users;
}

std::unordered_set<uint32_t> highest_by_cpu(std::vector<UserLoad> loads, size_t count)
{
	for (UserLoad &load : loads)
		load.cpu_s = -load.cpu_s;
	return lowest(std::move(loads), count, [](const UserLoad &l) { return l.cpu_s; });
}

GroupStretch group_of(const std::string &name, const std::unordered_set<uint32_t> *users,
                      const std::vector<CampaignMetrics> &campaigns, double tau_s)
{
	GroupStretch group;
	group.group = name;
	std::vector<double> values;
	std::unordered_map<uint32_t, double> worst;
	for (const CampaignMetrics &campaign : campaigns) {
		if (users && !users->count(campaign.user))
			continue;
		const double stretch = bounded_campaign_stretch(campaign, tau_s);
		values.push_back(stretch);
		double &user_worst = worst[campaign.user];
		user_worst = std::max(user_worst, stretch);
	}
	group.users = worst.size();
	group.bounded_stretch = summarize(std::move(values));
	std::vector<double> worst_values;
	for (const auto &[user, value] : worst)
		worst_values.push_back(value);
	group.user_worst = summarize(std::move(worst_values));
	return group;
}

std::unordered_set<uint32_t> group_of_loads(const std::vector<UserLoad> &loads,
                                            const std::string &group)
{
	const size_t half = loads.size() / 2;
	if (group == "light_cpu")
		return lowest(loads, half, [](const UserLoad &l) { return l.cpu_s; });
	if (group == "light_jobs")
		return lowest(loads, half,
		              [](const UserLoad &l) { return static_cast<double>(l.jobs); });
	if (group == "heavy_cpu")
		return highest_by_cpu(loads, static_cast<size_t>(std::ceil(
		                                 static_cast<double>(loads.size()) / 10.0)));
	return {};
}

} // namespace

void score_user_groups(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out)
{
	const std::vector<UserLoad> loads = user_loads(scored.workload);
	const auto light_cpu = group_of_loads(loads, "light_cpu");
	const auto light_jobs = group_of_loads(loads, "light_jobs");
	const auto heavy = group_of_loads(loads, "heavy_cpu");
	const double tau = options.campaign_stretch_tau_s;
	out.user_groups = {group_of("all", nullptr, out.campaigns, tau),
	                   group_of("light_cpu", &light_cpu, out.campaigns, tau),
	                   group_of("light_jobs", &light_jobs, out.campaigns, tau),
	                   group_of("heavy_cpu", &heavy, out.campaigns, tau)};
}

} // namespace campaign::sim::metrics_detail

namespace campaign::sim
{

std::unordered_set<uint32_t> user_group(const Workload &workload, const std::string &group)
{
	return metrics_detail::group_of_loads(metrics_detail::user_loads(workload), group);
}

} // namespace campaign::sim

namespace campaign::sim
{

double bounded_campaign_stretch(const CampaignMetrics &campaign, double tau_s)
{
	const double bound = std::max(campaign.lower_bound_s, tau_s);
	return bound > 0 ? static_cast<double>(campaign.flow_s) / bound : 0;
}

} // namespace campaign::sim
