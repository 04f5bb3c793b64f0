// PriorityRanker: copy Slurm's jobs (src/slurm/job_snapshot), unlock, rank, write the priorities
// back by job id (src/slurm/priority_writer). Never waits for a slurmctld lock while holding its
// own mutex (priority_p_set runs under the job write lock).
#include "priority_ranker.h"

#include "job_snapshot.h"
#include "priority_writer.h"
#include "runtime/state_file.h"

#include "runtime/campaign_directory.h"
#include "state/priority_state.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <pwd.h>
#include <sstream>

namespace campaign::slurm
{
namespace
{

constexpr const char *kStateFile = "campaign_priority_state.json";

std::string user_name(uint32_t uid)
{
	struct passwd entry, *found = nullptr;
	char buffer[1024];
	if (getpwuid_r(uid, &entry, buffer, sizeof(buffer), &found) == 0 && found)
		return found->pw_name;
	return std::to_string(uid);
}

std::optional<std::string> read_file(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	if (!in)
		return std::nullopt;
	std::ostringstream text;
	text << in.rdbuf();
	return text.str();
}

std::optional<int64_t> earliest_future_begin(const ClusterSnapshot &snapshot)
{
	std::optional<int64_t> earliest;
	for (const ObservedJob &job : snapshot.jobs)
		if (job.state == ObservedJob::State::Pending && !job.fields.held &&
		    job.fields.eligible_s && *job.fields.eligible_s > snapshot.now &&
		    (!earliest || *job.fields.eligible_s < *earliest))
			earliest = job.fields.eligible_s;
	return earliest;
}

} // namespace

PriorityRanker::PriorityRanker(ParameterValues parameters) : parameters_(std::move(parameters))
{
	reset_core(nullptr);
}

void PriorityRanker::reset_core(const char *why)
{
	auto created = CampaignCore::create(parameters_);
	if (!created.ok()) { // the schema accepted these values, so this is an internal error
		error("priority/campaign: core not created: %s", created.error().c_str());
		core_.reset();
		return;
	}
	core_.emplace(std::move(created).value());
	feeder_ = CoreFeeder();
	user_weights_.clear();
	account_weights_.clear();
	if (why)
		info("priority/campaign: campaign state rebuilt from Slurm's job table: %s", why);
}

void PriorityRanker::set_parameters(ParameterValues parameters)
{
	std::lock_guard<std::mutex> hold(mutex_);
	// Only core keys change what the campaigns are; calc_period, shadow and the channel keep
	// the state.
	const bool changed = core_identity(parameters) != core_identity(parameters_);
	parameters_ = std::move(parameters);
	if (changed)
		reset_core("policy parameters changed");
}

int64_t PriorityRanker::calc_period_s() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return parameters_.integer("calc_period");
}

CampaignReport PriorityRanker::report() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return report_;
}

std::optional<int64_t> PriorityRanker::next_begin_s() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return next_begin_s_;
}

bool PriorityRanker::private_jobs() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return private_jobs_;
}

// First pass only: a missing file starts clean; an unreadable one is moved aside (kept for the
// admin) and we start clean; Slurm's job table then rebuilds what it can.
void PriorityRanker::restore_state(const std::string &state_dir)
{
	restored_ = true;
	const std::string path = state_dir + "/" + kStateFile;
	std::optional<std::string> text = read_file(path);
	if (!text) {
		info("priority/campaign: no state file %s: starting clean", path.c_str());
		return;
	}
	auto loaded = load_priority_state(*text);
	if (!loaded.ok()) {
		const std::string aside = path + ".corrupt";
		std::rename(path.c_str(), aside.c_str());
		error("priority/campaign: state file %s unusable (%s); moved to %s, starting clean",
		      path.c_str(), loaded.error().c_str(), aside.c_str());
		return;
	}
	// Both texts hold core keys only (the loader drops the plugin keys older files saved).
	if (!core_ || loaded.value().core.config().text != core_->config().text) {
		info("priority/campaign: state file %s has other policy parameters (%s): "
		     "starting clean",
		     path.c_str(), loaded.value().core.config().text.c_str());
		return;
	}
	core_.emplace(std::move(loaded.value().core));
	feeder_ = std::move(loaded.value().feeder);
	info("priority/campaign: state restored from %s (%zu jobs tracked)", path.c_str(),
	     feeder_.tracked());
}

void PriorityRanker::save_state()
{
	std::lock_guard<std::mutex> hold(mutex_);
	if (!core_ || state_dir_.empty())
		return;
	Status saved =
	    write_file_atomically(state_dir_, kStateFile, save_priority_state(*core_, feeder_));
	if (!saved.ok())
		error("priority/campaign: state not saved: %s", saved.error().c_str());
}

size_t PriorityRanker::apply(const Ranking &ranking, bool shadow) const
{
	if (shadow)
		return 0; // published only; Slurm keeps priority/basic-like values
	return write_ranked_priorities(ranking.order);
}

// shares=weighted: a unit's OStrich weight is its share of the cluster in the association tree
// (sacctmgr Fairshare), fed again whenever an administrator changes it. Caller holds mutex_.
void PriorityRanker::apply_shares(const ClusterSnapshot &snapshot)
{
	if (!core_->config().weighted_shares)
		return;
	constexpr double kLeastWeight = 1e-6; // a unit without shares still moves, slowly
	std::string first_error;
	const auto feed = [&](auto &applied, const auto &shares, auto set_weight) {
		for (const auto &[unit, share] : shares) {
			const double weight = std::max(share, kLeastWeight);
			auto known = applied.find(unit);
			if (known != applied.end() && known->second == weight)
				continue;
			Status set = set_weight(unit, weight);
			if (!set.ok() && first_error.empty())
				first_error = set.error();
			applied[unit] = weight;
		}
	};
	if (core_->config().unit_is_account)
		feed(account_weights_, snapshot.account_shares,
		     [&](const std::string &account, double w) {
			     return core_->set_account_weight(account, w, snapshot.now);
		     });
	else
		feed(user_weights_, snapshot.user_shares, [&](uint32_t user, double w) {
			return core_->set_user_weight(user, w, snapshot.now);
		});
	if (!first_error.empty())
		error("priority/campaign: share weights refused by the core: %s",
		      first_error.c_str());
}

// Usage-aware shares (usage_halflife_s > 0, OStrich): each unit's usage is its association's
// RawUsage, the usage sshare shows and Slurm decays by PriorityDecayHalfLife, given again every
// pass (it changes every PriorityCalcPeriod). Without associations (no accounting) nothing is
// given and the core keeps its own accrual. Caller holds mutex_.
void PriorityRanker::apply_usage(const ClusterSnapshot &snapshot)
{
	if (!wants_usage(core_->config()))
		return;
	std::string first_error;
	const auto keep_first = [&](const Status &set) {
		if (!set.ok() && first_error.empty())
			first_error = set.error();
	};
	if (core_->config().unit_is_account)
		for (const auto &[account, usage] : snapshot.account_usage)
			keep_first(core_->set_account_usage(account, usage, snapshot.now));
	else
		for (const auto &[user, usage] : snapshot.user_usage)
			keep_first(core_->set_user_usage(user, usage, snapshot.now));
	if (!first_error.empty())
		error("priority/campaign: association usage refused by the core: %s",
		      first_error.c_str());
}

bool PriorityRanker::wants_usage(const CoreConfig &config)
{
	return config.usage_halflife_s > 0 && config.policy == PolicyKind::Ostrich;
}

AssociationUsage PriorityRanker::association_usage() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return core_ && wants_usage(core_->config()) ? AssociationUsage::read
	                                             : AssociationUsage::skip;
}

void PriorityRanker::publish(Ranking &ranking, int64_t now_s)
{
	CampaignReport report;
	report.policy = parameters_.text("policy");
	report.generated_s = now_s;
	report.rows = std::move(ranking.campaigns);
	for (CampaignRow &row : report.rows)
		row.user = user_name(row.uid);
	report_ = std::move(report);
}

// What sched/campaign reads of each ranked job: its campaign (per-campaign reservations) and its
// expected run time (campaign_short_room_by=expected). Called with mutex_ held (the core).
std::vector<CampaignDirectory::Entry>
PriorityRanker::directory_entries(const Ranking &ranking) const
{
	std::vector<CampaignDirectory::Entry> entries;
	entries.reserve(ranking.order.size());
	for (size_t i = 0; i < ranking.order.size(); i++)
		entries.push_back({ranking.order[i], ranking.explanations[i].campaign_id,
		                   core_->expected_run_s(ranking.order[i])});
	return entries;
}

void PriorityRanker::rank_pass()
{
	const auto began = std::chrono::steady_clock::now();
	ClusterSnapshot snapshot = take_snapshot(association_usage());
	Ranking ranking;
	std::vector<CampaignDirectory::Entry> directory;
	FeedCounts counts;
	bool shadow = false;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		state_dir_ = snapshot.state_dir;
		private_jobs_ = snapshot.private_jobs;
		next_begin_s_ = earliest_future_begin(snapshot);
		if (!restored_)
			restore_state(snapshot.state_dir);
		if (!core_)
			return;
		counts =
		    feeder_.reconcile(*core_, snapshot.jobs, snapshot.partitions, snapshot.now);
		apply_shares(snapshot);
		apply_usage(snapshot);
		ranking = core_->rank(snapshot.now);
		directory = directory_entries(ranking);
		shadow = parameters_.boolean("shadow");
	}
	if (counts.errors)
		error("priority/campaign: %u events refused by the core; first: %s", counts.errors,
		      counts.first_error.c_str());
	if (!ranking.error.empty())
		error("priority/campaign: ranking failed: %s", ranking.error.c_str());
	const size_t changed = apply(ranking, shadow);
	const size_t ranked = ranking.order.size();
	// After the priorities: sched/campaign starts the jobs this ranking lists once it sees it.
	process_campaign_directory().publish(directory, snapshot.now, !shadow);
	const bool events =
	    counts.submitted + counts.started + counts.ended + counts.cancelled + counts.updated >
	    0;
	unsigned long pass = 0;
	{
		std::lock_guard<std::mutex> hold(mutex_);
		publish(ranking, snapshot.now);
		pass = ++passes_;
	}
	// A pass that fed no event changed nothing a restart could not recompute (the virtual
	// clock catches up on restore), so only passes with events write the file.
	if (events || pass == 1)
		save_state();
	const auto took_us = std::chrono::duration_cast<std::chrono::microseconds>(
	                         std::chrono::steady_clock::now() - began)
	                         .count();
	log_flag(PRIO,
	         "priority/campaign: pass %lu: %zu jobs seen, %u submitted, %u started, %u ended, "
	         "%u cancelled; %zu pending ranked, %zu changed; %ld us",
	         pass, snapshot.jobs.size(), counts.submitted, counts.started, counts.ended,
	         counts.cancelled, ranked, changed, static_cast<long>(took_us));
}

} // namespace campaign::slurm
