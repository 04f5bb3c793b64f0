// The metrics of one simulated run: the job metrics and the scheduler cost here, campaigns, users
// and utilization in their own files. Reads a Workload and a RunResult; no output formatting.
#include "metrics/run_metrics.h"

#include "metrics/metrics_parts.h"

#include <algorithm>

namespace campaign::sim
{

using metrics_detail::ScoredRun;

const char *job_state_name(JobState state)
{
	switch (state) {
	case JobState::Finished:
		return "finished";
	case JobState::NeverStarted:
		return "never_started";
	case JobState::NotEnded:
		return "not_ended";
	case JobState::Invalid:
		break;
	}
	return "invalid";
}

JobTimes job_times(const JobOutcome &outcome, size_t workload_jobs, double tau_s)
{
	JobTimes times;
	if (outcome.job >= workload_jobs)
		return times; // Invalid
	if (outcome.start_s < 0) {
		times.state = JobState::NeverStarted;
		return times;
	}
	if (outcome.start_s < outcome.submit_s)
		return times;
	if (outcome.end_s < 0) {
		times.state = JobState::NotEnded;
		return times;
	}
	if (outcome.end_s < outcome.start_s)
		return times;
	times.state = JobState::Finished;
	times.wait_s = outcome.start_s - outcome.submit_s;
	times.response_s = outcome.end_s - outcome.submit_s;
	times.run_s = outcome.end_s - outcome.start_s;
	const double response = static_cast<double>(times.response_s);
	const double run = static_cast<double>(times.run_s);
	times.bounded_slowdown = std::max(1.0, response / std::max(run, tau_s));
	times.stretch = times.run_s > 0 ? response / run : 0;
	return times;
}

std::vector<StretchInterval> stretch_intervals()
{
	const double bounds[] = {1, 2, 5, 10, 20, 50, 100};
	std::vector<StretchInterval> intervals;
	for (size_t i = 0; i < std::size(bounds); i++)
		intervals.push_back({bounds[i], i + 1 < std::size(bounds) ? bounds[i + 1] : -1, 0});
	return intervals;
}

const std::vector<std::string> &metric_definitions()
{
	static const std::vector<std::string> definitions = {
	    "job run time = simulated end - start; wait = start - submit; response = end - submit",
	    "bounded slowdown = max(1, response / max(run, tau)); job stretch = response / run "
	    "(jobs that ran 0 s have none)",
	    "percentiles: nearest rank (the smallest value with at least p% of values <= it)",
	    "campaign: jobs sharing JobOutcome::campaign (0 = none), scored once all its jobs "
	    "ended; t = earliest submit, C = latest end, flow = C - t, l = max(W/m, p_max), "
	    "stretch = flow / l (OStrich 5.1)",
	    "Delta(zeta): LPT list schedule of the campaign on m CPUs (longest first, each job on "
	    "its CPUs, in list order: the core FairCamp's Delta)",
	    "user cumulative stretch = sum flow / sum Delta(zeta) (FairCamp D^u), and / sum l "
	    "(lower bound, FairCamp B.5); users with no scored campaign excluded",
	    "Jain index over users of the per-user mean campaign stretch, and of the per-user "
	    "mean bounded slowdown",
	    "NUWT_o = sum wait / sum run*cpus over the user's finished jobs (users with area > 0); "
	    "UWT = mean NUWT; fairness F = sum (UWT - NUWT_o)^2 (Klusacek F2.30-F2.34)",
	    "utilization = sum run*cpus / (m * (last end - first submit)) over finished jobs",
	    "stretch intervals: OStrich Fig. 2a's bounds are not in the spec (only < 2 and > 20 "
	    "are): [1,2) [2,5) [5,10) [10,20) [20,50) [50,100) >=100, stretches below 1 in the "
	    "first",
	};
	return definitions;
}

namespace metrics_detail
{

uint32_t ScoredRun::cpus(size_t outcome) const
{
	const uint32_t job_cpus = workload.jobs[run.jobs[outcome].job].cpus;
	return std::clamp<uint32_t>(job_cpus, 1, machine_cpus);
}

} // namespace metrics_detail

namespace
{

void count_job(const JobTimes &times, bool has_campaign, RunMetrics &out)
{
	switch (times.state) {
	case JobState::Finished:
		out.jobs_finished++;
		out.jobs_zero_runtime += times.run_s == 0;
		out.jobs_without_campaign += !has_campaign;
		break;
	case JobState::NeverStarted:
		out.jobs_never_started++;
		break;
	case JobState::NotEnded:
		out.jobs_not_ended++;
		break;
	case JobState::Invalid:
		out.jobs_invalid++;
		break;
	}
}

void score_jobs(ScoredRun &scored, const MetricOptions &options, RunMetrics &out)
{
	const auto &outcomes = scored.run.jobs;
	std::vector<double> waits, responses, slowdowns, stretches;
	waits.reserve(outcomes.size());
	responses.reserve(outcomes.size());
	slowdowns.reserve(outcomes.size());
	stretches.reserve(outcomes.size());
	scored.times.reserve(outcomes.size());
	for (const JobOutcome &outcome : outcomes) {
		const JobTimes times =
		    job_times(outcome, scored.workload.jobs.size(), options.bounded_slowdown_tau_s);
		scored.times.push_back(times);
		count_job(times, outcome.campaign != 0, out);
		if (times.state != JobState::Finished)
			continue;
		waits.push_back(static_cast<double>(times.wait_s));
		responses.push_back(static_cast<double>(times.response_s));
		slowdowns.push_back(times.bounded_slowdown);
		if (times.run_s > 0)
			stretches.push_back(times.stretch);
	}
	out.jobs_total = outcomes.size();
	out.wait_s = summarize(std::move(waits));
	out.response_s = summarize(std::move(responses));
	out.bounded_slowdown = summarize(std::move(slowdowns));
	out.job_stretch = summarize(std::move(stretches));
}

void copy_run(const Workload &workload, const RunResult &run, RunMetrics &out)
{
	out.workload = workload.name;
	out.label = run.label;
	out.priority = run.priority;
	out.backfill = run.backfill;
	out.estimate = run.estimate;
	out.machine_cpus = run.machine_cpus != 0 ? run.machine_cpus : workload.machine_cpus;
	out.scheduler_events = run.scheduler_events;
	out.scheduler_cpu_s = run.scheduler_cpu_s;
	out.scheduler_cpu_per_event_s =
	    run.scheduler_events != 0 ? run.scheduler_cpu_s / run.scheduler_events : 0;
	out.wall_s = run.wall_s;
	out.peak_rss_kb = run.peak_rss_kb;
}

void note_anomalies(const Workload &workload, const RunResult &run, RunMetrics &out)
{
	if (out.machine_cpus == 0)
		out.notes.push_back("machine size unknown (0 CPUs in the run and the workload): "
		                    "m = 1 used");
	if (run.jobs.size() != workload.jobs.size())
		out.notes.push_back("run " + run.label + " has " + std::to_string(run.jobs.size()) +
		                    " outcomes for " + std::to_string(workload.jobs.size()) +
		                    " workload jobs");
	if (out.jobs_invalid != 0)
		out.notes.push_back(
		    std::to_string(out.jobs_invalid) +
		    " outcomes invalid (job index beyond the workload, start before "
		    "submit or end before start): excluded");
}

} // namespace

RunMetrics compute_metrics(const Workload &workload, const RunResult &run,
                           const MetricOptions &options)
{
	RunMetrics out;
	copy_run(workload, run, out);
	ScoredRun scored{workload, run, {}, std::max<uint32_t>(1, out.machine_cpus)};
	score_jobs(scored, options, out);
	note_anomalies(workload, run, out);
	metrics_detail::score_campaigns(scored, options, out);
	metrics_detail::score_users(scored, options, out);
	metrics_detail::score_user_groups(scored, options, out);
	metrics_detail::score_utilization(scored, options, out);
	return out;
}

} // namespace campaign::sim
