// campsim's report files: the run JSON parses back (jansson) with its fields, the CSV tables
// have one row per job, scored campaign and user, and the side-by-side table names every run.
#include "metrics_fixtures.h"
#include "report/comparison_table.h"
#include "report/run_report.h"
#include "report/text_format.h"

#include <jansson.h>

using namespace metrics_test;

namespace
{

// m = 2; user 1: campaign 1 (two jobs), user 2: campaign 2 (one job) and campaign 3 (a job
// that never starts): 4 outcomes, 2 scored campaigns, 2 users with a finished job.
Run sample_run(const std::string &label)
{
	return make_run(2,
	                {{1, 1, 1, 0, 0, 10},
	                 {1, 2, 1, 0, 10, 30},
	                 {2, 1, 2, 5, 30, 40},
	                 {2, 1, 3, 50, -1, -1}},
	                label);
}

size_t line_count(const std::string &path)
{
	std::ifstream file(path);
	ck_assert_msg(file.good(), "cannot read %s", path.c_str());
	size_t lines = 0;
	std::string line;
	while (std::getline(file, line))
		lines++;
	return lines;
}

const json_t *at(const json_t *node, const std::vector<const char *> &keys)
{
	for (const char *key : keys) {
		node = json_object_get(node, key);
		ck_assert_msg(node != nullptr, "missing JSON field %s", key);
	}
	return node;
}

} // namespace

START_TEST(test_report_run_json_parses_back_with_fields)
{
	const Run run = sample_run("ostrich/per_campaign");
	MetricOptions options;
	options.user_profiles = {{1, "short"}};
	const RunMetrics metrics = compute_metrics(run.workload, run.result, options);
	const TemporaryDirectory temporary;
	const std::string &directory = temporary.path;
	const std::string path = directory + "/run.json";
	const campaign::Status written =
	    write_run_json(path, run.workload, run.result, metrics, options);
	ck_assert_msg(written.ok(), "%s", written.ok() ? "" : written.error().c_str());

	json_error_t error;
	json_t *root = json_load_file(path.c_str(), 0, &error);
	ck_assert_msg(root != nullptr, "%s line %d: %s", path.c_str(), error.line, error.text);
	ck_assert_str_eq(json_string_value(at(root, {"format"})), "campsim-run-metrics");
	ck_assert_int_eq(json_integer_value(at(root, {"version"})), 1);
	ck_assert_str_eq(json_string_value(at(root, {"run", "label"})), "ostrich/per_campaign");
	ck_assert_int_eq(json_integer_value(at(root, {"workload", "counts", "kept"})), 4);
	ck_assert_int_eq(json_integer_value(at(root, {"workload", "jobs"})), 4);
	ck_assert(near(json_number_value(at(root, {"options", "bounded_slowdown_tau_s"})), 10));
	ck_assert_str_eq(json_string_value(at(root, {"options", "user_profiles", "1"})), "short");
	ck_assert(json_array_size(at(root, {"definitions"})) >= 5);
	ck_assert_int_eq(json_integer_value(at(root, {"jobs", "finished"})), 3);
	ck_assert_int_eq(json_integer_value(at(root, {"jobs", "never_started"})), 1);
	ck_assert(near(json_number_value(at(root, {"jobs", "bounded_slowdown", "mean"})),
	               metrics.bounded_slowdown.mean));
	for (const char *key : {"count", "mean", "p50", "p90", "p99", "max"})
		at(root, {"jobs", "wait_s", key});
	ck_assert_int_eq(json_integer_value(at(root, {"campaigns", "scored"})), 2);
	ck_assert_int_eq(json_array_size(at(root, {"campaigns", "stretch_histogram"})), 7);
	ck_assert(near(json_number_value(at(root, {"campaigns", "stretch", "max"})),
	               metrics.campaign_stretch.max));
	ck_assert(json_is_number(at(root, {"users", "jain_mean_campaign_stretch"})));
	ck_assert(json_is_number(at(root, {"users", "nuwt_fairness"})));
	ck_assert_int_eq(json_array_size(at(root, {"users", "rows"})), 2);
	ck_assert_int_eq(json_array_size(at(root, {"users", "profiles"})), 1);
	ck_assert(
	    near(json_number_value(at(root, {"machine", "utilization"})), metrics.utilization));
	ck_assert(json_array_size(at(root, {"machine", "utilization_series"})) > 0);
	json_decref(root);
}
END_TEST

START_TEST(test_report_run_csv_row_counts)
{
	const Run run = sample_run("fifo/no_backfill");
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	const TemporaryDirectory temporary;
	const std::string &directory = temporary.path;
	const auto written = write_run_csv(directory, file_stem(run.result.label), run.workload,
	                                   run.result, metrics, MetricOptions{});
	ck_assert_msg(written.ok(), "%s", written.ok() ? "" : written.error().c_str());
	ck_assert_uint_eq(written.value().size(), 3);
	ck_assert(written.value()[0] == directory + "/fifo_no_backfill.jobs.csv");
	ck_assert_uint_eq(line_count(written.value()[0]), 1 + 4); // header + every outcome
	ck_assert_uint_eq(line_count(written.value()[1]), 1 + 2); // header + scored campaigns
	ck_assert_uint_eq(line_count(written.value()[2]), 1 + 2); // header + users
	// The never-started job's row keeps its times and leaves the metrics empty.
	const std::string jobs = jobs_csv(run.workload, run.result, MetricOptions{});
	ck_assert_msg(jobs.find("3,4,2,3,1,50,-1,-1,0,never_started,,,,,\n") != std::string::npos,
	              "%s", jobs.c_str());
	// A directory that does not exist: the error names the file.
	const auto failed = write_run_csv(directory + "/missing", "x", run.workload, run.result,
	                                  metrics, MetricOptions{});
	ck_assert(!failed.ok());
	ck_assert(failed.error().find(directory + "/missing/x.jobs.csv") != std::string::npos);
}
END_TEST

START_TEST(test_report_table_names_every_run_aligned)
{
	const std::vector<std::string> labels = {"fifo/no_backfill", "ostrich/per_campaign",
	                                         "faircamp/easy"};
	std::vector<RunMetrics> runs;
	for (const std::string &label : labels) {
		const Run run = sample_run(label);
		runs.push_back(compute_metrics(run.workload, run.result, MetricOptions{}));
	}
	const std::string text = comparison_table_text(runs);
	for (const std::string &label : labels)
		ck_assert_msg(text.find(label) != std::string::npos, "no %s in\n%s", label.c_str(),
		              text.c_str());
	ck_assert(text.rfind("workload: hand-made\n", 0) == 0);
	ck_assert(text.find("campaign_stretch.p90") != std::string::npos);
	ck_assert(text.find("jain.user_mean_campaign_stretch") != std::string::npos);
	// Aligned: every line of the table has the same width.
	std::istringstream lines(text.substr(text.find('\n') + 1));
	std::string line;
	size_t width = 0, count = 0;
	while (std::getline(lines, line)) {
		if (count++ == 0)
			width = line.size();
		ck_assert_msg(line.size() == width, "line '%s' is %zu wide, not %zu", line.c_str(),
		              line.size(), width);
	}
	const size_t rows = comparison_rows(runs).size();
	ck_assert_uint_eq(count, rows + 1);
	const std::string csv = comparison_table_csv(runs);
	ck_assert(csv.rfind("metric,fifo/no_backfill,ostrich/per_campaign,faircamp/easy\n", 0) ==
	          0);
	ck_assert_uint_eq(std::count(csv.begin(), csv.end(), '\n'), rows + 1);
	// Interval rows hold commas: quoted in the CSV.
	ck_assert(csv.find("\"campaign_stretch.count_[1,2)\"") != std::string::npos);
}
END_TEST

START_TEST(test_report_text_helpers)
{
	ck_assert_string_eq(format_table_number(3), "3");
	ck_assert_string_eq(format_table_number(1234.56), "1234.6");
	ck_assert_string_eq(format_table_number(0.123456), "0.1235");
	ck_assert_string_eq(format_table_number(2.5e-05), "2.5e-05");
	ck_assert_string_eq(csv_field("a,b"), "\"a,b\"");
	ck_assert_string_eq(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
	ck_assert_string_eq(csv_field("plain"), "plain");
	ck_assert_string_eq(file_stem("ostrich/per campaign"), "ostrich_per_campaign");
}
END_TEST

int main()
{
	Suite *suite = suite_create("report_files");
	TCase *tc = tcase_create("files");
	tcase_add_test(tc, test_report_run_json_parses_back_with_fields);
	tcase_add_test(tc, test_report_run_csv_row_counts);
	tcase_add_test(tc, test_report_table_names_every_run_aligned);
	tcase_add_test(tc, test_report_text_helpers);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
