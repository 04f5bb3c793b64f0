// Estimate models: what the planner believes a job will take, never what it takes.
#include "engine/estimates.h"

#include "metrics/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <unordered_set>

namespace campaign::sim
{

Result<EstimateKind> parse_estimate_kind(const std::string &name)
{
	if (name == "exact")
		return EstimateKind::exact;
	if (name == "requested")
		return EstimateKind::requested;
	if (name == "fmodel")
		return EstimateKind::fmodel;
	if (name == "predicted")
		return EstimateKind::predicted;
	return Error{"estimate '" + name + "': expected exact, requested, fmodel or predicted"};
}

const char *to_string(EstimateKind kind)
{
	switch (kind) {
	case EstimateKind::exact:
		return "exact";
	case EstimateKind::requested:
		return "requested";
	case EstimateKind::fmodel:
		return "fmodel";
	case EstimateKind::predicted:
		return "predicted";
	}
	return "?";
}

Result<PlannerEstimate> parse_planner_estimate(const std::string &name)
{
	if (name == "same")
		return PlannerEstimate::same;
	if (name == "exact")
		return PlannerEstimate::exact;
	if (name == "limit")
		return PlannerEstimate::limit;
	if (name == "expected")
		return PlannerEstimate::expected;
	if (name == "predicted")
		return PlannerEstimate::predicted;
	if (name == "similar")
		return PlannerEstimate::similar;
	if (name == "consistent")
		return PlannerEstimate::consistent;
	return Error{"planner estimate '" + name +
	             "': expected same, exact, limit, expected, predicted, similar or consistent"};
}

int64_t requested_estimate_s(const SimJob &job, int64_t runtime_s)
{
	return std::max<int64_t>({job.limit_s >= 0 ? job.limit_s : runtime_s, runtime_s, 1});
}

std::vector<int64_t> effective_runtimes(const Workload &workload)
{
	std::vector<int64_t> runtimes;
	runtimes.reserve(workload.jobs.size());
	for (const SimJob &job : workload.jobs)
		runtimes.push_back(job.limit_s >= 0 ? std::min(job.runtime_s, job.limit_s)
		                                    : job.runtime_s);
	return runtimes;
}

namespace
{
// Klusáček's k in (0.9, 1.1) around 1.0: a normal with sigma 0.05, drawn again outside the
// interval. Box-Muller on our own uniform mapping so the stream does not depend on the library.
double noise_factor(std::mt19937_64 &random)
{
	for (;;) {
		const double u1 = (static_cast<double>(random() >> 11) + 1.0) * 0x1.0p-53;
		const double u2 = static_cast<double>(random() >> 11) * 0x1.0p-53;
		const double k =
		    1.0 + 0.05 * std::sqrt(-2.0 * std::log(u1)) * std::cos(2 * M_PI * u2);
		if (k > 0.9 && k < 1.1)
			return k;
	}
}
} // namespace

std::function<bool(uint32_t user)> selected_users(const Workload &workload,
                                                  const UserSelection &selection)
{
	if (selection.everyone())
		return [](uint32_t) { return true; };
	auto group = std::make_shared<const std::unordered_set<uint32_t>>(
	    user_group(workload, selection.group));
	return [group, complement = selection.complement](uint32_t user) {
		return (group->count(user) > 0) != complement;
	};
}

std::vector<int64_t> static_estimates(const Workload &workload,
                                      const std::vector<int64_t> &runtimes_s,
                                      const EstimateOptions &options)
{
	std::mt19937_64 random(options.seed);
	const auto selected = selected_users(workload, options.users);
	std::vector<int64_t> estimates;
	estimates.reserve(workload.jobs.size());
	for (size_t i = 0; i < workload.jobs.size(); ++i) {
		const int64_t runtime = runtimes_s[i];
		const int64_t limit = requested_estimate_s(workload.jobs[i], runtime);
		const bool takes = selected(workload.jobs[i].user);
		int64_t estimate = limit;
		if (takes && options.kind == EstimateKind::exact)
			estimate = runtime;
		else if (takes && options.kind == EstimateKind::fmodel)
			estimate = std::min<int64_t>(
			    limit, std::llround(static_cast<double>(runtime) * options.f *
			                        noise_factor(random)));
		estimates.push_back(std::max<int64_t>({estimate, runtime, 1}));
	}
	return estimates;
}

void RuntimePredictor::History::add(int64_t runtime_s)
{
	before_last_s = last_s;
	last_s = runtime_s;
}

// The mean of the last two (the last alone after one), within [1, limit_s]; -1 before any.
int64_t RuntimePredictor::History::mean_within(int64_t limit_s) const
{
	if (last_s < 0)
		return -1;
	const int64_t mean = before_last_s < 0 ? last_s : (last_s + before_last_s + 1) / 2;
	return std::max<int64_t>(std::min(mean, limit_s), 1);
}

size_t RuntimePredictor::TemplateHash::operator()(const Template &key) const
{
	const uint64_t mixed = (static_cast<uint64_t>(key.user) << 32 | key.cpus) ^
	                       (static_cast<uint64_t>(key.limit_s) * 0x9e3779b97f4a7c15ULL);
	return std::hash<uint64_t>{}(mixed);
}

int64_t RuntimePredictor::predict(uint32_t user, int64_t limit_s) const
{
	const int64_t mean = user < users_.size() ? users_[user].mean_within(limit_s) : -1;
	return mean >= 0 ? mean : std::max<int64_t>(limit_s, 1);
}

int64_t RuntimePredictor::predict_similar(uint32_t user, int64_t limit_s, uint32_t cpus) const
{
	const auto found = templates_.find({user, cpus, limit_s});
	const int64_t mean = found != templates_.end() ? found->second.mean_within(limit_s) : -1;
	return mean >= 0 ? mean : predict(user, limit_s);
}

int64_t RuntimePredictor::predict_consistent(uint32_t user, int64_t limit_s, uint32_t cpus) const
{
	const int64_t limit = std::max<int64_t>(limit_s, 1);
	const auto found = templates_.find({user, cpus, limit_s});
	if (found == templates_.end() || found->second.before_last_s < 0)
		return limit;
	const History &runs = found->second;
	const int64_t shorter = std::max<int64_t>(std::min(runs.last_s, runs.before_last_s), 1);
	const int64_t longer = std::max(runs.last_s, runs.before_last_s);
	if (2 * longer > 3 * shorter)
		return limit; // the two disagree: no guess worth booking
	return std::clamp<int64_t>(longer, 1, limit);
}

void RuntimePredictor::finished(uint32_t user, int64_t runtime_s, int64_t limit_s, uint32_t cpus)
{
	if (user >= users_.size())
		users_.resize(user + 1);
	users_[user].add(runtime_s);
	if (keeps_templates_)
		templates_[{user, cpus, limit_s}].add(runtime_s);
}

} // namespace campaign::sim
