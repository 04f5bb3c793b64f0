// Slurm-style fair-share baselines: usage bookkeeping, passes and ranking. The fair-share
// factors follow Slurm's documentation, cited at each formula. No Slurm types.
#include "engine/fair_share_priority.h"

#include "policy/fair_tree.h"

#include "policy/usage_decay.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <string>

namespace campaign::sim
{

const char *fair_share_variant_name(FairShareVariant variant)
{
	return variant == FairShareVariant::classic ? "fairshare" : "fairtree";
}

Status check_fair_share_options(const FairShareOptions &options)
{
	if (options.half_life_s < 0)
		return Error{"fair share: half_life_s must be >= 0 (0: no decay)"};
	if (options.max_age_s <= 0)
		return Error{"fair share: max_age_s must be > 0"};
	if (options.calc_period_s < 0)
		return Error{"fair share: calc_period_s must be >= 0 (0: every rank)"};
	if (options.calc_phase_s < 0)
		return Error{"fair share: calc_phase_s must be >= 0"};
	if (!std::isfinite(options.weight_fairshare) || options.weight_fairshare < 0)
		return Error{"fair share: weight_fairshare must be finite and >= 0"};
	if (!std::isfinite(options.weight_age) || options.weight_age < 0)
		return Error{"fair share: weight_age must be finite and >= 0"};
	return ok_status();
}

FairSharePriority::FairSharePriority(FairShareOptions options)
    : options_(options), valid_(check_fair_share_options(options))
{
}

Status FairSharePriority::job_error(uint32_t job, const char *problem) const
{
	return Error{std::string("fair share: job index ") + std::to_string(job) + " " + problem};
}

// ---- usage ----------------------------------------------------------------------------------

// Usage decays as 2^(-dt/half_life) (Slurm's PriorityDecayHalfLife: "a user's U_H usage will
// decay to half its original value after a time period of PriorityDecayHalfLife seconds",
// classic_fair_share.html, "Normalized Usage"). Running CPUs accrue continuously, so over dt
// they add running * integral_0^dt 2^(-s/h) ds = running * (1 - 2^(-dt/h)) * h / ln 2.
double FairSharePriority::decayed(const Association &association, int64_t now_s) const
{
	const int64_t elapsed_s = now_s - association.updated_s;
	if (elapsed_s <= 0)
		return association.usage_cpu_s;
	const UsageDecay decay(options_.half_life_s); // the plugin's model (policy/usage_decay.h)
	const double elapsed = static_cast<double>(elapsed_s);
	const double running = static_cast<double>(association.running_cpus);
	return association.usage_cpu_s * decay.factor(elapsed) + running * decay.accrued(elapsed);
}

void FairSharePriority::catch_up(Association &association, int64_t now_s)
{
	if (now_s <= association.updated_s)
		return;
	association.usage_cpu_s = decayed(association, now_s);
	association.updated_s = now_s;
}

double FairSharePriority::usage_cpu_s(uint32_t user, int64_t now_s) const
{
	double usage = 0;
	for (const Association &association : associations_)
		if (association.user == user)
			usage += decayed(association, now_s);
	return usage;
}

uint32_t FairSharePriority::association_for(const SimJob &fields, int64_t now_s)
{
	const uint64_t key = (static_cast<uint64_t>(fields.group) << 32) | fields.user;
	const auto found = association_index_.find(key);
	if (found != association_index_.end())
		return found->second;
	const auto account = account_index_.emplace(fields.group, accounts_.size()).first->second;
	if (account == accounts_.size())
		accounts_.emplace_back();
	const auto user = user_index_.emplace(fields.user, user_ids_.size()).first->second;
	if (user == user_ids_.size())
		user_ids_.push_back(fields.user);
	const uint32_t index = static_cast<uint32_t>(associations_.size());
	Association association;
	association.user = fields.user;
	association.account = account;
	association.user_index = user;
	association.updated_s = now_s;
	associations_.push_back(association);
	accounts_[account].associations.push_back(index);
	association_index_.emplace(key, index);
	pass_forced_ = true; // shares and Fair Tree ranks change with every new association
	return index;
}

// ---- job events -----------------------------------------------------------------------------

Status FairSharePriority::submit(uint32_t job, const SimJob &fields, int64_t now_s)
{
	if (!valid_.ok())
		return valid_;
	if (job >= jobs_.size())
		jobs_.resize(static_cast<size_t>(job) + 1);
	JobRecord &record = jobs_[job];
	if (record.state != JobState::unknown)
		return job_error(job, "submitted twice");
	record.association = association_for(fields, now_s);
	record.cpus = fields.cpus;
	record.submit_s = now_s;
	record.priority = job_priority(record, now_s);
	record.state = JobState::pending;
	arrivals_.push_back(job);
	return ok_status();
}

Status FairSharePriority::start(uint32_t job, int64_t now_s)
{
	if (job >= jobs_.size() || jobs_[job].state != JobState::pending)
		return job_error(job, "started but not pending");
	JobRecord &record = jobs_[job];
	Association &association = associations_[record.association];
	catch_up(association, now_s);
	association.running_cpus += record.cpus;
	record.state = JobState::running;
	started_since_rank_ = true;
	return ok_status();
}

Status FairSharePriority::end(uint32_t job, int64_t now_s)
{
	if (job >= jobs_.size() || jobs_[job].state != JobState::running)
		return job_error(job, "ended but not running");
	JobRecord &record = jobs_[job];
	Association &association = associations_[record.association];
	catch_up(association, now_s);
	association.running_cpus -= record.cpus;
	record.state = JobState::ended;
	return ok_status();
}

// ---- fair-share factors ---------------------------------------------------------------------

// Classic (classic_fair_share.html, "Simplified Fair-Share Formula"): F = 2^(-U/S), U = the
// user's decayed usage / the total decayed usage (U_H / R_H), S = the user's normalized share.
// All users sit directly under root with equal shares, S = 1 / users seen so far, where
// Slurm's effective usage equals the actual usage ("for the tier ... just under root, their
// effective usage equals their actual usage"). Accounts (SimJob::group) play no part.
void FairSharePriority::compute_classic_factors()
{
	std::vector<double> user_usage(user_ids_.size(), 0.0);
	double total_usage = 0;
	for (const Association &association : associations_) {
		user_usage[association.user_index] += association.usage_cpu_s;
		total_usage += association.usage_cpu_s;
	}
	const double share = 1.0 / static_cast<double>(std::max<size_t>(user_ids_.size(), 1));
	for (Association &association : associations_) {
		const double usage =
		    total_usage > 0 ? user_usage[association.user_index] / total_usage : 0.0;
		association.factor = std::exp2(-usage / share);
	}
}

// Fair Tree (fair_tree.html) by the core's implementation (policy/fair_tree.h), the one that also
// gives sshare's FairShare under priority/campaign: root -> accounts -> users, equal shares at
// each level (the accounts and users seen so far).
void FairSharePriority::compute_fair_tree_factors()
{
	std::vector<FairTreeNode> nodes(1 + accounts_.size() + associations_.size());
	nodes[0].usage = 0; // the root's usage is not used: it has no siblings
	for (uint32_t account = 0; account < accounts_.size(); account++)
		nodes[1 + account].parent = 0;
	const size_t first_user = 1 + accounts_.size();
	for (size_t i = 0; i < associations_.size(); i++) {
		FairTreeNode &node = nodes[first_user + i];
		node.user = true;
		node.usage = associations_[i].usage_cpu_s;
		node.parent = 1 + associations_[i].account;
		nodes[node.parent].usage += node.usage;
	}
	const FairTreeValues values = fair_tree(nodes);
	for (size_t i = 0; i < associations_.size(); i++)
		associations_[i].factor = values.fair_share[first_user + i];
}

// ---- priorities and ranking -----------------------------------------------------------------

// priority_multifactor.html: priority = sum of weight * factor; the age factor is the time
// since eligibility over PriorityMaxAge, capped at 1. Slurm stores the sum as a uint32 job
// priority (truncated, at least 1); we do the same, so equal truncated values tie.
double FairSharePriority::job_priority(const JobRecord &record, int64_t now_s) const
{
	const double fair_share = associations_[record.association].factor;
	const double age_s = static_cast<double>(std::max<int64_t>(now_s - record.submit_s, 0));
	const double age = std::min(age_s / static_cast<double>(options_.max_age_s), 1.0);
	const double sum = options_.weight_fairshare * fair_share + options_.weight_age * age;
	return std::max(std::floor(sum), 1.0);
}

FairSharePriority::SortKey FairSharePriority::key_of(uint32_t job) const
{
	return {jobs_[job].priority, jobs_[job].submit_s, job};
}

bool FairSharePriority::ranks_before(uint32_t a, uint32_t b) const
{
	return key_before(key_of(a), key_of(b));
}

// Slurm's decay thread: catch up every association's usage, recompute the fair-share factors
// (O(associations log associations)), then every pending job's priority.
void FairSharePriority::run_pass(int64_t now_s)
{
	for (Association &association : associations_)
		catch_up(association, now_s);
	if (options_.variant == FairShareVariant::classic)
		compute_classic_factors();
	else
		compute_fair_tree_factors();
	for (const std::vector<uint32_t> *jobs : {&ranked_, &arrivals_})
		for (uint32_t job : *jobs)
			if (jobs_[job].state == JobState::pending)
				jobs_[job].priority = job_priority(jobs_[job], now_s);
	pass_forced_ = false;
	const int64_t period = options_.calc_period_s;
	if (period == 0) {
		next_pass_s_ = now_s;
		return;
	}
	const int64_t phase = options_.calc_phase_s % period;
	const int64_t since_origin = now_s - phase;
	int64_t periods = since_origin / period; // floor, also before the origin
	if (since_origin % period != 0 && since_origin < 0)
		periods--;
	next_pass_s_ = phase + (periods + 1) * period;
}

// `jobs` in ranks_before's order, sorted on copies of what it reads: a pass sorts the whole
// queue, and a comparison that read two jobs' records scattered over jobs_ was most of that
// sort (a tenth of fair-share's EASY plan on LPC-EGEE at 0.95, a queue of thousands). The keys
// order every job (the index last), so the order is ranks_before's. A merge sort: the queue
// comes in the last pass's order, on which std::sort's partitions degraded to its heap sort.
void FairSharePriority::sort_by_keys(std::vector<uint32_t> &jobs)
{
	std::vector<SortKey> &keys = sort_keys_;
	keys.clear();
	keys.reserve(jobs.size());
	for (uint32_t job : jobs)
		keys.push_back(key_of(job));
	std::stable_sort(keys.begin(), keys.end(), [](const SortKey &a, const SortKey &b) {
		return key_before(a, b); // inline: a call per comparison was a third of the sort
	});
	for (size_t i = 0; i < keys.size(); ++i)
		jobs[i] = keys[i].job;
}

// Keeps ranked_ = the pending jobs, best first. Without a pass, priorities did not change: drop
// the started jobs and merge the sorted arrivals in, O(pending + arrivals log arrivals).
void FairSharePriority::refresh_ranking(bool full_sort)
{
	const auto is_pending = [&](uint32_t job) { return jobs_[job].state == JobState::pending; };
	const auto before = [&](uint32_t a, uint32_t b) { return ranks_before(a, b); };
	if (full_sort || started_since_rank_)
		ranked_.erase(std::remove_if(ranked_.begin(), ranked_.end(),
		                             [&](uint32_t job) { return !is_pending(job); }),
		              ranked_.end());
	arrivals_.erase(std::remove_if(arrivals_.begin(), arrivals_.end(),
	                               [&](uint32_t job) { return !is_pending(job); }),
	                arrivals_.end());
	if (full_sort) {
		ranked_.insert(ranked_.end(), arrivals_.begin(), arrivals_.end());
		sort_by_keys(ranked_);
	} else if (!arrivals_.empty()) {
		sort_by_keys(arrivals_);
		const size_t middle = ranked_.size();
		ranked_.insert(ranked_.end(), arrivals_.begin(), arrivals_.end());
		std::inplace_merge(ranked_.begin(), ranked_.begin() + middle, ranked_.end(),
		                   before);
	}
	arrivals_.clear();
	started_since_rank_ = false;
}

// ranked_ as of now_s: a pass if one is due, then the arrivals merged in.
Status FairSharePriority::rank_now(int64_t now_s)
{
	if (!valid_.ok())
		return valid_;
	const bool pass_due = pass_forced_ || now_s >= next_pass_s_;
	if (pass_due)
		run_pass(now_s);
	refresh_ranking(pass_due);
	return ok_status();
}

Result<std::vector<uint32_t>> FairSharePriority::rank(int64_t now_s)
{
	if (Status ranked = rank_now(now_s); !ranked)
		return Error{ranked.error()};
	return ranked_;
}

Result<std::vector<uint32_t>> FairSharePriority::rank_head(int64_t now_s, size_t max_jobs)
{
	if (Status ranked = rank_now(now_s); !ranked)
		return Error{ranked.error()};
	return longer_head(now_s, max_jobs);
}

Result<std::vector<uint32_t>> FairSharePriority::longer_head(int64_t, size_t max_jobs)
{
	const size_t listed = std::min(max_jobs, ranked_.size());
	return std::vector<uint32_t>(ranked_.begin(),
	                             ranked_.begin() + static_cast<std::ptrdiff_t>(listed));
}

double FairSharePriority::priority_of(uint32_t job) const
{
	return job < jobs_.size() ? jobs_[job].priority : 0.0;
}

double FairSharePriority::fair_share_factor_of(uint32_t job) const
{
	if (job >= jobs_.size() || jobs_[job].state == JobState::unknown)
		return 0.0;
	return associations_[jobs_[job].association].factor;
}

} // namespace campaign::sim
