// The papers' closed-loop job stream (OStrich §6, FairCamp §VII): campaigns as runs of jobs
// opened with a fixed probability. Ownership and run times come from the caller.
#include "workload/campaign_stream.h"

#include <utility>

namespace campaign::sim
{

std::vector<SimJob>
draw_campaign_stream(SeededDraws &draws, const CampaignStreamSpec &spec,
                     const std::function<uint32_t()> &draw_owner,
                     const std::function<int64_t(uint32_t user)> &draw_runtime_s)
{
	std::vector<SimJob> jobs;
	jobs.reserve(spec.jobs);
	uint64_t campaign = 0;
	uint32_t owner = 0;
	for (uint64_t index = 0; index < spec.jobs; index++) {
		if (index == 0 || draws.chance(spec.new_campaign_probability)) {
			campaign++;
			owner = draw_owner();
		}
		SimJob job;
		job.id = index + 1;
		job.user = owner;
		job.cpus = 1;
		job.runtime_s = draw_runtime_s(owner);
		job.limit_s = job.runtime_s;
		job.campaign = campaign;
		job.think_s = 0;
		job.submit_s = 0;
		jobs.push_back(job);
	}
	return jobs;
}

Workload closed_loop_workload(std::string name, uint32_t machine_cpus, std::vector<SimJob> jobs,
                              std::vector<std::string> notes)
{
	Workload workload;
	workload.name = std::move(name);
	workload.machine_cpus = machine_cpus;
	workload.closed_loop = true;
	workload.jobs = std::move(jobs);
	workload.counts.kept = workload.jobs.size();
	for (const SimJob &job : workload.jobs)
		if (job.runtime_s == 0)
			workload.counts.zero_runtime++;
	workload.notes = std::move(notes);
	return workload;
}

} // namespace campaign::sim
