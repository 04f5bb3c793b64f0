// campsim's campaign and user metrics on hand-computed cases: OStrich campaign stretch, the LPT
// Delta(zeta), FairCamp's cumulative user stretch, stretch shares and intervals, Jain's index,
// Klusacek's NUWT and F, per-profile means; and the cost on a 250k-job run.
#include "metrics/lpt_schedule.h"
#include "metrics/run_metrics.h"
#include "metrics_fixtures.h"
#include "policy/faircamp_deadlines.h"

#include <chrono>

using namespace metrics_test;

// OStrich §5.1: D = (C - t) / max(W/m, p_max), m = 4.
//   campaign 1 (user 1): 2 CPUs 0-10 (submit 0) and 1 CPU 10-30 (submit 5): t 0, C 30,
//     W = 20 + 20 = 40, W/m = 10, p_max 20 -> D = 30 / 20 = 1.5
//   campaign 2 (user 1): 1 CPU 100-150, submit 100: D = 50 / max(12.5, 50) = 1
//   campaign 3 (user 2): four 1-CPU jobs 30-40, submit 0: D = 40 / max(10, 10) = 4
START_TEST(test_metrics_campaign_stretch_ostrich_definition)
{
	const Run run = make_run(4, {{1, 2, 1, 0, 0, 10},
	                             {1, 1, 1, 5, 10, 30},
	                             {1, 1, 2, 100, 100, 150},
	                             {2, 1, 3, 0, 30, 40},
	                             {2, 1, 3, 0, 30, 40},
	                             {2, 1, 3, 0, 30, 40},
	                             {2, 1, 3, 0, 30, 40}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_int_eq(metrics.campaigns_scored, 3);
	const CampaignMetrics &first = metrics.campaigns[0];
	ck_assert_int_eq(first.campaign, 1);
	ck_assert_int_eq(first.user, 1);
	ck_assert_int_eq(first.jobs, 2);
	ck_assert_int_eq(first.submit_s, 0);
	ck_assert_int_eq(first.end_s, 30);
	ck_assert_int_eq(first.flow_s, 30);
	ck_assert_near(first.work_cpu_s, 40);
	ck_assert_int_eq(first.longest_job_s, 20);
	ck_assert_near(first.lower_bound_s, 20);
	ck_assert_near(first.stretch, 1.5);
	ck_assert_near(metrics.campaigns[1].stretch, 1);
	ck_assert_near(metrics.campaigns[2].stretch, 4);
	ck_assert_near(metrics.campaign_stretch.mean, 6.5 / 3);
	ck_assert_near(metrics.campaign_stretch.max, 4);
	// Shares: stretch 1 -> 1 of 3; < 1.5 -> 1 of 3 (1.5 is not below); > 20 -> none.
	ck_assert_near(metrics.share_stretch_one, 1 / 3.0);
	ck_assert_near(metrics.share_stretch_below_1_5, 1 / 3.0);
	ck_assert_near(metrics.share_stretch_above_20, 0);
	// Intervals [1,2) [2,5) [5,10) ...: 2, 1, 0, ...
	ck_assert_uint_eq(metrics.stretch_histogram.size(), 7);
	ck_assert_int_eq(metrics.stretch_histogram[0].count, 2);
	ck_assert_int_eq(metrics.stretch_histogram[1].count, 1);
	ck_assert_near(metrics.stretch_histogram[6].low, 100);
	ck_assert(metrics.stretch_histogram[6].high < 0);
	// Per user: user 1 max 1.5, mean 1.25; user 2 max = mean = 4.
	ck_assert_uint_eq(metrics.users.size(), 2);
	ck_assert_near(metrics.users[0].max_campaign_stretch, 1.5);
	ck_assert_near(metrics.users[0].mean_campaign_stretch, 1.25);
	ck_assert_near(metrics.users[1].max_campaign_stretch, 4);
	ck_assert_near(metrics.user_max_campaign_stretch.mean, 2.75);
}
END_TEST

START_TEST(test_metrics_stretch_intervals_and_shares_at_the_bounds)
{
	// Single 10 s jobs on m = 1, submitted at 0, ending at 10, 20, 250 and 1500: campaign
	// stretches 1 ([1,2), counts as 1), 2 ([2,5): 2 is the lower bound), 25 ([20,50), > 20)
	// and 150 (>= 100, > 20).
	const Run run = make_run(1, {{1, 1, 1, 0, 0, 10},
	                             {1, 1, 2, 0, 10, 20},
	                             {1, 1, 3, 0, 240, 250},
	                             {1, 1, 4, 0, 1490, 1500}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	const uint64_t expected[] = {1, 1, 0, 0, 1, 0, 1};
	for (size_t i = 0; i < 7; i++)
		ck_assert_int_eq(metrics.stretch_histogram[i].count, expected[i]);
	ck_assert_near(metrics.share_stretch_one, 0.25);
	ck_assert_near(metrics.share_stretch_above_20, 0.5);
}
END_TEST

// Graham's LPT, m = 2: 3 | 3, then 2 | 2 at 3, the last 2 at 5 -> makespan 7.
START_TEST(test_metrics_lpt_makespan_classic)
{
	ck_assert_int_eq(lpt_makespan_s({{2, 1}, {3, 1}, {2, 1}, {3, 1}, {2, 1}}, 2), 7);
	// Rigid: the 2-CPU 4 s job first (0-4), then both 3 s jobs at 4 -> 7.
	ck_assert_int_eq(lpt_makespan_s({{3, 1}, {4, 2}, {3, 1}}, 2), 7);
	// A job wider than the machine is clamped to it; no jobs: 0.
	ck_assert_int_eq(lpt_makespan_s({{10, 8}}, 2), 10);
	ck_assert_int_eq(lpt_makespan_s({}, 4), 0);
	// m = 3, {5, 4, 3, 3, 2, 2, 2}: 5 | 4 | 3; 3 at 3 (-> 6), 2 at 4 (-> 6), 2 at 5 (-> 7),
	// 2 at 6 -> 8. (Optimum is 7: LPT is within 4/3 - 1/9 of it.)
	ck_assert_int_eq(
	    lpt_makespan_s({{5, 1}, {4, 1}, {3, 1}, {3, 1}, {2, 1}, {2, 1}, {2, 1}}, 3), 8);
}
END_TEST

// The metric's Delta(zeta) is the core FairCamp's (same list schedule), on random rigid jobs.
START_TEST(test_metrics_lpt_matches_core_faircamp_delta)
{
	std::mt19937 random(7);
	for (int instance = 0; instance < 300; instance++) {
		const uint32_t machine = 1 + random() % 8;
		const int jobs = random() % 12;
		std::vector<LptJob> ours;
		std::vector<campaign::ListJob> core;
		for (int j = 0; j < jobs; j++) {
			const int64_t length = random() % 50;
			const uint32_t cpus = 1 + random() % 10;
			ours.push_back({length, cpus});
			core.push_back({static_cast<uint32_t>(j + 1), cpus, 1, length});
		}
		ck_assert_near(static_cast<double>(lpt_makespan_s(ours, machine)),
		               campaign::list_schedule_makespan_s(core, machine));
	}
}
END_TEST

// FairCamp §5.2, D^u = sum Delta / sum Delta(zeta); FC B.5 also with sum l. m = 2.
//   campaign 1: {3,3,2,2,2} submitted at 0, run 0-3, 0-3, 3-5, 3-5, 8-10 -> Delta 10,
//     Delta(zeta) = 7 (LPT), l = max(12/2, 3) = 6
//   campaign 2: one 4 s job submitted at 10, run 12-16 -> Delta 6, Delta(zeta) 4, l 4
//   user 1: (10 + 6) / (7 + 4) = 16/11 and (10 + 6) / (6 + 4) = 1.6
//   user 2's only job never starts: no scored campaign, left out of the user figures.
START_TEST(test_metrics_cumulative_user_stretch_faircamp)
{
	const Run run = make_run(2, {{1, 1, 1, 0, 0, 3},
	                             {1, 1, 1, 0, 0, 3},
	                             {1, 1, 1, 0, 3, 5},
	                             {1, 1, 1, 0, 3, 5},
	                             {1, 1, 1, 0, 8, 10},
	                             {1, 1, 2, 10, 12, 16},
	                             {2, 1, 3, 0, -1, -1}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_int_eq(metrics.campaigns[0].lpt_makespan_s, 7);
	ck_assert_near(metrics.campaigns[0].stretch, 10 / 6.0);
	ck_assert_int_eq(metrics.campaigns[1].lpt_makespan_s, 4);
	ck_assert_near(metrics.campaigns[1].stretch, 1.5);
	ck_assert_uint_eq(metrics.users.size(), 1);
	ck_assert_near(metrics.users[0].cumulative_stretch_lpt, 16 / 11.0);
	ck_assert_near(metrics.users[0].cumulative_stretch_bound, 1.6);
	ck_assert_int_eq(metrics.user_cumulative_stretch_lpt.count, 1);
	ck_assert_near(metrics.max_user_cumulative_stretch_lpt, 16 / 11.0);
	ck_assert_near(metrics.max_user_cumulative_stretch_bound, 1.6);
	ck_assert_int_eq(metrics.campaigns_unfinished, 1);
	ck_assert_int_eq(metrics.jobs_never_started, 1);
}
END_TEST

// Jain: (1 + 1)^2 / (2 * 2) = 1; (1 + 0)^2 / (2 * 1) = 0.5; (1 + 2 + 3)^2 / (3 * 14) = 6/7.
START_TEST(test_metrics_jain_index)
{
	ck_assert_near(jain_index({1, 1}), 1);
	ck_assert_near(jain_index({1, 0}), 0.5);
	ck_assert_near(jain_index({1, 2, 3}), 36 / 42.0);
	ck_assert_near(jain_index({0, 0}), 1);
	ck_assert_near(jain_index({}), 0);
	// Two users, one campaign each: stretches 1 and 3 -> Jain (4)^2 / (2 * 10) = 0.8.
	// Bounded slowdowns (tau 10): 10/10 = 1 and 30/10 = 3 -> also 0.8.
	const Run run = make_run(1, {{1, 1, 1, 0, 0, 10}, {2, 1, 2, 0, 20, 30}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_near(metrics.jain_user_mean_campaign_stretch, 0.8);
	ck_assert_near(metrics.jain_user_mean_bounded_slowdown, 0.8);
}
END_TEST

// Klusacek F2.30-F2.34, m = 1. User 1: waits 0 and 10, area 10 + 10 -> NUWT 10/20 = 0.5.
// User 2: wait 20, area 10 -> NUWT 2. UWT = 1.25; F = 0.75^2 + 0.75^2 = 1.125.
START_TEST(test_metrics_nuwt_klusacek)
{
	const Run run =
	    make_run(1, {{1, 1, 1, 0, 0, 10}, {1, 1, 1, 0, 10, 20}, {2, 1, 2, 0, 20, 30}});
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_near(metrics.users[0].total_wait_s, 10);
	ck_assert_near(metrics.users[0].total_area_cpu_s, 20);
	ck_assert_near(metrics.users[0].nuwt, 0.5);
	ck_assert_near(metrics.users[1].nuwt, 2);
	ck_assert_int_eq(metrics.nuwt.count, 2);
	ck_assert_near(metrics.uwt, 1.25);
	ck_assert_near(metrics.nuwt_fairness, 1.125);
}
END_TEST

// OStrich Fig. 2b: per-profile mean of per-user max campaign stretch. Users 1, 2 "short"
// (max 1 and 3), user 3 "long" (max 2), user 4 unlabelled. m = 1, 10 s jobs submitted at 0.
START_TEST(test_metrics_profile_means)
{
	const Run run = make_run(1, {{1, 1, 1, 0, 0, 10},
	                             {2, 1, 2, 0, 20, 30},
	                             {3, 1, 3, 0, 10, 20},
	                             {4, 1, 4, 0, 30, 40}});
	MetricOptions options;
	options.user_profiles = {{1, "short"}, {2, "short"}, {3, "long"}};
	const RunMetrics metrics = compute_metrics(run.workload, run.result, options);
	ck_assert_uint_eq(metrics.profiles.size(), 2);
	ck_assert_string_eq(metrics.profiles[0].profile, "long");
	ck_assert_int_eq(metrics.profiles[0].users, 1);
	ck_assert_near(metrics.profiles[0].mean_max_campaign_stretch, 2);
	ck_assert_string_eq(metrics.profiles[1].profile, "short");
	ck_assert_int_eq(metrics.profiles[1].users, 2);
	ck_assert_near(metrics.profiles[1].mean_max_campaign_stretch, 2);
	ck_assert_string_eq(metrics.users[3].profile, "");
}
END_TEST

// 250,000 jobs, 200 users, 5,000 campaigns: the metrics take well under a second (the bound
// here is loose for sanitizer builds; the time is printed).
START_TEST(test_metrics_fast_on_250k_jobs)
{
	std::mt19937 random(11);
	std::vector<Row> rows;
	rows.reserve(250000);
	int64_t clock_s = 0;
	for (int i = 0; i < 250000; i++) {
		const uint64_t campaign = 1 + i / 50;
		const uint32_t user = 1 + campaign % 200;
		clock_s += random() % 3;
		const int64_t start = clock_s + random() % 1000;
		rows.push_back({user, 1 + static_cast<uint32_t>(random() % 8), campaign, clock_s,
		                start, start + 1 + static_cast<int64_t>(random() % 3600)});
	}
	const Run run = make_run(512, rows);
	const auto before = std::chrono::steady_clock::now();
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	const double seconds =
	    std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
	std::printf("metrics_250k_jobs %.3f s\n", seconds);
	ck_assert_int_eq(metrics.jobs_finished, 250000);
	ck_assert_int_eq(metrics.campaigns_scored, 5000);
	ck_assert_int_eq(metrics.users_total, 200);
	ck_assert_msg(seconds < 5, "compute_metrics took %.3f s", seconds);
}
END_TEST

// Groups come from the workload: user 1 (100 CPU-s, 1 job) is heavy and not light by CPU-s; by
// job count user 2 (3 jobs) is the heavy one. Bounded stretch floors the lower bound at tau = 10 s:
// user 3's 2 s campaign that waited 8 s has stretch 5 but bounded stretch 1.
START_TEST(test_metrics_bounded_campaign_stretch_by_user_group)
{
	const Run run = make_run(10, {{1, 10, 1, 0, 0, 10}, // user 1: 100 CPU-s, flow 10, l 10
	                              {2, 1, 2, 0, 10, 20}, // user 2: 3 jobs of 10 s, flow 40
	                              {2, 1, 2, 0, 20, 30},
	                              {2, 1, 2, 0, 30, 40},
	                              {3, 1, 3, 0, 8, 10},    // user 3: 2 CPU-s, flow 10, l 2
	                              {4, 1, 4, 0, 20, 25}}); // user 4: 5 CPU-s, flow 25, l 5
	const RunMetrics metrics = compute_metrics(run.workload, run.result, MetricOptions{});
	ck_assert_uint_eq(metrics.user_groups.size(), 4);
	const GroupStretch &all = metrics.user_groups[0];
	const GroupStretch &light_cpu = metrics.user_groups[1];
	const GroupStretch &light_jobs = metrics.user_groups[2];
	const GroupStretch &heavy = metrics.user_groups[3];
	ck_assert_str_eq(all.group.c_str(), "all");
	// Campaign 2: W = 30, m = 10, p_max = 10: l = 10, flow 40 -> 4. Campaign 3: 10 / max(2, 10)
	// = 1. Campaign 4: 25 / 10 = 2.5. Campaign 1: 1.
	ck_assert_uint_eq(all.users, 4);
	ck_assert_near(all.bounded_stretch.max, 4);
	ck_assert_near(metrics.campaigns[2].stretch, 5); // plain stretch of user 3's campaign
	ck_assert_near(bounded_campaign_stretch(metrics.campaigns[2], 10), 1);
	// Light by CPU-s: users 3 (2) and 4 (5): stretches 1 and 2.5.
	ck_assert_str_eq(light_cpu.group.c_str(), "light_cpu");
	ck_assert_uint_eq(light_cpu.users, 2);
	ck_assert_near(light_cpu.bounded_stretch.max, 2.5);
	ck_assert_near(light_cpu.bounded_stretch.p50, 1);
	// Light by jobs: users 1, 3 (one job each, ties by id): stretches 1 and 1.
	ck_assert_uint_eq(light_jobs.users, 2);
	ck_assert_near(light_jobs.bounded_stretch.max, 1);
	// Heavy: ceil(4 / 10) = 1 user, the one with most CPU-s: user 2 (30) is below user 1 (100).
	ck_assert_uint_eq(heavy.users, 1);
	ck_assert_near(heavy.bounded_stretch.max, 1);
	ck_assert_near(all.user_worst.p95, 4);
}
END_TEST

int main()
{
	Suite *suite = suite_create("metrics_campaigns");
	TCase *tc = tcase_create("campaigns");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_metrics_campaign_stretch_ostrich_definition);
	tcase_add_test(tc, test_metrics_stretch_intervals_and_shares_at_the_bounds);
	tcase_add_test(tc, test_metrics_lpt_makespan_classic);
	tcase_add_test(tc, test_metrics_lpt_matches_core_faircamp_delta);
	tcase_add_test(tc, test_metrics_cumulative_user_stretch_faircamp);
	tcase_add_test(tc, test_metrics_jain_index);
	tcase_add_test(tc, test_metrics_nuwt_klusacek);
	tcase_add_test(tc, test_metrics_profile_means);
	tcase_add_test(tc, test_metrics_fast_on_250k_jobs);
	tcase_add_test(tc, test_metrics_bounded_campaign_stretch_by_user_group);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
