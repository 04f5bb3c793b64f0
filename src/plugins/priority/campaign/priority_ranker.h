// The priority/campaign pass: snapshot Slurm's jobs under a short read lock, feed the differences
// to the core and rank, re-lock and write priorities by job id, save the state. Owns the core.
#pragma once

#include "slurm_api.h"

#include "job_snapshot.h"

#include <unordered_map>

#include "policy/campaign_core.h"
#include "policy/campaign_report.h"
#include "policy/core_feeder.h"
#include "runtime/campaign_directory.h"
#include "util/parameters.h"

namespace campaign::slurm
{

class PriorityRanker
{
public:
	explicit PriorityRanker(ParameterValues parameters);

	// One full pass from the plugin thread (takes and releases slurmctld locks itself).
	void rank_pass();
	// fini: save the state one last time (no slurmctld locks taken).
	void save_state();
	void set_parameters(ParameterValues parameters);
	int64_t calc_period_s() const;
	// The earliest begin time (sbatch --begin) after the last pass's snapshot of a pending job
	// not held: the ranking it needs comes at that second, not a calc_period later.
	std::optional<int64_t> next_begin_s() const;
	// What scampaign shows, as of the last pass, and whether PrivateData=jobs was set then.
	CampaignReport report() const;
	bool private_jobs() const;

private:
	std::vector<CampaignDirectory::Entry> directory_entries(const Ranking &ranking) const;
	void restore_state(const std::string &state_dir);
	void reset_core(const char *why);
	size_t apply(const Ranking &ranking, bool shadow) const;
	void publish(Ranking &ranking, int64_t now_s);
	void apply_shares(const ClusterSnapshot &snapshot);
	void apply_usage(const ClusterSnapshot &snapshot);
	static bool wants_usage(const CoreConfig &config);
	AssociationUsage association_usage() const; // takes mutex_

	mutable std::mutex mutex_;
	ParameterValues parameters_;
	std::optional<CampaignCore> core_;
	CoreFeeder feeder_;
	bool restored_ = false;
	std::string state_dir_;
	uint64_t passes_ = 0;
	CampaignReport report_;
	// shares=weighted: the weights last given to the core, so that only changes are fed.
	std::unordered_map<uint32_t, double> user_weights_;
	std::unordered_map<std::string, double> account_weights_;
	bool private_jobs_ = false;
	std::optional<int64_t> next_begin_s_;
};

} // namespace campaign::slurm
