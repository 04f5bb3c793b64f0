// Window -> replay job list: CPU mapping, user logins, time compression, whole-minute limits.
#include "replay/replay_plan.h"

#include "plan/scheduler_defaults.h"
#include "plan/short_room_demand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace campaign::sim
{

int64_t replay_limit_minutes(int64_t limit_s, double compression)
{
	// A tolerance below one microsecond so that 3600 s at 60x is 1 minute, not 2.
	const double minutes = static_cast<double>(limit_s) / compression / 60.0;
	return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(minutes - 1e-9)));
}

uint32_t scaled_cpus(uint32_t cpus, double factor, uint32_t cluster_cpus)
{
	const auto scaled = static_cast<int64_t>(std::llround(static_cast<double>(cpus) * factor));
	return static_cast<uint32_t>(std::clamp<int64_t>(scaled, 1, cluster_cpus));
}

std::string replay_default_room(double compression)
{
	namespace defaults = plan::scheduler_defaults;
	const int64_t short_limit_s =
	    60 * replay_limit_minutes(defaults::short_limit_s, compression);
	const auto recent_s = std::max<int64_t>(
	    1, std::llround(static_cast<double>(defaults::short_room_recent_s) / compression));
	char text[256];
	std::snprintf(text, sizeof text,
	              "campaign_short_room=%g,campaign_short_limit=%lld,"
	              "campaign_short_room_recent=%lld,campaign_short_room_demand=%s",
	              defaults::short_room, static_cast<long long>(short_limit_s),
	              static_cast<long long>(recent_s),
	              plan::short_room_demand_name(defaults::short_room_demand));
	return text;
}

namespace
{

// Closed loop -> submission times: each user's campaigns in order, each released when the
// previous one's longest job would have ended had it started on release, plus the think time.
std::vector<SimJob> unrolled(const Workload &workload)
{
	std::vector<SimJob> jobs = workload.jobs;
	std::map<uint64_t, int64_t> longest; // campaign -> longest run time
	std::map<uint64_t, uint32_t> owner;
	for (const SimJob &job : jobs) {
		longest[job.campaign] = std::max(longest[job.campaign], job.runtime_s);
		owner[job.campaign] = job.user;
	}
	std::map<uint64_t, int64_t> release;
	std::map<uint32_t, int64_t> user_free; // when the user's previous campaign ended
	for (const auto &[campaign, user] : owner) {
		const auto first = std::find_if(jobs.begin(), jobs.end(), [&](const SimJob &job) {
			return job.campaign == campaign;
		});
		const int64_t at = user_free[user] + first->think_s;
		release[campaign] = at;
		user_free[user] = at + longest[campaign];
	}
	for (SimJob &job : jobs)
		job.submit_s = release[job.campaign];
	std::stable_sort(jobs.begin(), jobs.end(),
	                 [](const SimJob &a, const SimJob &b) { return a.submit_s < b.submit_s; });
	return jobs;
}

std::string count_text(uint64_t value)
{
	return std::to_string(value);
}

} // namespace

Result<ReplayPlan> plan_replay(const Workload &workload, const ReplayOptions &options)
{
	if (options.nodes == 0 || options.cpus_per_node == 0)
		return Error{"replay: the cluster needs at least one node and one CPU per node"};
	if (!(options.compression >= 1))
		return Error{"replay: compression " + std::to_string(options.compression) +
		             " is not a factor >= 1"};
	if (workload.machine_cpus == 0)
		return Error{"replay: " + workload.name + ": machine size unknown: give --cpus N"};
	ReplayPlan plan;
	plan.cluster_cpus = options.nodes * options.cpus_per_node;
	plan.trace_cpus = workload.machine_cpus;
	plan.cpu_factor = options.cpu_map == CpuMap::scale
	                      ? static_cast<double>(plan.cluster_cpus) / plan.trace_cpus
	                      : 1.0;
	ReplayCounts &counts = plan.counts;
	counts.workload_jobs = workload.jobs.size();
	const std::vector<SimJob> jobs = workload.closed_loop ? unrolled(workload) : workload.jobs;
	counts.closed_loop_jobs = workload.closed_loop ? jobs.size() : 0;
	if (jobs.empty())
		return plan;
	int64_t first_s = jobs.front().submit_s;
	for (const SimJob &job : jobs)
		first_s = std::min(first_s, job.submit_s);
	const double factor = options.compression;
	for (const SimJob &job : jobs) {
		ReplayJob replay;
		replay.id = job.id;
		replay.trace_user = job.user;
		replay.login = options.user_prefix + std::to_string(job.user);
		replay.trace_submit_s = job.submit_s;
		replay.trace_cpus = job.cpus;
		replay.trace_limit_s = job.limit_s;
		replay.trace_runtime_s =
		    job.limit_s >= 0 ? std::min(job.runtime_s, job.limit_s) : job.runtime_s;
		if (options.cpu_map == CpuMap::scale) {
			replay.cpus = scaled_cpus(job.cpus, plan.cpu_factor, plan.cluster_cpus);
		} else if (job.cpus > plan.cluster_cpus) {
			if (options.wide == WideJobs::drop) {
				++counts.wide_dropped;
				continue;
			}
			++counts.wide_clamped;
			replay.cpus = plan.cluster_cpus;
		} else {
			replay.cpus = job.cpus;
		}
		replay.submit_s =
		    std::llround(static_cast<double>(job.submit_s - first_s) / factor);
		const double runtime = static_cast<double>(replay.trace_runtime_s) / factor;
		replay.runtime_s = std::llround(runtime);
		if (replay.trace_runtime_s > 0 && replay.runtime_s == 0) {
			replay.runtime_s = 1;
			++counts.runtime_below_1s;
		}
		int64_t limit_basis_s = job.limit_s;
		if (limit_basis_s < 0) {
			limit_basis_s = replay.trace_runtime_s;
			++counts.unknown_limit;
		}
		replay.limit_min = replay_limit_minutes(limit_basis_s, factor);
		const double exact_limit = static_cast<double>(limit_basis_s) / factor;
		if (static_cast<double>(replay.limit_min * 60) - exact_limit > 1e-6)
			++counts.limit_rounded_up;
		counts.limit_added_s += static_cast<double>(replay.limit_min * 60) - exact_limit;
		replay.runtime_s = std::min(replay.runtime_s, replay.limit_min * 60);
		plan.jobs.push_back(replay);
	}
	std::stable_sort(
	    plan.jobs.begin(), plan.jobs.end(),
	    [](const ReplayJob &a, const ReplayJob &b) { return a.submit_s < b.submit_s; });
	char line[256];
	if (options.cpu_map == CpuMap::scale)
		std::snprintf(line, sizeof line,
		              "CPUs: scaled by %u / %u = %.4f (rounded to nearest, at least 1)",
		              plan.cluster_cpus, plan.trace_cpus, plan.cpu_factor);
	else
		std::snprintf(
		    line, sizeof line,
		    "CPUs: as logged; wider than the cluster's %u: %s dropped, %s clamped",
		    plan.cluster_cpus, count_text(counts.wide_dropped).c_str(),
		    count_text(counts.wide_clamped).c_str());
	plan.notes.push_back(line);
	std::snprintf(line, sizeof line,
	              "time: compressed %gx (submissions and run times rounded to whole seconds; "
	              "%s run times under 1 s made 1 s)",
	              factor, count_text(counts.runtime_below_1s).c_str());
	plan.notes.push_back(line);
	std::snprintf(line, sizeof line,
	              "limits: whole minutes, rounded up, at least 1: %s of %zu rounded up, "
	              "%.0f replay seconds added in all; %s without a logged limit get their "
	              "run time",
	              count_text(counts.limit_rounded_up).c_str(), plan.jobs.size(),
	              counts.limit_added_s, count_text(counts.unknown_limit).c_str());
	plan.notes.push_back(line);
	if (workload.closed_loop)
		plan.notes.push_back(
		    "closed loop unrolled: each user's next campaign released when "
		    "the previous one's longest job would have ended had it started "
		    "at once, plus the think time (the replay is open loop)");
	plan.notes.push_back(kDefaultRoomNote + replay_default_room(factor));
	return plan;
}

std::string replay_plan_csv(const ReplayPlan &plan)
{
	std::ostringstream out;
	out << "id,user,submit,cpus,limit,runtime,limit_min,trace_user,trace_submit,trace_cpus,"
	       "trace_runtime,trace_limit\n";
	for (const ReplayJob &job : plan.jobs)
		out << job.id << ',' << job.login << ',' << job.submit_s << ',' << job.cpus << ','
		    << job.limit_min * 60 << ',' << job.runtime_s << ',' << job.limit_min << ','
		    << job.trace_user << ',' << job.trace_submit_s << ',' << job.trace_cpus << ','
		    << job.trace_runtime_s << ',' << job.trace_limit_s << '\n';
	return out.str();
}

} // namespace campaign::sim
