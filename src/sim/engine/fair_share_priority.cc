// Slurm-style fair-share baselines: usage bookkeeping, passes and ranking. The fair-share
// factors follow Slurm's documentation, cited at each formula. No Slurm types.
#include "engine/fair_share_priority.h"

#include "policy/usage_decay.h"

#include <algorithm>
#include <cmath>
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

// Level fairshare LF = S / U (fair_tree.html, "Level Fairshare Calculation"): S = shares
// normalized among siblings, U = usage / the parent's usage. No usage: U = 0, LF = infinity
// (Slurm's _calc_assoc_fs: "U can be 0. The result is infinity, a valid value").
static double level_fairshare(double share, double usage, double parent_usage)
{
	const double normalized = parent_usage > 0 ? usage / parent_usage : 0.0;
	if (normalized <= 0)
		return std::numeric_limits<double>::infinity();
	return share / normalized;
}

// Fair Tree (fair_tree.html, "Algorithm", "Ties"): root -> accounts -> users. Siblings are
// sorted by LF, highest first, and visited depth first; users are ranked in that order, the
// first getting rank n = the number of user associations, F = rank / n. Ties: sibling users
// with the same LF get the same rank; sibling accounts with the same LF have their children
// merged before descending. Equal shares at each level (accounts and users seen so far).
void FairSharePriority::compute_fair_tree_factors()
{
	std::vector<double> account_usage(accounts_.size(), 0.0);
	double total_usage = 0;
	for (const Association &association : associations_) {
		account_usage[association.account] += association.usage_cpu_s;
		total_usage += association.usage_cpu_s;
	}
	const double account_share =
	    1.0 / static_cast<double>(std::max<size_t>(accounts_.size(), 1));
	std::vector<double> account_level(accounts_.size());
	std::vector<uint32_t> order(accounts_.size());
	for (uint32_t account = 0; account < accounts_.size(); account++) {
		account_level[account] =
		    level_fairshare(account_share, account_usage[account], total_usage);
		order[account] = account;
	}
	std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
		if (account_level[a] != account_level[b])
			return account_level[a] > account_level[b];
		return a < b;
	});
	uint32_t rank = static_cast<uint32_t>(associations_.size());
	uint32_t rank_no_ties = rank;
	for (size_t first = 0; first < order.size();) {
		size_t last = first; // the run of accounts tied with `first`: merged
		std::vector<uint32_t> merged;
		for (; last < order.size() &&
		       account_level[order[last]] == account_level[order[first]];
		     last++) {
			const std::vector<uint32_t> &users = accounts_[order[last]].associations;
			merged.insert(merged.end(), users.begin(), users.end());
		}
		rank_fair_tree_users(merged, account_usage, rank, rank_no_ties);
		first = last;
	}
}

// One level of users (possibly the merged children of tied accounts), ranked as Slurm's
// _calc_tree_fs does: a user not tied with the previous sibling takes the rank it would have
// without ties; every user consumes one rank.
void FairSharePriority::rank_fair_tree_users(std::vector<uint32_t> &associations,
                                             const std::vector<double> &account_usage,
                                             uint32_t &rank, uint32_t &rank_no_ties)
{
	std::vector<double> level(associations.size());
	for (size_t i = 0; i < associations.size(); i++) {
		const Association &association = associations_[associations[i]];
		const double share =
		    1.0 / static_cast<double>(accounts_[association.account].associations.size());
		level[i] = level_fairshare(share, association.usage_cpu_s,
		                           account_usage[association.account]);
	}
	std::vector<size_t> order(associations.size());
	for (size_t i = 0; i < order.size(); i++)
		order[i] = i;
	std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
		if (level[a] != level[b])
			return level[a] > level[b];
		return associations[a] < associations[b];
	});
	const double user_count = static_cast<double>(associations_.size());
	for (size_t i = 0; i < order.size(); i++) {
		const bool tied = i > 0 && level[order[i]] == level[order[i - 1]];
		if (!tied)
			rank = rank_no_ties;
		associations_[associations[order[i]]].factor = rank / user_count;
		rank_no_ties--;
	}
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

bool FairSharePriority::ranks_before(uint32_t a, uint32_t b) const
{
	const JobRecord &first = jobs_[a];
	const JobRecord &second = jobs_[b];
	if (first.priority != second.priority)
		return first.priority > second.priority;
	if (first.submit_s != second.submit_s)
		return first.submit_s < second.submit_s;
	return a < b;
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
	int64_t periods = now_s / period; // floor, also before the origin
	if (now_s % period != 0 && now_s < 0)
		periods--;
	next_pass_s_ = (periods + 1) * period;
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
		std::sort(ranked_.begin(), ranked_.end(), before);
	} else if (!arrivals_.empty()) {
		std::sort(arrivals_.begin(), arrivals_.end(), before);
		const size_t middle = ranked_.size();
		ranked_.insert(ranked_.end(), arrivals_.begin(), arrivals_.end());
		std::inplace_merge(ranked_.begin(), ranked_.begin() + middle, ranked_.end(),
		                   before);
	}
	arrivals_.clear();
	started_since_rank_ = false;
}

Result<std::vector<uint32_t>> FairSharePriority::rank(int64_t now_s)
{
	if (!valid_.ok())
		return Error{valid_.error()};
	const bool pass_due = pass_forced_ || now_s >= next_pass_s_;
	if (pass_due)
		run_pass(now_s);
	refresh_ranking(pass_due);
	return ranked_;
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
