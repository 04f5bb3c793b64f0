// Several runs' metrics on one workload side by side: rows are metrics, columns are the runs'
// labels, as aligned text or as CSV. Formatting only.
#include "report/comparison_table.h"

#include "report/text_format.h"

#include <algorithm>
#include <functional>
#include <set>

namespace campaign::sim
{
namespace
{

using Getter = std::function<double(const RunMetrics &)>;

class RowBuilder
{
public:
	explicit RowBuilder(const std::vector<RunMetrics> &runs) : runs_(runs) {}

	void add(const std::string &metric, const Getter &get)
	{
		ComparisonRow row{metric, {}};
		for (const RunMetrics &run : runs_)
			row.values.push_back(get(run));
		rows_.push_back(std::move(row));
	}

	void add(const std::string &metric, const Distribution RunMetrics::*field)
	{
		add(metric + ".count", [=](const RunMetrics &m) { return (m.*field).count; });
		add(metric + ".mean", [=](const RunMetrics &m) { return (m.*field).mean; });
		add(metric + ".p50", [=](const RunMetrics &m) { return (m.*field).p50; });
		add(metric + ".p90", [=](const RunMetrics &m) { return (m.*field).p90; });
		add(metric + ".p95", [=](const RunMetrics &m) { return (m.*field).p95; });
		add(metric + ".p99", [=](const RunMetrics &m) { return (m.*field).p99; });
		add(metric + ".max", [=](const RunMetrics &m) { return (m.*field).max; });
	}

	std::vector<ComparisonRow> take() { return std::move(rows_); }

private:
	const std::vector<RunMetrics> &runs_;
	std::vector<ComparisonRow> rows_;
};

void add_job_rows(RowBuilder &rows)
{
	rows.add("jobs.finished", [](const RunMetrics &m) { return m.jobs_finished; });
	rows.add("jobs.never_started", [](const RunMetrics &m) { return m.jobs_never_started; });
	rows.add("jobs.not_ended", [](const RunMetrics &m) { return m.jobs_not_ended; });
	rows.add("wait_s", &RunMetrics::wait_s);
	rows.add("response_s", &RunMetrics::response_s);
	rows.add("bounded_slowdown", &RunMetrics::bounded_slowdown);
	rows.add("job_stretch", &RunMetrics::job_stretch);
}

std::string interval_name(const StretchInterval &interval)
{
	if (interval.high < 0)
		return ">=" + format_table_number(interval.low);
	return "[" + format_table_number(interval.low) + "," + format_table_number(interval.high) +
	       ")";
}

void add_campaign_rows(RowBuilder &rows)
{
	rows.add("campaigns.scored", [](const RunMetrics &m) { return m.campaigns_scored; });
	rows.add("campaigns.unfinished",
	         [](const RunMetrics &m) { return m.campaigns_unfinished; });
	rows.add("campaign_flow_s", &RunMetrics::campaign_flow_s);
	rows.add("campaign_stretch", &RunMetrics::campaign_stretch);
	rows.add("campaign_stretch.share_eq_1",
	         [](const RunMetrics &m) { return m.share_stretch_one; });
	rows.add("campaign_stretch.share_lt_1.5",
	         [](const RunMetrics &m) { return m.share_stretch_below_1_5; });
	rows.add("campaign_stretch.share_gt_20",
	         [](const RunMetrics &m) { return m.share_stretch_above_20; });
	const std::vector<StretchInterval> intervals = stretch_intervals();
	for (size_t i = 0; i < intervals.size(); i++)
		rows.add("campaign_stretch.count_" + interval_name(intervals[i]),
		         [i](const RunMetrics &m) {
			         return i < m.stretch_histogram.size()
			                    ? m.stretch_histogram[i].count
			                    : 0;
		         });
}

void add_user_rows(RowBuilder &rows)
{
	rows.add("users.total", [](const RunMetrics &m) { return m.users_total; });
	rows.add("user_max_campaign_stretch", &RunMetrics::user_max_campaign_stretch);
	rows.add("user_mean_campaign_stretch", &RunMetrics::user_mean_campaign_stretch);
	rows.add("user_cumulative_stretch_lpt.mean",
	         [](const RunMetrics &m) { return m.user_cumulative_stretch_lpt.mean; });
	rows.add("user_cumulative_stretch_lpt.max",
	         [](const RunMetrics &m) { return m.max_user_cumulative_stretch_lpt; });
	rows.add("user_cumulative_stretch_bound.mean",
	         [](const RunMetrics &m) { return m.user_cumulative_stretch_bound.mean; });
	rows.add("user_cumulative_stretch_bound.max",
	         [](const RunMetrics &m) { return m.max_user_cumulative_stretch_bound; });
	rows.add("jain.user_mean_campaign_stretch",
	         [](const RunMetrics &m) { return m.jain_user_mean_campaign_stretch; });
	rows.add("jain.user_mean_bounded_slowdown",
	         [](const RunMetrics &m) { return m.jain_user_mean_bounded_slowdown; });
	rows.add("nuwt.uwt", [](const RunMetrics &m) { return m.uwt; });
	rows.add("nuwt.p50", [](const RunMetrics &m) { return m.nuwt.p50; });
	rows.add("nuwt.max", [](const RunMetrics &m) { return m.nuwt.max; });
	rows.add("nuwt.fairness_F", [](const RunMetrics &m) { return m.nuwt_fairness; });
}

void add_profile_rows(RowBuilder &rows, const std::vector<RunMetrics> &runs)
{
	std::set<std::string> names;
	for (const RunMetrics &run : runs)
		for (const ProfileMetrics &profile : run.profiles)
			names.insert(profile.profile);
	for (const std::string &name : names) {
		const auto find = [name](const RunMetrics &m) -> const ProfileMetrics * {
			for (const ProfileMetrics &profile : m.profiles)
				if (profile.profile == name)
					return &profile;
			return nullptr;
		};
		rows.add("profile." + name + ".users", [find](const RunMetrics &m) {
			const ProfileMetrics *profile = find(m);
			return profile ? profile->users : 0;
		});
		rows.add("profile." + name + ".mean_user_max_campaign_stretch",
		         [find](const RunMetrics &m) {
			         const ProfileMetrics *profile = find(m);
			         return profile ? profile->mean_max_campaign_stretch : 0;
		         });
	}
}

// Bounded campaign stretch per user group: the rows sites compare with Slurm's fair-share.
void add_group_rows(RowBuilder &rows)
{
	for (const char *name : {"all", "light_cpu", "light_jobs", "heavy_cpu"}) {
		const std::string group = name;
		const auto find = [group](const RunMetrics &m) -> const GroupStretch * {
			for (const GroupStretch &row : m.user_groups)
				if (row.group == group)
					return &row;
			return nullptr;
		};
		const std::string prefix = "bounded_campaign_stretch." + group;
		rows.add(prefix + ".p50", [find](const RunMetrics &m) {
			return find(m) ? find(m)->bounded_stretch.p50 : 0;
		});
		rows.add(prefix + ".p95", [find](const RunMetrics &m) {
			return find(m) ? find(m)->bounded_stretch.p95 : 0;
		});
		rows.add(prefix + ".max", [find](const RunMetrics &m) {
			return find(m) ? find(m)->bounded_stretch.max : 0;
		});
		rows.add(prefix + ".user_worst.p95", [find](const RunMetrics &m) {
			return find(m) ? find(m)->user_worst.p95 : 0;
		});
	}
}

void add_machine_rows(RowBuilder &rows)
{
	rows.add("utilization", [](const RunMetrics &m) { return m.utilization; });
	rows.add("makespan_s", [](const RunMetrics &m) {
		return static_cast<double>(m.last_end_s - m.first_submit_s);
	});
	rows.add("scheduler.events", [](const RunMetrics &m) { return m.scheduler_events; });
	rows.add("scheduler.cpu_s", [](const RunMetrics &m) { return m.scheduler_cpu_s; });
	rows.add("scheduler.cpu_per_event_ms",
	         [](const RunMetrics &m) { return m.scheduler_cpu_per_event_s * 1000; });
	rows.add("run.wall_s", [](const RunMetrics &m) { return m.wall_s; });
	rows.add("run.peak_rss_kb", [](const RunMetrics &m) { return m.peak_rss_kb; });
}

std::string workload_line(const std::vector<RunMetrics> &runs)
{
	std::vector<std::string> names;
	for (const RunMetrics &run : runs)
		if (std::find(names.begin(), names.end(), run.workload) == names.end())
			names.push_back(run.workload);
	std::string line = "workload: ";
	for (size_t i = 0; i < names.size(); i++)
		line += (i ? " | " : "") + names[i];
	return line + "\n";
}

std::string label_of(const RunMetrics &run, size_t index)
{
	return run.label.empty() ? "run" + std::to_string(index + 1) : run.label;
}

} // namespace

std::vector<ComparisonRow> comparison_rows(const std::vector<RunMetrics> &runs)
{
	RowBuilder rows(runs);
	add_job_rows(rows);
	add_campaign_rows(rows);
	add_user_rows(rows);
	add_profile_rows(rows, runs);
	add_group_rows(rows);
	add_machine_rows(rows);
	return rows.take();
}

std::string comparison_table_text(const std::vector<RunMetrics> &runs)
{
	const std::vector<ComparisonRow> rows = comparison_rows(runs);
	std::vector<std::vector<std::string>> cells; // [row][0] = metric, then the runs
	cells.push_back({"metric"});
	for (size_t i = 0; i < runs.size(); i++)
		cells.back().push_back(label_of(runs[i], i));
	for (const ComparisonRow &row : rows) {
		cells.push_back({row.metric});
		for (const double value : row.values)
			cells.back().push_back(format_table_number(value));
	}
	std::vector<size_t> widths(runs.size() + 1, 0);
	for (const auto &line : cells)
		for (size_t column = 0; column < line.size(); column++)
			widths[column] = std::max(widths[column], line[column].size());
	std::string text = workload_line(runs);
	for (const auto &line : cells) {
		std::string out = line[0] + std::string(widths[0] - line[0].size(), ' ');
		for (size_t column = 1; column < line.size(); column++)
			out += "  " + std::string(widths[column] - line[column].size(), ' ') +
			       line[column];
		text += out + "\n";
	}
	return text;
}

std::string comparison_table_csv(const std::vector<RunMetrics> &runs)
{
	std::string text = "metric";
	for (size_t i = 0; i < runs.size(); i++)
		text += "," + csv_field(label_of(runs[i], i));
	text += "\n";
	for (const ComparisonRow &row : comparison_rows(runs)) {
		text += csv_field(row.metric);
		for (const double value : row.values)
			text += "," + format_number(value);
		text += "\n";
	}
	return text;
}

} // namespace campaign::sim
