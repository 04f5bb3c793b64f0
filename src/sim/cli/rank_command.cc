// Replay of a captured job list through CorePriority, in the feeder's order at equal times: runs
// that started earlier end first (so a submission at the second a campaign's last job ends opens
// a new campaign, the thesis's rule), then submissions, starts, and the ends of runs that started
// in that second.
#include "cli/rank_command.h"

#include "cli/workload_loader.h"
#include "engine/core_priority.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace campaign::sim
{

Result<std::vector<uint64_t>> rank_at(const Workload &workload, const std::string &parameters,
                                      int64_t at_s)
{
	std::vector<int64_t> limits;
	for (const SimJob &job : workload.jobs)
		limits.push_back(job.limit_s >= 0 ? job.limit_s : job.runtime_s);
	auto created = CorePriority::create(parameters, workload.machine_cpus, limits);
	if (!created)
		return Error{created.error()};
	CorePriority &core = created.value();
	enum Kind { ended_run = 0, submit = 1, start = 2, end = 3 };
	std::vector<std::tuple<int64_t, int, uint32_t>> events;
	for (uint32_t i = 0; i < workload.jobs.size(); ++i) {
		const SimJob &job = workload.jobs[i];
		if (job.submit_s > at_s)
			continue;
		events.emplace_back(job.submit_s, submit, i);
		if (job.trace_start_s < 0 || job.trace_start_s > at_s)
			continue;
		events.emplace_back(job.trace_start_s, start, i);
		const int64_t end_s = job.trace_start_s + job.runtime_s;
		if (end_s <= at_s)
			events.emplace_back(end_s, end_s > job.trace_start_s ? ended_run : end, i);
	}
	std::sort(events.begin(), events.end());
	for (const auto &[time_s, kind, job] : events) {
		Status done = kind == submit  ? core.submit(job, workload.jobs[job], time_s)
		              : kind == start ? core.start(job, time_s)
		                              : core.end(job, time_s); // ended_run, end
		if (!done)
			return Error{"job " + std::to_string(workload.jobs[job].id) + ": " +
			             done.error()};
	}
	auto order = core.rank(at_s);
	if (!order)
		return Error{order.error()};
	std::vector<uint64_t> ids;
	for (uint32_t job : order.value())
		ids.push_back(workload.jobs[job].id);
	return ids;
}

int rank_command(const CampsimOptions &options)
{
	auto loaded = load_workload(options);
	if (!loaded) {
		std::fprintf(stderr, "campsim: %s\n", loaded.error().c_str());
		return 1;
	}
	if (!options.at_s) {
		std::fprintf(stderr, "campsim: rank: give --at SECONDS\n");
		return 2;
	}
	std::string parameters = "policy=" + options.rank_policy;
	if (!options.simulation.core_parameters.empty())
		parameters += "," + options.simulation.core_parameters;
	auto ids = rank_at(loaded.value().workload, parameters, *options.at_s);
	if (!ids) {
		std::fprintf(stderr, "campsim: rank: %s\n", ids.error().c_str());
		return 1;
	}
	for (uint64_t id : ids.value())
		std::printf("%llu\n", static_cast<unsigned long long>(id));
	return 0;
}

} // namespace campaign::sim
