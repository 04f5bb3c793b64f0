// Usage-aware OStrich shares (usage_halflife_s > 0): each unit's share of V is scaled by its
// decayed past usage against its share, as Slurm's classic fair-share factor scales priority
// (2^(-usage/share)), so a unit that used little recently gets most of V and one that used much
// gets little, while campaigns still rank by their completion in V. Usage is the core's own (the
// CPU-seconds of the runs it saw end, and of the runs going on now: campsim's), or, once a host
// gives it (set_user_usage, set_account_usage), the host's: priority/campaign gives each
// association's RawUsage, so that the shares follow the usage sshare shows. No Slurm types.
#include "policy/campaign_core.h"
#include "policy/usage_decay.h"

#include <algorithm>
#include <cmath>

namespace campaign
{

void CampaignCore::charge_usage(const Job &job, int64_t end_s)
{
	if (config_.usage_halflife_s <= 0 || job.state != JobState::Running || end_s <= job.start_s)
		return;
	const UsageDecay decay(config_.usage_halflife_s);
	UnitUsage &usage = unit_usage_[groups_[job.group].unit];
	if (end_s > usage.at_s) {
		usage.cpu_s *= decay.factor(static_cast<double>(end_s - usage.at_s));
		usage.at_s = end_s;
	}
	usage.cpu_s += job.cpus * decay.accrued(static_cast<double>(end_s - job.start_s));
}

// The core's own accrual, valued at now_s: ended runs decayed since they were charged, and the
// runs going on.
std::unordered_map<uint32_t, double> CampaignCore::own_usage(int64_t now_s) const
{
	const UsageDecay decay(config_.usage_halflife_s);
	std::unordered_map<uint32_t, double> usage;
	usage.reserve(unit_usage_.size() + groups_.size());
	for (const auto &[unit, past] : unit_usage_)
		usage[unit] = past.cpu_s * decay.factor(static_cast<double>(now_s - past.at_s));
	for (const Job &job : jobs_)
		if (job.state == JobState::Running && now_s > job.start_s)
			usage[groups_[job.group].unit] +=
			    job.cpus * decay.accrued(static_cast<double>(now_s - job.start_s));
	return usage;
}

// The usage given from outside, as given (already decayed). Units given no usage are left out,
// as the own accrual leaves out units that never ran: only units with usage or pending work
// count in the shares' total.
std::unordered_map<uint32_t, double> CampaignCore::given_usage() const
{
	std::unordered_map<uint32_t, double> usage;
	usage.reserve(given_usage_.size());
	for (const auto &[unit, amount] : given_usage_)
		if (amount > 0)
			usage.emplace(unit, amount);
	return usage;
}

void CampaignCore::apply_usage_shares(int64_t now_s)
{
	if (config_.usage_halflife_s <= 0 || config_.policy != PolicyKind::Ostrich)
		return;
	std::unordered_map<uint32_t, double> usage =
	    given_usage_.empty() ? own_usage(now_s) : given_usage();
	for (const Group &group : groups_)
		if (group.live_jobs > 0)
			usage.try_emplace(group.unit, 0.0);
	const auto share_of = [&](uint32_t unit) {
		auto weight = unit_weights_.find(unit);
		return config_.weighted_shares && weight != unit_weights_.end() ? weight->second
		                                                                : 1.0;
	};
	double total_usage = 0, total_share = 0;
	for (const auto &[unit, amount] : usage) {
		total_usage += amount;
		total_share += share_of(unit);
	}
	for (uint32_t index = 0; index < groups_.size(); index++) {
		const Group &group = groups_[index];
		if (group.live_jobs == 0)
			continue;
		const double share = share_of(group.unit);
		const double usage_norm = total_usage > 0 ? usage[group.unit] / total_usage : 0;
		const double share_norm = share / total_share;
		const double factor =
		    std::max(1e-9, std::exp2(-config_.usage_weight * usage_norm / share_norm));
		domains_[group.domain].schedule.set_weight(index, share * factor);
	}
}

// The shares take the given usage at the next ranking; V up to then keeps the shares it had.
Status CampaignCore::set_unit_usage(uint32_t unit, double usage, int64_t now_s)
{
	if (!(usage >= 0) || !std::isfinite(usage))
		return Error{"usage of unit " + std::to_string(unit) + " must be finite and >= 0"};
	advance(now_s);
	given_usage_[unit] = usage;
	return ok_status();
}

Status CampaignCore::set_user_usage_unguarded(uint32_t user_id, double usage, int64_t now_s)
{
	if (config_.unit_is_account)
		return Error{"set_user_usage: unit=account is configured"};
	return set_unit_usage(user_id, usage, now_s);
}

Status CampaignCore::set_account_usage_unguarded(const std::string &account, double usage,
                                                 int64_t now_s)
{
	if (!config_.unit_is_account)
		return Error{"set_account_usage: unit=user is configured"};
	return set_unit_usage(intern(accounts_, account_index_, account), usage, now_s);
}

} // namespace campaign
