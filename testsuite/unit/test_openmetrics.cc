// scampaign --openmetrics/--prometheus: label values escaped, HELP and TYPE before each family's
// samples, counters named per format, "# EOF" in OpenMetrics only; the scheduler's window of
// passes and its JSON form.
#include "check_main.h"
#include "policy/campaign_report.h"
#include "policy/openmetrics.h"
#include "policy/scheduler_metrics.h"

using namespace campaign;

namespace
{

CampaignRow pending_row(const std::string &user, uint64_t campaign, uint32_t pending,
                        int64_t virtual_finish_s)
{
	CampaignRow row;
	row.user = user;
	row.domain = "batch";
	row.campaign_id = campaign;
	row.jobs_pending = pending;
	row.virtual_finish_s = virtual_finish_s;
	return row;
}

CampaignReport report_with_scheduler()
{
	CampaignReport report;
	report.policy = "ostrich";
	report.generated_s = 1000;
	report.rows.push_back(pending_row("alice", 1, 2, 900));
	report.rows.push_back(pending_row("alice", 2, 1, 1100));
	report.rows.push_back(pending_row("bob", 3, 0, 500)); // nothing pending: not counted
	SchedulerMetricsWindow window(10);
	window.add({.took_us = 1500,
	            .queue_length = 3,
	            .started = 1,
	            .reserved = 2,
	            .refused = {{"Requested nodes are busy", 2}},
	            .left_out = {{"Dependency", 1}}});
	report.scheduler = window.metrics();
	return report;
}

bool has_line(const std::string &text, const std::string &line)
{
	return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

} // namespace

START_TEST(test_label_values_escape_backslash_quote_and_newline)
{
	ck_assert_string_eq(escape_label_value("plain"), "plain");
	ck_assert_string_eq(escape_label_value("a\\b"), "a\\\\b");
	ck_assert_string_eq(escape_label_value("say \"no\""), "say \\\"no\\\"");
	ck_assert_string_eq(escape_label_value("two\nlines"), "two\\nlines");
}
END_TEST

START_TEST(test_user_label_is_escaped_in_samples)
{
	CampaignReport report;
	report.policy = "ostrich";
	report.rows.push_back(pending_row("we\"ird\\user\n", 1, 1, 0));
	const std::string text = exposition_text(report, ExpositionFormat::openmetrics);
	ck_assert_msg(has_line(text,
	                       "slurm_campaign_pending_campaigns{user=\"we\\\"ird\\\\user\\n\","
	                       "domain=\"batch\"} 1"),
	              "%s", text.c_str());
}
END_TEST

START_TEST(test_openmetrics_names_counter_families_without_total_and_ends_with_eof)
{
	const std::string text =
	    exposition_text(report_with_scheduler(), ExpositionFormat::openmetrics);
	ck_assert_msg(has_line(text, "# TYPE slurm_campaign_start_refusals counter"), "%s",
	              text.c_str());
	ck_assert(has_line(text, "slurm_campaign_start_refusals_total{reason=\"Requested nodes are "
	                         "busy\"} 2"));
	ck_assert(has_line(text, "# TYPE slurm_campaign_plan_cycles counter"));
	ck_assert(has_line(text, "slurm_campaign_plan_cycles_total 1"));
	ck_assert(has_line(text, "# TYPE slurm_campaign_plan_cycle_seconds gauge"));
	ck_assert(has_line(text, "slurm_campaign_plan_cycle_seconds 0.001500"));
	ck_assert(has_line(text, "slurm_campaign_jobs_planned 3"));
	ck_assert(has_line(text, "slurm_campaign_jobs_left_out{reason=\"Dependency\"} 1"));
	ck_assert(text.ends_with("\n# EOF\n"));
}
END_TEST

START_TEST(test_prometheus_names_counter_families_with_total_and_has_no_eof)
{
	const std::string text =
	    exposition_text(report_with_scheduler(), ExpositionFormat::prometheus);
	ck_assert_msg(has_line(text, "# TYPE slurm_campaign_start_refusals_total counter"), "%s",
	              text.c_str());
	ck_assert(text.find("# EOF") == std::string::npos);
}
END_TEST

START_TEST(test_every_family_has_help_then_type_then_samples)
{
	const std::string text =
	    exposition_text(report_with_scheduler(), ExpositionFormat::openmetrics);
	std::istringstream lines(text);
	std::string line, family;
	int help = 0, type = 0;
	while (std::getline(lines, line)) {
		if (line.starts_with("# HELP ")) {
			family = line.substr(7, line.find(' ', 7) - 7);
			help++;
		} else if (line.starts_with("# TYPE ")) {
			ck_assert_msg(line.substr(7).starts_with(family + " "), "%s", line.c_str());
			type++;
		} else if (line != "# EOF") {
			ck_assert_msg(line.starts_with(family), "%s outside %s", line.c_str(),
			              family.c_str());
		}
	}
	ck_assert_int_eq(help, type);
	ck_assert_int_ge(help, 10);
}
END_TEST

START_TEST(test_lag_is_the_largest_past_virtual_finish_of_pending_campaigns)
{
	const std::string text =
	    exposition_text(report_with_scheduler(), ExpositionFormat::openmetrics);
	ck_assert_msg(
	    has_line(text, "slurm_campaign_lag_seconds{user=\"alice\",domain=\"batch\"} 100"), "%s",
	    text.c_str());
	ck_assert(has_line(text, "slurm_campaign_pending_jobs{user=\"alice\",domain=\"batch\"} 3"));
	ck_assert(text.find("user=\"bob\"") == std::string::npos);
}
END_TEST

START_TEST(test_faircamp_lag_is_past_the_deadline)
{
	CampaignReport report;
	report.policy = "faircamp";
	report.generated_s = 1000;
	CampaignRow row = pending_row("carol", 1, 1, 0);
	row.virtual_finish_s.reset();
	row.deadline_s = 1300;
	report.rows.push_back(row);
	const std::string text = exposition_text(report, ExpositionFormat::openmetrics);
	ck_assert_msg(
	    has_line(text, "slurm_campaign_lag_seconds{user=\"carol\",domain=\"batch\"} -300"),
	    "%s", text.c_str());
}
END_TEST

START_TEST(test_no_scheduler_no_scheduler_families)
{
	CampaignReport report;
	report.policy = "ostrich";
	const std::string text = exposition_text(report, ExpositionFormat::openmetrics);
	ck_assert_string_eq(text, "# EOF\n");
}
END_TEST

START_TEST(test_window_forgets_passes_older_than_its_size_totals_do_not)
{
	SchedulerMetricsWindow window(2);
	window.add({.refused = {{"busy", 1}}, .left_out = {{"Dependency", 4}}});
	window.add({.refused = {{"busy", 2}}, .left_out = {}});
	window.add({.refused = {{"other", 1}}, .left_out = {}});
	const SchedulerMetrics &metrics = window.metrics();
	ck_assert_uint_eq(metrics.window_passes, 2);
	ck_assert_uint_eq(metrics.refused_recent.at("busy"), 2);
	ck_assert_uint_eq(metrics.refused_recent.at("other"), 1);
	ck_assert_uint_eq(metrics.refused_total.at("busy"), 3);
	ck_assert(metrics.left_out_recent.empty());
	ck_assert(metrics.left_out_last.empty());
	ck_assert_uint_eq(metrics.passes, 3);
}
END_TEST

START_TEST(test_scheduler_metrics_round_trip_in_the_report)
{
	const CampaignReport report = report_with_scheduler();
	auto back = report_from_json(report_to_json(report));
	ck_assert_msg(back.ok(), "%s", back.ok() ? "" : back.error().c_str());
	ck_assert(back.value().scheduler.has_value());
	ck_assert_uint_eq(back.value().scheduler->refused_total.at("Requested nodes are busy"), 2);
	ck_assert_uint_eq(back.value().scheduler->last_pass_us, 1500);
	ck_assert_uint_eq(back.value().scheduler->window_passes, 1);
	auto bad = scheduler_metrics_from_json("{\"passes\":-1}");
	ck_assert(!bad.ok());
	ck_assert_msg(bad.error().find("'passes'") != std::string::npos, "%s", bad.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("openmetrics");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, test_label_values_escape_backslash_quote_and_newline);
	tcase_add_test(tc, test_user_label_is_escaped_in_samples);
	tcase_add_test(tc, test_openmetrics_names_counter_families_without_total_and_ends_with_eof);
	tcase_add_test(tc, test_prometheus_names_counter_families_with_total_and_has_no_eof);
	tcase_add_test(tc, test_every_family_has_help_then_type_then_samples);
	tcase_add_test(tc, test_lag_is_the_largest_past_virtual_finish_of_pending_campaigns);
	tcase_add_test(tc, test_faircamp_lag_is_past_the_deadline);
	tcase_add_test(tc, test_no_scheduler_no_scheduler_families);
	tcase_add_test(tc, test_window_forgets_passes_older_than_its_size_totals_do_not);
	tcase_add_test(tc, test_scheduler_metrics_round_trip_in_the_report);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
