// work_estimate=recent: OStrich counts a job's work from recent run times as fractions of the
// limit (its user's last two, or all users' moving average for a newcomer; at least a minute or
// work_estimate_floor_s, at most the limit) instead of its limit; by default only for users whose
// runs used less than a tenth of their limits (work_estimate_below=0.1); saved and restored with
// the state.
#include "core_fixtures.h"
#include "policy/runtime_predictor.h"
#include "state/core_state_json.h"

using namespace campaign_test;

START_TEST(test_predictor_mean_of_last_two_runs)
{
	RuntimePredictor predictor;
	ck_assert_int_eq(predictor.predict(7, 3600), 3600); // no run yet: the limit
	predictor.record(7, 300, 3600);                     // 1/12 of its limit
	ck_assert_int_eq(predictor.predict(7, 3600), 300);
	ck_assert_int_eq(predictor.predict(7, 1200), 100); // the fraction, of this job's limit
	predictor.record(7, 1800, 3600);
	ck_assert_int_eq(predictor.predict(7, 3600), 1050); // (1/12 + 1/2) / 2
	predictor.record(7, 900, 3600);                     // the oldest run drops out
	ck_assert_int_eq(predictor.predict(7, 3600), 1350); // (1/2 + 1/4) / 2
	predictor.record(7, 9000, 3600);                    // over its limit: counts as the limit
	ck_assert_int_eq(predictor.predict(7, 3600), 2250); // (1/4 + 1) / 2
}
END_TEST

// A user with no run yet gets the moving average over every user's runs, not the full limit.
START_TEST(test_predictor_newcomer_gets_all_users_fraction)
{
	RuntimePredictor predictor;
	double all_users = 1;
	for (int run = 0; run < 200; run++) {
		predictor.record(1 + run % 5, 360, 3600);
		all_users += RuntimePredictor::kAllUsersWeight * (0.1 - all_users);
	}
	ck_assert_double_eq_tol(predictor.all_users_fraction(), all_users, 1e-12);
	ck_assert(all_users < 0.12);
	const int64_t newcomer = predictor.predict(99, 36000);
	ck_assert_msg(newcomer >= 3600 && newcomer <= 3600 * 1.2, "newcomer %lld",
	              (long long)newcomer);
}
END_TEST

START_TEST(test_predictor_floor_of_a_minute)
{
	RuntimePredictor predictor;
	predictor.record(1, 0, 3600);
	predictor.record(1, 4, 3600);
	ck_assert_int_eq(predictor.predict(1, 3600), RuntimePredictor::kFloorS);
	ck_assert_int_eq(predictor.predict(1, 30), 30); // a limit below the floor still caps
}
END_TEST

// work_estimate_floor_s: the floor as given (10 s, bounded stretch's tau), not a minute.
START_TEST(test_predictor_floor_as_given)
{
	RuntimePredictor predictor(10);
	predictor.record(1, 0, 3600);
	predictor.record(1, 4, 3600);
	ck_assert_int_eq(predictor.predict(1, 3600), 10);
	ck_assert_int_eq(predictor.predict(1, 5), 5); // a limit below the floor still caps
	predictor.record(1, 72, 3600);                // (4 + 72) / 2 s of 3600: 38 s
	ck_assert_int_eq(predictor.predict(1, 3600), 38);
}
END_TEST

namespace
{

// On 4 CPUs user 1 ran one 10 s job with a one-hour limit; at t = 100 user 1 submits 4 CPUs with a
// one-hour limit (job 2) and user 2 4 CPUs with a 10-minute limit (job 3).
Ranking short_runs_long_limits(CampaignCore &core)
{
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 3600), 0));
	ok(core.start(1, 0));
	ok(core.end(1, 10));
	ok(core.submit(job(2, 1, 100, 4, 3600), 100));
	ok(core.submit(job(3, 2, 100, 4, 600), 100));
	return core.rank(100);
}

} // namespace

// By limits user 2 comes first: 2400 / 2 CPUs = 1200 s against 14400 / 2 = 7200 s.
START_TEST(test_limits_with_work_estimate_limit)
{
	CampaignCore core = make_core("policy=ostrich,work_estimate=limit");
	const Ranking ranking = short_runs_long_limits(core);
	expect_near(explain(ranking, 2).key, 100 + 7200, "user 1's C~");
	expect_near(explain(ranking, 3).key, 100 + 1200, "user 2's C~");
	ck_assert_uint_eq(ranking.order.front(), 3);
}
END_TEST

// By recent runs user 1's job counts a minute (the floor over 10 s): 240 / 2 = 120 s. User 2 has
// no run yet: the all-users fraction after one run of 10 / 3600, 1 - 0.02 (1 - 1/360), of 600 s
// is 589 s (rounded up), 4 CPUs, 2 CPUs each: 1178 s.
START_TEST(test_recent_runs_count_instead_of_limits)
{
	CampaignCore core = make_core("policy=ostrich,work_estimate=recent,work_estimate_below=1");
	const Ranking ranking = short_runs_long_limits(core);
	expect_near(explain(ranking, 2).key, 100 + 120, "user 1's C~");
	expect_near(explain(ranking, 3).key, 100 + 1178, "user 2's C~");
	ck_assert_uint_eq(ranking.order.front(), 2);
}
END_TEST

// With work_estimate_floor_s=10 user 1's job counts 10 s, its run, not the minute: 40 / 2 = 20 s.
// User 2's estimate (589 s) is above either floor and does not move.
START_TEST(test_recent_runs_with_a_floor_of_tau)
{
	CampaignCore core = make_core(
	    "policy=ostrich,work_estimate=recent,work_estimate_below=1,work_estimate_floor_s=10");
	const Ranking ranking = short_runs_long_limits(core);
	expect_near(explain(ranking, 2).key, 100 + 20, "user 1's C~");
	expect_near(explain(ranking, 3).key, 100 + 1178, "user 2's C~");
	ck_assert_int_eq(core.expected_run_s(2), 10);
}
END_TEST

// work_estimate_below, given and as the default (work_estimate=recent, work_estimate_below=0.1):
// user 1's runs used 10 / 3600 of their limits, under 0.1: predicted, a minute (120 s in V).
// User 2 has no run yet and gets the all-users fraction (0.98), not under 0.1: its limit counts
// (600 s x 4 CPUs / 2 = 1200 s).
START_TEST(test_prediction_only_far_below_the_limits)
{
	for (const char *parameters :
	     {"policy=ostrich,work_estimate=recent,work_estimate_below=0.1", "policy=ostrich"}) {
		CampaignCore core = make_core(parameters);
		const Ranking ranking = short_runs_long_limits(core);
		expect_near(explain(ranking, 2).key, 100 + 120, "user 1's C~");
		expect_near(explain(ranking, 3).key, 100 + 1200, "user 2's C~");
		ck_assert_uint_eq(ranking.order.front(), 2);
	}
	// At 0.99 the all-users fraction is under it as well: both predicted, as with 1.
	CampaignCore every =
	    make_core("policy=ostrich,work_estimate=recent,work_estimate_below=0.99");
	expect_near(explain(short_runs_long_limits(every), 3).key, 100 + 1178,
	            "user 2's C~ at 0.99");
}
END_TEST

// A job that runs longer than predicted is corrected at its end: the predictor then holds its run,
// and the user's next job counts the mean of 10 / 3600 and 1800 / 3600 of its limit, 905 s.
START_TEST(test_work_corrected_at_the_end)
{
	CampaignCore core = make_core("policy=ostrich,work_estimate=recent,work_estimate_below=1");
	short_runs_long_limits(core);
	ok(core.start(2, 100));
	ok(core.end(2, 1900));                           // ran 1800 s, predicted 60
	ok(core.submit(job(4, 1, 1901, 4, 3600), 1901)); // a new campaign (threshold 0)
	const Ranking ranking = core.rank(1901);
	const double work = explain(ranking, 4).remaining_work_cpu_s;
	ck_assert_msg(work >= 905 * 4 && work <= 906 * 4, "job 4's campaign's work %f", work);
}
END_TEST

// Pending jobs count a new estimate once a run of their user ends: the campaign shrinks at once,
// not only as each of its jobs starts.
START_TEST(test_pending_jobs_re_estimated_when_a_run_ends)
{
	CampaignCore core = make_core("policy=ostrich,work_estimate=recent");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	for (uint32_t id = 1; id <= 3; id++)
		ok(core.submit(job(id, 1, 0, 4, 3600), 0));
	ok(core.submit(job(4, 2, 0, 4, 600), 0));
	ok(core.start(1, 0));
	const double before = explain(core.rank(5), 2).remaining_work_cpu_s;
	ck_assert_msg(before > 2 * 3600 * 4, "jobs 2 and 3 count their limits first: %f", before);
	ok(core.end(1, 10));
	// Jobs 2 and 3 now count a minute each (10 / 3600 of the limit, raised to the floor), job 1
	// its 10 s, less the 20 CPU-seconds V gave the campaign (2 CPUs for 10 s): 480 + 40 - 20.
	expect_near(explain(core.rank(10), 2).remaining_work_cpu_s, 500, "the campaign's work now");
}
END_TEST

START_TEST(test_recent_runs_survive_save_and_restore)
{
	CampaignCore core = make_core("policy=ostrich,work_estimate=recent");
	const Ranking before = short_runs_long_limits(core);
	const std::string saved = CoreStateCodec::save(core);
	auto restored = CoreStateCodec::load(saved);
	ck_assert_msg(restored.ok(), "%s", restored.ok() ? "" : restored.error().c_str());
	const std::string saved_again = CoreStateCodec::save(restored.value());
	ck_assert_str_eq(saved_again.c_str(), saved.c_str());
	ck_assert_msg(saved.find("\"recent_runs\":[[1,") != std::string::npos, "%s", saved.c_str());
	expect_near(explain(restored.value().rank(100), 2).key, explain(before, 2).key,
	            "user 1's C~ after restore");
	// Job 5 joins user 1's campaign with a minute of work as well: 480 / 2 CPUs.
	ok(restored.value().submit(job(5, 1, 100, 4, 3600), 100));
	expect_near(explain(restored.value().rank(100), 5).key, 100 + 240,
	            "user 1's C~ with job 5");
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_work_estimate");
	TCase *tc = tcase_create("work_estimate");
	tcase_add_test(tc, test_predictor_mean_of_last_two_runs);
	tcase_add_test(tc, test_predictor_newcomer_gets_all_users_fraction);
	tcase_add_test(tc, test_predictor_floor_of_a_minute);
	tcase_add_test(tc, test_predictor_floor_as_given);
	tcase_add_test(tc, test_recent_runs_with_a_floor_of_tau);
	tcase_add_test(tc, test_prediction_only_far_below_the_limits);
	tcase_add_test(tc, test_limits_with_work_estimate_limit);
	tcase_add_test(tc, test_recent_runs_count_instead_of_limits);
	tcase_add_test(tc, test_work_corrected_at_the_end);
	tcase_add_test(tc, test_pending_jobs_re_estimated_when_a_run_ends);
	tcase_add_test(tc, test_recent_runs_survive_save_and_restore);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
