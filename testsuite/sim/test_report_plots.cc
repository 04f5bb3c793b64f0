// campsim's plots and progress bar: gnuplot draws non-empty PNG files for every figure (the test
// skips cleanly without gnuplot), a missing gnuplot is reported as such with the script still
// written, and the progress bar draws only when asked, at most 10 times a second.
#include "metrics_fixtures.h"
#include "report/plots.h"
#include "report/progress_bar.h"

#include <sys/stat.h>
#include <thread>

using namespace metrics_test;

namespace
{

// Two policies on the same hand-made workload, users 1 ("short") and 2 ("long").
std::vector<RunMetrics> two_runs()
{
	MetricOptions options;
	options.user_profiles = {{1, "short"}, {2, "long"}};
	const Run fifo = make_run(2,
	                          {{1, 1, 1, 0, 0, 100},
	                           {1, 1, 1, 0, 0, 50},
	                           {2, 2, 2, 10, 100, 400},
	                           {1, 1, 3, 20, 400, 420}},
	                          "fifo/no_backfill");
	const Run ostrich = make_run(2,
	                             {{1, 1, 1, 0, 0, 100},
	                              {1, 1, 1, 0, 0, 50},
	                              {2, 2, 2, 10, 120, 420},
	                              {1, 1, 3, 20, 100, 120}},
	                             "ostrich/per_campaign");
	return {compute_metrics(fifo.workload, fifo.result, options),
	        compute_metrics(ostrich.workload, ostrich.result, options)};
}

bool is_png(const std::string &path)
{
	std::ifstream file(path, std::ios::binary);
	char magic[8] = {};
	file.read(magic, sizeof magic);
	return file.gcount() == 8 && std::string(magic + 1, 3) == "PNG";
}

off_t file_size(const std::string &path)
{
	struct stat info;
	return stat(path.c_str(), &info) == 0 ? info.st_size : -1;
}

} // namespace

START_TEST(test_report_plots_are_non_empty_pngs)
{
	if (!find_gnuplot("gnuplot").ok()) {
		std::printf("SKIP test_report_plots_are_non_empty_pngs: %s\n", kGnuplotMissing);
		return;
	}
	const TemporaryDirectory temporary;
	const std::string directory = temporary.path + "/plots";
	PlotOptions options;
	options.title = "hand-made";
	const auto images = write_plots(directory, two_runs(), options);
	ck_assert_msg(images.ok(), "%s", images.ok() ? "" : images.error().c_str());
	const std::vector<std::string> expected = {"stretch_histogram", "user_max_stretch",
	                                           "profile_max_stretch", "stretch_cdf",
	                                           "utilization"};
	ck_assert_uint_eq(images.value().size(), expected.size());
	for (size_t i = 0; i < expected.size(); i++) {
		const std::string &image = images.value()[i];
		ck_assert_msg(image == directory + "/" + expected[i] + ".png", "%s", image.c_str());
		ck_assert_msg(file_size(image) > 1000, "%s is %ld bytes", image.c_str(),
		              static_cast<long>(file_size(image)));
		ck_assert_msg(is_png(image), "%s is not a PNG", image.c_str());
	}
	ck_assert(file_size(directory + "/plots.gp") > 0);
	ck_assert(file_size(directory + "/stretch_histogram.dat") > 0);
}
END_TEST

START_TEST(test_report_plots_missing_gnuplot_is_named)
{
	const TemporaryDirectory temporary;
	PlotOptions options;
	options.gnuplot = "/nonexistent/gnuplot";
	const auto images = write_plots(temporary.path, two_runs(), options);
	ck_assert(!images.ok());
	ck_assert_string_eq(images.error(),
	                    "gnuplot not found: install gnuplot-nox (plots skipped)");
	// The data and the script are there for a later `gnuplot plots.gp`.
	ck_assert(file_size(temporary.path + "/plots.gp") > 0);
	ck_assert(file_size(temporary.path + "/stretch_cdf.1.dat") > 0);
	ck_assert(!find_gnuplot("no-such-gnuplot-binary").ok());
}
END_TEST

START_TEST(test_report_plots_skip_figures_without_data)
{
	if (!find_gnuplot("gnuplot").ok())
		return;
	// One job that never starts: no campaign, no utilization: nothing to draw, no error.
	const Run run = make_run(1, {{1, 1, 1, 0, -1, -1}});
	const TemporaryDirectory temporary;
	const auto images = write_plots(
	    temporary.path, {compute_metrics(run.workload, run.result, MetricOptions{})}, {});
	ck_assert_msg(images.ok(), "%s", images.ok() ? "" : images.error().c_str());
	ck_assert_uint_eq(images.value().size(), 0);
}
END_TEST

START_TEST(test_report_progress_bar_throttled_and_forced)
{
	std::FILE *stream = std::tmpfile();
	ck_assert_ptr_nonnull(stream);
	{
		ProgressBar bar("run", 1000, true, stream);
		ck_assert(bar.enabled());
		for (uint64_t done = 0; done <= 1000; done++)
			bar.update(done); // well within 100 ms: only the first is drawn
		ck_assert_uint_eq(bar.redraws(), 1);
		std::this_thread::sleep_for(std::chrono::milliseconds(120));
		bar.update(1000);
		ck_assert_uint_eq(bar.redraws(), 2);
		bar.finish();
		ck_assert_uint_eq(bar.redraws(), 3);
		bar.finish(); // once only
		ck_assert_uint_eq(bar.redraws(), 3);
	}
	std::rewind(stream);
	std::string text;
	for (int c; (c = std::fgetc(stream)) != EOF;)
		text += static_cast<char>(c);
	std::fclose(stream);
	ck_assert_int_eq(std::count(text.begin(), text.end(), '\r'), 3);
	ck_assert(text.back() == '\n');
	ck_assert_msg(text.find("100.0% 1000/1000") != std::string::npos, "%s", text.c_str());

	// A file is not a terminal: without force nothing is drawn.
	std::FILE *quiet = std::tmpfile();
	{
		ProgressBar bar("run", 10, false, quiet);
		ck_assert(!bar.enabled());
		bar.update(5);
	}
	ck_assert_int_eq(std::ftell(quiet), 0);
	std::fclose(quiet);
}
END_TEST

int main()
{
	Suite *suite = suite_create("report_plots");
	TCase *tc = tcase_create("plots");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_report_plots_are_non_empty_pngs);
	tcase_add_test(tc, test_report_plots_missing_gnuplot_is_named);
	tcase_add_test(tc, test_report_plots_skip_figures_without_data);
	tcase_add_test(tc, test_report_progress_bar_throttled_and_forced);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
