// Association and QOS usage under priority/campaign, kept as Slurm documents fair-share usage
// (priority_multifactor.html, sshare(1)): every PriorityCalcPeriod all usage decays by
// PriorityDecayHalfLife and running jobs are charged their billable TRES (and each TRES) times the
// QOS UsageFactor, up the association tree and to their QOS; a job's last stretch is charged when
// it ends; PriorityUsageResetPeriod clears it. So sshare shows RawUsage and GrpTRESMins budgets are
// spent as under multifactor.
#pragma once

#include "slurm_api.h"

#include <atomic>
#include <ctime>
#include <string>

namespace campaign::slurm
{

class UsageAccounting
{
public:
	// From the plugin thread, no lock held: once PriorityCalcPeriod has passed since the last
	// catch-up (or at once after a restore), decay and charge up to now. Takes the job read
	// lock, then the assoc_mgr locks, as Slurm orders them. True when it brought usage up to
	// date.
	bool catch_up(time_t now);
	// priority_p_job_end (Slurm holds the job write lock): charge the job's last stretch.
	void charge_job_end(job_record_t *job);
	// The time usage was last brought up to date, kept under StateSaveLocation so that a
	// restart decays and charges the time slurmctld was down (Slurm saves the usage itself).
	void restore(const std::string &state_dir);
	void save(const std::string &state_dir) const;
	// PriorityUsageResetPeriod=NOW clears usage at start and at each reconfiguration: the next
	// catch_up does it.
	void request_reset_now() { reset_now_ = true; }

private:
	std::atomic<bool> reset_now_{true}; // a start counts
	std::atomic<time_t> last_ran_{0};
	bool restored_ = false;
};

// sshare's normalized and effective usage of an association (priority_p_set_assoc_usage): its
// raw usage over the root's. Caller holds the assoc_mgr association lock.
void set_association_usage(slurmdb_assoc_rec_t *assoc);

} // namespace campaign::slurm
