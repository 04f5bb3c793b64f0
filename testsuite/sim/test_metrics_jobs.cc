// campsim's job and machine metrics on hand-computed cases: bounded slowdown with tau, job
// stretch, nearest-rank percentiles, utilization and its series, unfinished and invalid jobs.
#include "metrics/run_metrics.h"
#include "metrics_fixtures.h"

using namespace metrics_test;

// Bounded slowdown (DFRS report §4 / §9.1, tau = 10 s): max(1, response / max(run, tau)).
//   A: run 2, response 2   -> max(1, 2/10) = 1;     stretch 2/2 = 1
//   B: run 2, response 20  -> 20/10 = 2;            stretch 20/2 = 10
//   C: run 100, resp. 200  -> 200/100 = 2;          stretch 2
//   D: run 0, response 30  -> 30/10 = 3;            no stretch (0 s run)
START_TEST(test_metrics_bounded_slowdown_uses_tau)
{
	const Run run = make_run(4, {{1, 1, 1, 0, 0, 2},
	                             {1, 1, 1, 0, 18, 20},
	                             {1, 1, 1, 0, 100, 200},
	                             {1, 1, 1, 0, 30, 30}});
	const double expected_bsd[] = {1, 2, 2, 3};
	for (size_t i = 0; i < 4; i++) {
		const JobTimes times = job_times(run.result.jobs[i], 4, 10);
		ck_assert(times.state == JobState::Finished);
		ck_assert_near(times.bounded_slowdown, expected_bsd[i]);
	}
	ck_assert_near(job_times(run.result.jobs[1], 4, 10).stretch, 10);
	ck_assert_int_eq(job_times(run.result.jobs[1], 4, 10).wait_s, 18);
	// With tau = 1 s (Klusacek's threshold) B's slowdown is 20 / 2 = 10.
	ck_assert_near(job_times(run.result.jobs[1], 4, 1).bounded_slowdown, 10);

	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_int_eq(metrics.bounded_slowdown.count, 4);
	ck_assert_near(metrics.bounded_slowdown.mean, (1 + 2 + 2 + 3) / 4.0);
	ck_assert_near(metrics.bounded_slowdown.max, 3);
	// Job stretch over the three jobs that ran: (1 + 10 + 2) / 3; D counted as zero-runtime.
	ck_assert_int_eq(metrics.job_stretch.count, 3);
	ck_assert_near(metrics.job_stretch.mean, 13 / 3.0);
	ck_assert_int_eq(metrics.jobs_zero_runtime, 1);
	// Waits 0, 18, 100, 30: mean 37, max 100; responses 2, 20, 200, 30.
	ck_assert_near(metrics.wait_s.mean, 37);
	ck_assert_near(metrics.wait_s.max, 100);
	ck_assert_near(metrics.response_s.mean, 63);
}
END_TEST

// Nearest rank: of 1..10, p50 is the 5th value, p90 the 9th, p99 the ceil(9.9) = 10th.
START_TEST(test_metrics_percentiles_nearest_rank)
{
	std::vector<double> values;
	for (int i = 10; i >= 1; i--)
		values.push_back(i);
	const Distribution ten = summarize(values);
	ck_assert_int_eq(ten.count, 10);
	ck_assert_near(ten.mean, 5.5);
	ck_assert_near(ten.p50, 5);
	ck_assert_near(ten.p90, 9);
	ck_assert_near(ten.p99, 10);
	ck_assert_near(ten.max, 10);
	// Of 1..100, p99 is the 99th value (99 * 100 / 100 exactly, no rounding up to 100).
	values.clear();
	for (int i = 1; i <= 100; i++)
		values.push_back(i);
	const Distribution hundred = summarize(values);
	ck_assert_near(hundred.p50, 50);
	ck_assert_near(hundred.p90, 90);
	ck_assert_near(hundred.p99, 99);
	const Distribution one = summarize({7});
	ck_assert_near(one.p50, 7);
	ck_assert_near(one.p99, 7);
	const Distribution none = summarize({});
	ck_assert_int_eq(none.count, 0);
	ck_assert_near(none.mean, 0);
}
END_TEST

// m = 2. A: 2 CPUs 0-10, B: 1 CPU 10-20, both submitted at 0. Area 2*10 + 1*10 = 30 CPU-s over
// 2 CPUs * (20 - 0) s: utilization 30 / 40 = 0.75. Bins of 10 s: [0,10) 20/20 = 1,
// [10,20) 10/20 = 0.5.
START_TEST(test_metrics_utilization_and_series)
{
	const Run run = make_run(2, {{1, 2, 1, 0, 0, 10}, {1, 1, 1, 0, 10, 20}});
	MetricOptions options;
	options.utilization_bin_s = 10;
	const RunMetrics metrics = compute_metrics(run.workload, run.result, options);
	ck_assert_near(metrics.utilization, 0.75);
	ck_assert_int_eq(metrics.first_submit_s, 0);
	ck_assert_int_eq(metrics.last_end_s, 20);
	ck_assert_uint_eq(metrics.utilization_series.size(), 2);
	ck_assert_near(metrics.utilization_series[0].t_s, 0);
	ck_assert_near(metrics.utilization_series[0].busy_fraction, 1);
	ck_assert_near(metrics.utilization_series[1].t_s, 10);
	ck_assert_near(metrics.utilization_series[1].busy_fraction, 0.5);
}
END_TEST

// m = 1, one job 3-13 (submitted at 0), bins of 5 s over [0, 13): [0,5) busy 2 of 5 = 0.4,
// [5,10) 1, and the short last bin [10,13) 3 of 3 = 1. Utilization 10 / 13.
START_TEST(test_metrics_utilization_partial_bins)
{
	const Run run = make_run(1, {{1, 1, 1, 0, 3, 13}});
	MetricOptions options;
	options.utilization_bin_s = 5;
	const RunMetrics metrics = compute_metrics(run.workload, run.result, options);
	ck_assert_near(metrics.utilization, 10 / 13.0);
	ck_assert_uint_eq(metrics.utilization_series.size(), 3);
	ck_assert_near(metrics.utilization_series[0].busy_fraction, 0.4);
	ck_assert_near(metrics.utilization_series[1].busy_fraction, 1);
	ck_assert_near(metrics.utilization_series[2].busy_fraction, 1);
	// Default: 200 bins of ceil(13 / 200) = 1 s -> 13 bins, the series' mean is the
	// utilization.
	const RunMetrics automatic = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_uint_eq(automatic.utilization_series.size(), 13);
	double sum = 0;
	for (const UtilizationSample &sample : automatic.utilization_series)
		sum += sample.busy_fraction;
	ck_assert_near(sum / 13, 10 / 13.0);
}
END_TEST

// A job that never started, one still running and one naming a job beyond the workload are
// counted and left out of every figure.
START_TEST(test_metrics_unfinished_jobs_counted_and_excluded)
{
	Run run = make_run(2, {{1, 1, 1, 0, 0, 10}, {1, 1, 2, 0, -1, -1}, {2, 1, 3, 0, 5, -1}});
	JobOutcome bad;
	bad.job = 99;
	bad.start_s = 0;
	bad.end_s = 1;
	bad.campaign = 4;
	run.result.jobs.push_back(bad);
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_int_eq(metrics.jobs_total, 4);
	ck_assert_int_eq(metrics.jobs_finished, 1);
	ck_assert_int_eq(metrics.jobs_never_started, 1);
	ck_assert_int_eq(metrics.jobs_not_ended, 1);
	ck_assert_int_eq(metrics.jobs_invalid, 1);
	ck_assert_int_eq(metrics.wait_s.count, 1);
	ck_assert_int_eq(metrics.campaigns_total, 4);
	ck_assert_int_eq(metrics.campaigns_scored, 1);
	ck_assert_int_eq(metrics.campaigns_unfinished, 3);
	ck_assert_int_eq(metrics.users_total, 1); // user 2 finished nothing
	ck_assert(!metrics.notes.empty());
}
END_TEST

// Two 1-CPU jobs at once on m = 1: utilization 20 / 10 = 2, and a note says so.
START_TEST(test_metrics_over_committed_run_is_noted)
{
	const Run run = make_run(1, {{1, 1, 1, 0, 0, 10}, {2, 1, 2, 0, 0, 10}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_near(metrics.utilization, 2);
	bool noted = false;
	for (const std::string &note : metrics.notes)
		noted |= note.find("more CPUs than the machine") != std::string::npos;
	ck_assert(noted);
}
END_TEST

START_TEST(test_metrics_scheduler_cost_per_event)
{
	Run run = make_run(1, {{1, 1, 1, 0, 0, 10}});
	run.result.scheduler_events = 4;
	run.result.scheduler_cpu_s = 0.002;
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_near(metrics.scheduler_cpu_per_event_s, 0.0005);
	run.result.scheduler_events = 0;
	ck_assert_near(compute_metrics(run.workload, run.result, {}).scheduler_cpu_per_event_s, 0);
}
END_TEST

int main()
{
	Suite *suite = suite_create("metrics_jobs");
	TCase *tc = tcase_create("jobs");
	tcase_add_test(tc, test_metrics_bounded_slowdown_uses_tau);
	tcase_add_test(tc, test_metrics_percentiles_nearest_rank);
	tcase_add_test(tc, test_metrics_utilization_and_series);
	tcase_add_test(tc, test_metrics_utilization_partial_bins);
	tcase_add_test(tc, test_metrics_unfinished_jobs_counted_and_excluded);
	tcase_add_test(tc, test_metrics_over_committed_run_is_noted);
	tcase_add_test(tc, test_metrics_scheduler_cost_per_event);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
