// Slurm-style fair-share baselines for campsim: priority/multifactor reduced to its fair-share
// and age factors, with the classic or the Fair Tree fair-share factor. No Slurm types, no core.
#pragma once

#include "engine/priority_source.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace campaign::sim
{

enum class FairShareVariant {
	classic,   // PriorityFlags=NO_FAIR_TREE: F = 2^(-U/S)
	fair_tree, // Slurm's default since 19.05: rank users by level fairshare, depth first
};

// "fairshare" or "fairtree" (RunResult::priority).
const char *fair_share_variant_name(FairShareVariant variant);

// slurm.conf equivalents in the comments; defaults are Slurm's except where noted.
struct FairShareOptions {
	FairShareVariant variant = FairShareVariant::fair_tree;
	int64_t half_life_s = 7 * 86400; // PriorityDecayHalfLife (0: no decay)
	int64_t max_age_s = 7 * 86400;   // PriorityMaxAge
	double weight_fairshare = 10000; // PriorityWeightFairshare (Slurm's default is 0)
	double weight_age = 1000;        // PriorityWeightAge (Slurm's default is 0)
	int64_t calc_period_s = 300;     // PriorityCalcPeriod (0: recompute at every rank)
	// The passes' phase: at calc_phase_s + k * calc_period_s (slurmctld's decay thread runs
	// every period from its start).
	int64_t calc_phase_s = 0;
};

// The problem with the options (naming the field), or ok.
Status check_fair_share_options(const FairShareOptions &options);

// Job priority = floor(weight_fairshare * F + weight_age * min(age / max_age_s, 1)), truncated
// like Slurm's uint32 job priority; pending jobs rank by priority (higher first), then submit
// time, then job index.
//
// Usage: an association is (account = SimJob::group, user). Its usage is the CPU-seconds of its
// running jobs, accrued continuously and decayed by 2^(-dt/half_life_s); it is caught up
// lazily (per association at start/end, all associations at a pass).
//
// Passes (Slurm's decay thread): fair-share factors and the priorities of all pending jobs
// are recomputed only at a pass, which runs at the first rank at or after each multiple of
// calc_period_s (and at the first rank after a job from an association not seen before:
// Slurm knows every association from its database, we learn them from submissions). A job
// submitted between passes gets its priority at once from the last pass' factor and age 0, as
// Slurm gives new jobs a priority at submission. Between passes ages and priorities are frozen.
//
// Shares: equal among the users (classic) or among sibling accounts and among the users of an
// account (Fair Tree), counting those seen so far.
class FairSharePriority : public PrioritySource
{
public:
	explicit FairSharePriority(FairShareOptions options = {});

	Status submit(uint32_t job, const SimJob &fields, int64_t now_s) override;
	Status start(uint32_t job, int64_t now_s) override;
	Status end(uint32_t job, int64_t now_s) override;
	Result<std::vector<uint32_t>> rank(int64_t now_s) override;
	// The first max_jobs of rank's order (a pass that starts only jobs of the head need not
	// copy a queue of thousands), and a longer head of it at the same instant.
	Result<std::vector<uint32_t>> rank_head(int64_t now_s, size_t max_jobs) override;
	Result<std::vector<uint32_t>> longer_head(int64_t now_s, size_t max_jobs) override;
	uint64_t campaign_of(uint32_t) const override { return 0; }

	// Inspection (tests, reports): values as of the last pass or submission.
	double priority_of(uint32_t job) const;
	double fair_share_factor_of(uint32_t job) const;
	// The user's decayed usage (over all its accounts) projected to now_s (>= the last event).
	double usage_cpu_s(uint32_t user, int64_t now_s) const;
	const FairShareOptions &options() const { return options_; }

private:
	enum class JobState : uint8_t { unknown, pending, running, ended };
	struct JobRecord {
		JobState state = JobState::unknown;
		uint32_t association = 0;
		uint32_t cpus = 0;
		int64_t submit_s = 0;
		double priority = 0;
	};
	struct Association {
		uint32_t user = 0;
		uint32_t account = 0;    // index into accounts_
		uint32_t user_index = 0; // index into user_ids_ (classic)
		double usage_cpu_s = 0;  // decayed, as of updated_s
		int64_t updated_s = 0;
		uint32_t running_cpus = 0;
		double factor = 1; // fair-share factor F, as of the last pass
	};
	struct Account {
		std::vector<uint32_t> associations;
	};

	uint32_t association_for(const SimJob &fields, int64_t now_s);
	double decayed(const Association &association, int64_t now_s) const;
	void catch_up(Association &association, int64_t now_s);
	void run_pass(int64_t now_s);
	void compute_classic_factors();
	void compute_fair_tree_factors();
	double job_priority(const JobRecord &record, int64_t now_s) const;
	struct SortKey { // what the ranking reads of a job
		double priority;
		int64_t submit_s;
		uint32_t job;
	};
	SortKey key_of(uint32_t job) const;
	// Higher priority first, then earlier submission, then lower index.
	static bool key_before(const SortKey &a, const SortKey &b)
	{
		if (a.priority != b.priority)
			return a.priority > b.priority;
		if (a.submit_s != b.submit_s)
			return a.submit_s < b.submit_s;
		return a.job < b.job;
	}
	bool ranks_before(uint32_t a, uint32_t b) const;
	void refresh_ranking(bool full_sort);
	Status rank_now(int64_t now_s);
	void sort_by_keys(std::vector<uint32_t> &jobs);
	Status job_error(uint32_t job, const char *problem) const;

	FairShareOptions options_;
	Status valid_;
	std::vector<JobRecord> jobs_;
	std::vector<Association> associations_;
	std::unordered_map<uint64_t, uint32_t> association_index_; // (group << 32 | user)
	std::vector<Account> accounts_;
	std::unordered_map<uint32_t, uint32_t> account_index_; // group -> accounts_
	std::vector<uint32_t> user_ids_;
	std::unordered_map<uint32_t, uint32_t> user_index_; // user -> user_ids_
	bool pass_forced_ = true;
	int64_t next_pass_s_ = 0;
	std::vector<uint32_t> ranked_;   // pending jobs, best first, as of the last rank
	std::vector<uint32_t> arrivals_; // submitted since the last rank
	std::vector<SortKey> sort_keys_; // sort_by_keys', kept for its capacity
	bool started_since_rank_ = false;
};

} // namespace campaign::sim
