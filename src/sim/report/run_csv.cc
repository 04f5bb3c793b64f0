// One run's CSV tables: per-job outcomes (with the job metrics), per-campaign and per-user rows.
// Formatting only; the numbers come from metrics/.
#include "report/run_report.h"
#include "report/text_format.h"

namespace campaign::sim
{
namespace
{

std::string join(const std::vector<std::string> &fields)
{
	std::string line;
	for (size_t i = 0; i < fields.size(); i++) {
		if (i != 0)
			line += ',';
		line += fields[i];
	}
	return line + "\n";
}

std::string integer(int64_t value)
{
	return std::to_string(value);
}

std::vector<std::string> job_fields(const SimJob *job, uint32_t index, const JobOutcome &outcome,
                                    const JobTimes &times)
{
	const bool finished = times.state == JobState::Finished;
	const auto scored = [&](const std::string &text) { return finished ? text : ""; };
	return {integer(index),
	        job ? std::to_string(job->id) : "",
	        job ? std::to_string(job->user) : "",
	        std::to_string(outcome.campaign),
	        job ? std::to_string(job->cpus) : "",
	        integer(outcome.submit_s),
	        integer(outcome.start_s),
	        integer(outcome.end_s),
	        job ? integer(job->runtime_s) : "",
	        job_state_name(times.state),
	        scored(integer(times.wait_s)),
	        scored(integer(times.response_s)),
	        scored(integer(times.run_s)),
	        scored(format_number(times.bounded_slowdown)),
	        finished && times.run_s > 0 ? format_number(times.stretch) : ""};
}

} // namespace

std::string jobs_csv(const Workload &workload, const RunResult &run, const MetricOptions &options)
{
	std::string text = "job_index,job_id,user,campaign,cpus,submit_s,start_s,end_s,"
	                   "trace_runtime_s,state,wait_s,response_s,run_s,bounded_slowdown,"
	                   "stretch\n";
	text.reserve(text.size() + run.jobs.size() * 72);
	for (const JobOutcome &outcome : run.jobs) {
		const JobTimes times =
		    job_times(outcome, workload.jobs.size(), options.bounded_slowdown_tau_s);
		const SimJob *job =
		    outcome.job < workload.jobs.size() ? &workload.jobs[outcome.job] : nullptr;
		text += join(job_fields(job, outcome.job, outcome, times));
	}
	return text;
}

std::string campaigns_csv(const RunMetrics &metrics)
{
	std::string text = "campaign,user,jobs,submit_s,start_s,end_s,flow_s,work_cpu_s,"
	                   "longest_job_s,lower_bound_s,stretch,lpt_makespan_s\n";
	for (const CampaignMetrics &row : metrics.campaigns)
		text +=
		    join({std::to_string(row.campaign), std::to_string(row.user),
		          std::to_string(row.jobs), integer(row.submit_s), integer(row.start_s),
		          integer(row.end_s), integer(row.flow_s), format_number(row.work_cpu_s),
		          integer(row.longest_job_s), format_number(row.lower_bound_s),
		          format_number(row.stretch), integer(row.lpt_makespan_s)});
	return text;
}

std::string users_csv(const RunMetrics &metrics)
{
	std::string text = "user,profile,jobs,campaigns,max_campaign_stretch,"
	                   "mean_campaign_stretch,cumulative_stretch_lpt,cumulative_stretch_bound,"
	                   "mean_bounded_slowdown,total_wait_s,total_area_cpu_s,nuwt\n";
	for (const UserMetrics &row : metrics.users)
		text += join(
		    {std::to_string(row.user), csv_field(row.profile), std::to_string(row.jobs),
		     std::to_string(row.campaigns), format_number(row.max_campaign_stretch),
		     format_number(row.mean_campaign_stretch),
		     format_number(row.cumulative_stretch_lpt),
		     format_number(row.cumulative_stretch_bound),
		     format_number(row.mean_bounded_slowdown), format_number(row.total_wait_s),
		     format_number(row.total_area_cpu_s), format_number(row.nuwt)});
	return text;
}

Result<std::vector<std::string>> write_run_csv(const std::string &directory,
                                               const std::string &stem, const Workload &workload,
                                               const RunResult &run, const RunMetrics &metrics,
                                               const MetricOptions &options)
{
	const std::string base = (directory.empty() ? std::string(".") : directory) + "/" + stem;
	const std::vector<std::pair<std::string, std::string>> files = {
	    {base + ".jobs.csv", jobs_csv(workload, run, options)},
	    {base + ".campaigns.csv", campaigns_csv(metrics)},
	    {base + ".users.csv", users_csv(metrics)}};
	std::vector<std::string> paths;
	for (const auto &[path, text] : files) {
		const Status written = write_text_file(path, text);
		if (!written.ok())
			return Error{written.error()};
		paths.push_back(path);
	}
	return paths;
}

} // namespace campaign::sim
