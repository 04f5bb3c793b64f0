// Dependency replay of a trace (Pinheiro's thesis, Sec. 5.4.3): inside a campaign, a job depends
// on every job of its campaign that ended in the log before it was submitted, so a replay cannot
// start late-submitted jobs at the campaign's beginning. A job enters the queue at its submit
// time or when those jobs have completed in the replay, whichever is later. No policy here.
#pragma once

#include "trace/sim_job.h"

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

namespace campaign::sim
{

class CampaignDependencies
{
public:
	// campaigns[i]: job i's campaign (0: none); runtimes_s: effective run times. Jobs without
	// the log's own start depend on nothing.
	CampaignDependencies(const Workload &workload, const std::vector<uint64_t> &campaigns,
	                     const std::vector<int64_t> &runtimes_s);

	// The job's submit time has come: true if it may enter the queue now; otherwise it waits
	// and completed() releases it later.
	bool submit_now(uint32_t job);
	// The job completed in the replay: the waiting jobs it released, in workload order.
	std::vector<uint32_t> completed(uint32_t job);
	// Jobs that depend on at least one other job.
	uint64_t dependent_jobs() const { return dependent_jobs_; }

private:
	struct Campaign {
		std::vector<uint32_t> by_log_end; // its jobs, by the log's end time
		std::vector<bool> done;           // by_log_end[i] completed in the replay
		size_t done_prefix = 0;           // by_log_end[0 .. done_prefix) all completed
		std::multimap<size_t, uint32_t> waiting; // needed prefix -> job, submit time passed
	};
	std::unordered_map<uint64_t, Campaign> campaigns_;
	std::vector<uint64_t> campaign_of_;
	std::vector<uint32_t> needed_;   // job -> how many of its campaign's first jobs (log end
	                                 // order) must have completed
	std::vector<uint32_t> position_; // job -> its index in its campaign's by_log_end
	uint64_t dependent_jobs_ = 0;
};

} // namespace campaign::sim
