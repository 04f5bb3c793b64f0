// Runtime estimates the schedulers see (exact, requested, Klusáček's f-model, predicted), and
// the run time a job really gets (killed at its requested limit, as Klusáček's F2.1).
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace campaign::sim
{

enum class EstimateKind { exact, requested, fmodel, predicted };

// Whose jobs an experiment's estimate applies to: a scoring group's users (metrics' user_group:
// light_cpu, light_jobs, heavy_cpu), or all but them (`complement`); no group: every user's.
struct UserSelection {
	std::string group;
	bool complement = false;
	bool everyone() const { return group.empty(); }
};

// The selection's test of a user in this workload (the group is worked out once).
std::function<bool(uint32_t user)> selected_users(const Workload &workload,
                                                  const UserSelection &selection);

struct EstimateOptions {
	EstimateKind kind = EstimateKind::requested;
	double f = 2;      // f-model factor (Klusáček: 2, 5, 10, 20, 50)
	uint64_t seed = 1; // f-model noise
	// Only these users' jobs take `kind` (exact or fmodel), the rest their requested limits: a
	// model of limits tightened by one group of users.
	UserSelection users;
};

Result<EstimateKind> parse_estimate_kind(const std::string &name);
const char *to_string(EstimateKind kind);

// What the planner alone books, apart from --estimate (which the ranking core counts too): an
// experiment's split of where run-time knowledge matters (doc/fairness-results.md, "Limits in
// the planner and in the order"). same: the run's estimate; exact: the run; limit: the requested
// limit; expected: the core's expected run (CampaignCore::expected_run_s; the limit where it
// has none); predicted: Tsafrir's prediction (RuntimePredictor); similar: the same over the
// user's jobs of the same limit and CPU count (Smith's templates), Tsafrir's where the user has
// none yet; consistent: the longer of the last two runs of those jobs when the two agree within
// 1.5x, the limit otherwise (a guess that seldom books less than the run). A pending job's
// guess (exact included: a limit `factor` times the run) is multiplied by `factor` and never
// above the limit; only pending jobs take expected, predicted, similar and consistent.
enum class PlannerEstimate { same, exact, limit, expected, predicted, similar, consistent };

struct PlannerEstimateOptions {
	PlannerEstimate pending = PlannerEstimate::same;
	PlannerEstimate running = PlannerEstimate::same; // same, exact or limit
	double factor = 1;
	// Only these users' pending jobs take `pending`; the others book the estimate.
	UserSelection pending_users;
};

Result<PlannerEstimate> parse_planner_estimate(const std::string &name);

// What the job asked for (its run where the log gives no limit), never below its run or 1 s:
// the `requested` estimate.
int64_t requested_estimate_s(const SimJob &job, int64_t runtime_s);

// The run time each job gets: min(run time, requested limit) when the limit is known.
std::vector<int64_t> effective_runtimes(const Workload &workload);

// The estimate of every job known before the run (exact, requested, fmodel); for `predicted`
// the requested limits, which cap the online prediction. Always >= 1 s.
std::vector<int64_t> static_estimates(const Workload &workload,
                                      const std::vector<int64_t> &runtimes_s,
                                      const EstimateOptions &options);

// Tsafrir et al.'s prediction: the mean of the user's last two run times, never above the
// limit; the limit until the user has finished a job. predict_similar: the mean of the last two
// of the user's jobs that asked for the same limit and CPUs (a template, after Smith, Foster and
// Taylor), Tsafrir's prediction until one of those has finished.
class RuntimePredictor
{
public:
	// `keeps_templates`: finished() records the templates predict_similar and
	// predict_consistent read (without, they see none: Tsafrir's and the limit); off, a job's
	// end costs no hash-map insert in the runs that never ask.
	explicit RuntimePredictor(bool keeps_templates = false) : keeps_templates_(keeps_templates)
	{
	}
	int64_t predict(uint32_t user, int64_t limit_s) const;
	int64_t predict_similar(uint32_t user, int64_t limit_s, uint32_t cpus) const;
	// The longer of the template's last two runs when they agree within 1.5x; else the limit.
	int64_t predict_consistent(uint32_t user, int64_t limit_s, uint32_t cpus) const;
	// limit_s and cpus: what the job asked for (its template).
	void finished(uint32_t user, int64_t runtime_s, int64_t limit_s, uint32_t cpus);

private:
	struct History {
		int64_t last_s = -1, before_last_s = -1;
		void add(int64_t runtime_s);
		int64_t mean_within(int64_t limit_s) const;
	};
	struct Template {
		uint32_t user;
		uint32_t cpus;
		int64_t limit_s;
		bool operator==(const Template &) const = default;
	};
	struct TemplateHash {
		size_t operator()(const Template &key) const;
	};
	bool keeps_templates_ = false;
	std::vector<History> users_;
	std::unordered_map<Template, History, TemplateHash> templates_;
};

} // namespace campaign::sim
