// The priority/campaign pass: snapshot pending jobs under a short read lock, rank them with
// the core, re-lock and write priorities by job id. Owns the plugin's core state.
#pragma once

#include "slurm_api.h"

#include "query/campaign_report.h"
#include "util/parameters.h"

namespace campaign::slurm {

class PriorityRanker {
public:
	explicit PriorityRanker(ParameterValues parameters);

	// Priority for a job at submit or update (job write lock held by the caller; no locks here).
	uint32_t priority_at_submit(uint32_t last_priority, job_record_t *job);
	// One full pass from the plugin thread (takes and releases slurmctld locks itself).
	void rank_pass();
	void set_parameters(ParameterValues parameters);
	int64_t calc_period_s() const;
	// What scampaign shows, as of the last pass, and whether PrivateData=jobs was set then.
	CampaignReport report() const;
	bool private_jobs() const;

private:
	struct PendingJob {
		uint32_t job_id;
		int64_t submit_s;
	};
	std::vector<PendingJob> snapshot_pending();
	size_t apply(const std::vector<uint32_t> &order) const;

	mutable std::mutex mutex_;
	ParameterValues parameters_;
	uint64_t passes_ = 0;
	CampaignReport report_;
	bool private_jobs_ = false;
};

} // namespace campaign::slurm
