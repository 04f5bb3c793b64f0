// One run's metrics as JSON (jansson): the run, the workload's input counts, the metric options
// and definitions, then every metric. Formatting only; the numbers come from metrics/.
#include "report/run_report.h"
#include "report/text_format.h"

#include <cmath>
#include <cstdlib>
#include <jansson.h>
#include <memory>

namespace campaign::sim
{
namespace
{

using JsonPtr = std::unique_ptr<json_t, decltype(&json_decref)>;

json_t *real(double value)
{
	return std::isfinite(value) ? json_real(value) : json_null();
}

json_t *count(uint64_t value)
{
	return json_integer(static_cast<json_int_t>(value));
}

json_t *strings(const std::vector<std::string> &lines)
{
	json_t *array = json_array();
	for (const std::string &line : lines)
		json_array_append_new(array, json_string(line.c_str()));
	return array;
}

json_t *distribution(const Distribution &values)
{
	json_t *out = json_object();
	json_object_set_new(out, "count", count(values.count));
	json_object_set_new(out, "mean", real(values.mean));
	json_object_set_new(out, "p50", real(values.p50));
	json_object_set_new(out, "p90", real(values.p90));
	json_object_set_new(out, "p95", real(values.p95));
	json_object_set_new(out, "p99", real(values.p99));
	json_object_set_new(out, "max", real(values.max));
	return out;
}

json_t *workload_json(const Workload &workload)
{
	const InputCounts &counts = workload.counts;
	json_t *counts_json = json_object();
	const std::pair<const char *, uint64_t> fields[] = {
	    {"lines", counts.lines},
	    {"kept", counts.kept},
	    {"cancelled_dropped", counts.cancelled_dropped},
	    {"zero_runtime", counts.zero_runtime},
	    {"unknown_runtime", counts.unknown_runtime},
	    {"unknown_cpus", counts.unknown_cpus},
	    {"clamped_cpus", counts.clamped_cpus},
	    {"outside_window", counts.outside_window},
	    {"malformed_skipped", counts.malformed_skipped},
	    {"limit_below_runtime", counts.limit_below_runtime},
	    {"placeholder_dropped", counts.placeholder_dropped},
	    {"unknown_submit", counts.unknown_submit},
	    {"zero_limit_unknown", counts.zero_limit_unknown},
	    {"status_outside_swf", counts.status_outside_swf},
	    {"work_cpu_s", counts.work_cpu_s},
	    {"cut_at_limit_cpu_s", counts.cut_at_limit_cpu_s},
	    {"steps_dropped", counts.steps_dropped},
	    {"unfinished_dropped", counts.unfinished_dropped},
	    {"earlier_runs_dropped", counts.earlier_runs_dropped},
	    {"array_tasks", counts.array_tasks},
	    {"eligible_after_submit", counts.eligible_after_submit}};
	for (const auto &[key, value] : fields)
		json_object_set_new(counts_json, key, count(value));
	json_t *out = json_object();
	json_object_set_new(out, "name", json_string(workload.name.c_str()));
	json_object_set_new(out, "machine_cpus", count(workload.machine_cpus));
	json_object_set_new(out, "closed_loop", json_boolean(workload.closed_loop));
	json_object_set_new(out, "jobs", count(workload.jobs.size()));
	json_object_set_new(out, "counts", counts_json);
	json_object_set_new(out, "notes", strings(workload.notes));
	json_t *names = json_object();
	for (const auto &[user, name] : workload.user_names)
		json_object_set_new(names, std::to_string(user).c_str(), json_string(name.c_str()));
	json_object_set_new(out, "user_names", names);
	return out;
}

json_t *run_info_json(const RunResult &run, const RunMetrics &metrics)
{
	json_t *out = json_object();
	json_object_set_new(out, "label", json_string(run.label.c_str()));
	json_object_set_new(out, "priority", json_string(run.priority.c_str()));
	json_object_set_new(out, "backfill", json_string(run.backfill.c_str()));
	json_object_set_new(out, "estimate", json_string(run.estimate.c_str()));
	json_object_set_new(out, "command", strings(run.command));
	json_object_set_new(out, "machine_cpus", count(metrics.machine_cpus));
	json_object_set_new(out, "outcomes", count(run.jobs.size()));
	json_object_set_new(out, "scheduler_events", count(run.scheduler_events));
	json_object_set_new(out, "scheduler_cpu_s", real(run.scheduler_cpu_s));
	json_object_set_new(out, "scheduler_cpu_per_event_s",
	                    real(metrics.scheduler_cpu_per_event_s));
	json_object_set_new(out, "wall_s", real(run.wall_s));
	json_object_set_new(out, "peak_rss_kb", count(run.peak_rss_kb));
	return out;
}

json_t *options_json(const MetricOptions &options)
{
	json_t *profiles = json_object();
	for (const auto &[user, profile] : options.user_profiles)
		json_object_set_new(profiles, std::to_string(user).c_str(),
		                    json_string(profile.c_str()));
	json_t *out = json_object();
	json_object_set_new(out, "bounded_slowdown_tau_s", real(options.bounded_slowdown_tau_s));
	json_object_set_new(out, "utilization_bins", count(options.utilization_bins));
	json_object_set_new(out, "utilization_bin_s", real(options.utilization_bin_s));
	json_object_set_new(out, "stretch_one_tolerance", real(options.stretch_one_tolerance));
	json_object_set_new(out, "user_profiles", profiles);
	return out;
}

json_t *jobs_json(const RunMetrics &metrics)
{
	json_t *out = json_object();
	json_object_set_new(out, "total", count(metrics.jobs_total));
	json_object_set_new(out, "finished", count(metrics.jobs_finished));
	json_object_set_new(out, "never_started", count(metrics.jobs_never_started));
	json_object_set_new(out, "not_ended", count(metrics.jobs_not_ended));
	json_object_set_new(out, "invalid", count(metrics.jobs_invalid));
	json_object_set_new(out, "zero_runtime", count(metrics.jobs_zero_runtime));
	json_object_set_new(out, "without_campaign", count(metrics.jobs_without_campaign));
	json_object_set_new(out, "wait_s", distribution(metrics.wait_s));
	json_object_set_new(out, "response_s", distribution(metrics.response_s));
	json_object_set_new(out, "bounded_slowdown", distribution(metrics.bounded_slowdown));
	json_object_set_new(out, "stretch", distribution(metrics.job_stretch));
	return out;
}

json_t *histogram_json(const std::vector<StretchInterval> &intervals)
{
	json_t *out = json_array();
	for (const StretchInterval &interval : intervals) {
		json_t *bin = json_object();
		json_object_set_new(bin, "low", real(interval.low));
		json_object_set_new(bin, "high",
		                    interval.high < 0 ? json_null() : real(interval.high));
		json_object_set_new(bin, "count", count(interval.count));
		json_array_append_new(out, bin);
	}
	return out;
}

json_t *campaigns_json(const RunMetrics &metrics)
{
	json_t *out = json_object();
	json_object_set_new(out, "total", count(metrics.campaigns_total));
	json_object_set_new(out, "scored", count(metrics.campaigns_scored));
	json_object_set_new(out, "unfinished", count(metrics.campaigns_unfinished));
	json_object_set_new(out, "zero_length", count(metrics.campaigns_zero_length));
	json_object_set_new(out, "flow_s", distribution(metrics.campaign_flow_s));
	json_object_set_new(out, "stretch", distribution(metrics.campaign_stretch));
	json_object_set_new(out, "share_stretch_one", real(metrics.share_stretch_one));
	json_object_set_new(out, "share_stretch_below_1_5", real(metrics.share_stretch_below_1_5));
	json_object_set_new(out, "share_stretch_above_20", real(metrics.share_stretch_above_20));
	json_object_set_new(out, "stretch_histogram", histogram_json(metrics.stretch_histogram));
	return out;
}

json_t *user_json(const UserMetrics &user)
{
	json_t *out = json_object();
	json_object_set_new(out, "user", count(user.user));
	json_object_set_new(out, "profile", json_string(user.profile.c_str()));
	json_object_set_new(out, "jobs", count(user.jobs));
	json_object_set_new(out, "campaigns", count(user.campaigns));
	json_object_set_new(out, "max_campaign_stretch", real(user.max_campaign_stretch));
	json_object_set_new(out, "mean_campaign_stretch", real(user.mean_campaign_stretch));
	json_object_set_new(out, "cumulative_stretch_lpt", real(user.cumulative_stretch_lpt));
	json_object_set_new(out, "cumulative_stretch_bound", real(user.cumulative_stretch_bound));
	json_object_set_new(out, "mean_bounded_slowdown", real(user.mean_bounded_slowdown));
	json_object_set_new(out, "nuwt", real(user.nuwt));
	return out;
}

json_t *profiles_json(const std::vector<ProfileMetrics> &profiles)
{
	json_t *out = json_array();
	for (const ProfileMetrics &profile : profiles) {
		json_t *row = json_object();
		json_object_set_new(row, "profile", json_string(profile.profile.c_str()));
		json_object_set_new(row, "users", count(profile.users));
		json_object_set_new(row, "mean_max_campaign_stretch",
		                    real(profile.mean_max_campaign_stretch));
		json_object_set_new(row, "mean_mean_campaign_stretch",
		                    real(profile.mean_mean_campaign_stretch));
		json_array_append_new(out, row);
	}
	return out;
}

json_t *user_groups_json(const std::vector<GroupStretch> &groups)
{
	json_t *out = json_object();
	for (const GroupStretch &group : groups) {
		json_t *row = json_object();
		json_object_set_new(row, "users", count(group.users));
		json_object_set_new(row, "bounded_campaign_stretch",
		                    distribution(group.bounded_stretch));
		json_object_set_new(row, "user_worst_bounded_campaign_stretch",
		                    distribution(group.user_worst));
		json_object_set_new(out, group.group.c_str(), row);
	}
	return out;
}

json_t *users_json(const RunMetrics &metrics)
{
	json_t *out = json_object();
	json_object_set_new(out, "total", count(metrics.users_total));
	json_object_set_new(out, "max_campaign_stretch",
	                    distribution(metrics.user_max_campaign_stretch));
	json_object_set_new(out, "mean_campaign_stretch",
	                    distribution(metrics.user_mean_campaign_stretch));
	json_object_set_new(out, "cumulative_stretch_lpt",
	                    distribution(metrics.user_cumulative_stretch_lpt));
	json_object_set_new(out, "cumulative_stretch_bound",
	                    distribution(metrics.user_cumulative_stretch_bound));
	json_object_set_new(out, "max_cumulative_stretch_lpt",
	                    real(metrics.max_user_cumulative_stretch_lpt));
	json_object_set_new(out, "max_cumulative_stretch_bound",
	                    real(metrics.max_user_cumulative_stretch_bound));
	json_object_set_new(out, "jain_mean_campaign_stretch",
	                    real(metrics.jain_user_mean_campaign_stretch));
	json_object_set_new(out, "jain_mean_bounded_slowdown",
	                    real(metrics.jain_user_mean_bounded_slowdown));
	json_object_set_new(out, "nuwt", distribution(metrics.nuwt));
	json_object_set_new(out, "uwt", real(metrics.uwt));
	json_object_set_new(out, "nuwt_fairness", real(metrics.nuwt_fairness));
	json_object_set_new(out, "profiles", profiles_json(metrics.profiles));
	json_object_set_new(out, "groups", user_groups_json(metrics.user_groups));
	json_t *rows = json_array();
	for (const UserMetrics &user : metrics.users)
		json_array_append_new(rows, user_json(user));
	json_object_set_new(out, "rows", rows);
	return out;
}

json_t *machine_json(const RunMetrics &metrics)
{
	json_t *series = json_array();
	for (const UtilizationSample &sample : metrics.utilization_series)
		json_array_append_new(
		    series, json_pack("[o,o]", real(sample.t_s), real(sample.busy_fraction)));
	json_t *out = json_object();
	json_object_set_new(out, "first_submit_s", json_integer(metrics.first_submit_s));
	json_object_set_new(out, "last_end_s", json_integer(metrics.last_end_s));
	json_object_set_new(out, "utilization", real(metrics.utilization));
	json_object_set_new(out, "utilization_bin_s", real(metrics.utilization_bin_s));
	json_object_set_new(out, "utilization_series", series);
	return out;
}

} // namespace

std::string run_json(const Workload &workload, const RunResult &run, const RunMetrics &metrics,
                     const MetricOptions &options)
{
	JsonPtr root(json_object(), json_decref);
	json_object_set_new(root.get(), "format", json_string("campsim-run-metrics"));
	json_object_set_new(root.get(), "version", json_integer(1));
	json_object_set_new(root.get(), "run", run_info_json(run, metrics));
	json_object_set_new(root.get(), "workload", workload_json(workload));
	json_object_set_new(root.get(), "options", options_json(options));
	json_object_set_new(root.get(), "definitions", strings(metric_definitions()));
	json_object_set_new(root.get(), "jobs", jobs_json(metrics));
	json_object_set_new(root.get(), "campaigns", campaigns_json(metrics));
	json_object_set_new(root.get(), "users", users_json(metrics));
	json_object_set_new(root.get(), "machine", machine_json(metrics));
	json_object_set_new(root.get(), "notes", strings(metrics.notes));
	char *text = json_dumps(root.get(), JSON_INDENT(1) | JSON_REAL_PRECISION(12));
	std::string out = text != nullptr ? text : "{}";
	std::free(text);
	return out + "\n";
}

Status write_run_json(const std::string &path, const Workload &workload, const RunResult &run,
                      const RunMetrics &metrics, const MetricOptions &options)
{
	return write_text_file(path, run_json(workload, run, metrics, options));
}

} // namespace campaign::sim
