// exposition_text: one family per metric, HELP and TYPE first, samples in a stable order.
#include "policy/openmetrics.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <utility>

namespace campaign
{
namespace
{

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
	Labels labels;
	std::string value;
};

std::string integer_text(uint64_t value)
{
	return std::to_string(value);
}

std::string seconds_text(double seconds)
{
	char text[48];
	std::snprintf(text, sizeof(text), "%.6f", seconds);
	return text;
}

class Exposition
{
public:
	explicit Exposition(ExpositionFormat format) : format_(format) {}

	// A family with no sample is left out: a TYPE line alone would give Prometheus 0.0.4
	// parsers an empty family.
	void family(const std::string &name, const char *type, const char *help,
	            const std::vector<Sample> &samples)
	{
		if (samples.empty())
			return;
		const bool counter = std::string(type) == "counter";
		const std::string sample_name =
		    "slurm_campaign_" + name + (counter ? "_total" : "");
		const std::string family_name = counter && format_ == ExpositionFormat::openmetrics
		                                    ? "slurm_campaign_" + name
		                                    : sample_name;
		text_ += "# HELP " + family_name + " " + help + "\n";
		text_ += "# TYPE " + family_name + " " + type + "\n";
		for (const Sample &sample : samples) {
			text_ += sample_name;
			if (!sample.labels.empty()) {
				text_ += "{";
				for (size_t i = 0; i < sample.labels.size(); i++)
					text_ += (i ? "," : "") + sample.labels[i].first + "=\"" +
					         escape_label_value(sample.labels[i].second) + "\"";
				text_ += "}";
			}
			text_ += " " + sample.value + "\n";
		}
	}

	std::string finish()
	{
		if (format_ == ExpositionFormat::openmetrics)
			text_ += "# EOF\n";
		return std::move(text_);
	}

private:
	ExpositionFormat format_;
	std::string text_;
};

std::vector<Sample> reason_samples(const ReasonCounts &counts)
{
	std::vector<Sample> samples;
	for (const auto &[reason, count] : counts)
		samples.push_back({{{"reason", reason}}, integer_text(count)});
	return samples;
}

struct UserFigures {
	uint64_t campaigns = 0, jobs = 0;
	std::optional<int64_t> lag_s;
};

// Per (user, domain): pending campaigns and jobs, and the largest lag of a pending campaign
// behind its virtual finish (OStrich) or deadline (FairCamp) at the report's time.
void add_campaign_families(Exposition &out, const CampaignReport &report)
{
	std::map<std::pair<std::string, std::string>, UserFigures> users;
	const bool faircamp = report.policy == "faircamp";
	for (const CampaignRow &row : report.rows) {
		if (row.jobs_pending == 0)
			continue;
		UserFigures &figures = users[{row.user, row.domain}];
		figures.campaigns++;
		figures.jobs += row.jobs_pending;
		const std::optional<int64_t> due = faircamp ? row.deadline_s : row.virtual_finish_s;
		if (due)
			figures.lag_s =
			    std::max(figures.lag_s.value_or(INT64_MIN), report.generated_s - *due);
	}
	std::vector<Sample> campaigns, jobs, lags;
	for (const auto &[key, figures] : users) {
		const Labels labels = {{"user", key.first}, {"domain", key.second}};
		campaigns.push_back({labels, integer_text(figures.campaigns)});
		jobs.push_back({labels, integer_text(figures.jobs)});
		if (figures.lag_s)
			lags.push_back({labels, std::to_string(*figures.lag_s)});
	}
	out.family("pending_campaigns", "gauge",
	           "Campaigns with pending jobs, per user and domain.", campaigns);
	out.family("pending_jobs", "gauge",
	           "Eligible pending jobs of campaigns, per user and domain.", jobs);
	out.family("lag_seconds", "gauge",
	           faircamp ? "Largest time past its deadline of a user's pending campaign "
	                      "(negative: before it)."
	                    : "Largest time past its virtual finish of a user's pending campaign "
	                      "(negative: before it).",
	           lags);
}

void add_scheduler_families(Exposition &out, const SchedulerMetrics &metrics)
{
	const std::string window = std::to_string(metrics.window_passes);
	out.family("plan_cycles", "counter", "sched/campaign passes since slurmctld started.",
	           {{{}, integer_text(metrics.passes)}});
	out.family("plan_cycle_seconds", "gauge", "Wall time of the last sched/campaign pass.",
	           {{{}, seconds_text(metrics.last_pass_us / 1e6)}});
	out.family("plan_cycle_max_seconds", "gauge",
	           "Longest sched/campaign pass since slurmctld started.",
	           {{{}, seconds_text(metrics.max_pass_us / 1e6)}});
	out.family("queue_length", "gauge", "Pending job records the last pass planned.",
	           {{{}, integer_text(metrics.last_queue_length)}});
	out.family("jobs_planned", "gauge", "Jobs the last pass started or reserved a start for.",
	           {{{}, integer_text(metrics.last_planned)}});
	out.family("jobs_started", "counter",
	           "Jobs sched/campaign started since slurmctld started.",
	           {{{}, integer_text(metrics.jobs_started)}});
	out.family("recent_passes", "gauge", "Passes the recent_* families cover.", {{{}, window}});
	out.family("start_refusals", "counter",
	           "Planned starts Slurm refused since slurmctld started, by Slurm's reason.",
	           reason_samples(metrics.refused_total));
	out.family("recent_start_refusals", "gauge",
	           "Planned starts Slurm refused over the recent passes, by Slurm's reason.",
	           reason_samples(metrics.refused_recent));
	out.family("jobs_left_out", "gauge",
	           "Pending jobs the last pass left out of the plan, by reason.",
	           reason_samples(metrics.left_out_last));
}

} // namespace

std::string escape_label_value(const std::string &value)
{
	std::string escaped;
	escaped.reserve(value.size());
	for (const char c : value) {
		if (c == '\\')
			escaped += "\\\\";
		else if (c == '"')
			escaped += "\\\"";
		else if (c == '\n')
			escaped += "\\n";
		else
			escaped += c;
	}
	return escaped;
}

std::string exposition_text(const CampaignReport &report, ExpositionFormat format)
{
	Exposition out(format);
	add_campaign_families(out, report);
	if (report.scheduler)
		add_scheduler_families(out, *report.scheduler);
	return out.finish();
}

} // namespace campaign
