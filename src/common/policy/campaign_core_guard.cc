// CampaignCore's public entry points: each event runs inside a catch-all so that no exception
// (allocation failure, internal inconsistency) ever reaches a caller's C frames; each job event
// also brings the job's entry in the order index up to date. No Slurm types.
#include "policy/campaign_core.h"

#include <exception>

namespace campaign
{
namespace
{

template <typename Action> Status guarded(const char *event, Action &&action)
{
	try {
		return action();
	} catch (const std::exception &failure) {
		return Error{std::string(event) + ": internal error: " + failure.what()};
	} catch (...) {
		return Error{std::string(event) + ": internal error"};
	}
}

} // namespace

Status CampaignCore::capacity(const PartitionCapacity &partition, int64_t now_s)
{
	return guarded("capacity", [&] { return capacity_unguarded(partition, now_s); });
}

Status CampaignCore::cluster_capacity(uint64_t cpus_up, int64_t now_s)
{
	return guarded("cluster_capacity",
	               [&] { return cluster_capacity_unguarded(cpus_up, now_s); });
}

Status CampaignCore::submit(const JobFields &job, int64_t now_s)
{
	return guarded("submit", [&] {
		Status done = submit_unguarded(job, now_s);
		reindex(job.job_id);
		return done;
	});
}

Status CampaignCore::eligible(uint32_t job_id, int64_t now_s)
{
	return guarded("eligible", [&] {
		Status done = eligible_unguarded(job_id, now_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::start(uint32_t job_id, int64_t start_s)
{
	return guarded("start", [&] {
		Status done = start_unguarded(job_id, start_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::end(uint32_t job_id, int64_t end_s)
{
	return guarded("end", [&] {
		Status done = end_unguarded(job_id, end_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::cancel(uint32_t job_id, int64_t now_s)
{
	return guarded("cancel", [&] {
		Status done = cancel_unguarded(job_id, now_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::hold(uint32_t job_id, int64_t now_s)
{
	return guarded("hold", [&] {
		Status done = hold_unguarded(job_id, now_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::release(uint32_t job_id, int64_t now_s)
{
	return guarded("release", [&] {
		Status done = release_unguarded(job_id, now_s);
		reindex(job_id);
		return done;
	});
}

Status CampaignCore::update(const JobUpdate &update, int64_t now_s)
{
	return guarded("update", [&] {
		Status done = update_unguarded(update, now_s);
		reindex(update.job_id);
		return done;
	});
}

Status CampaignCore::set_user_weight(uint32_t user_id, double weight, int64_t now_s)
{
	return guarded("set_user_weight",
	               [&] { return set_user_weight_unguarded(user_id, weight, now_s); });
}

Status CampaignCore::set_account_weight(const std::string &account, double weight, int64_t now_s)
{
	return guarded("set_account_weight",
	               [&] { return set_account_weight_unguarded(account, weight, now_s); });
}

Status CampaignCore::set_user_usage(uint32_t user_id, double usage, int64_t now_s)
{
	return guarded("set_user_usage",
	               [&] { return set_user_usage_unguarded(user_id, usage, now_s); });
}

Status CampaignCore::set_account_usage(const std::string &account, double usage, int64_t now_s)
{
	return guarded("set_account_usage",
	               [&] { return set_account_usage_unguarded(account, usage, now_s); });
}

Ranking CampaignCore::rank(int64_t now_s, RankScope scope, size_t max_jobs)
{
	try {
		return rank_unguarded(now_s, scope, max_jobs);
	} catch (const std::exception &failure) {
		Ranking failed;
		failed.error = std::string("rank: internal error: ") + failure.what();
		return failed;
	}
}

Ranking CampaignCore::rank_as_last(int64_t now_s, size_t max_jobs)
{
	try {
		return rank_as_last_unguarded(now_s, max_jobs);
	} catch (const std::exception &failure) {
		Ranking failed;
		failed.error = std::string("rank_as_last: internal error: ") + failure.what();
		return failed;
	}
}

} // namespace campaign
