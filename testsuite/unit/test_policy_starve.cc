// starve_after_s: a campaign whose oldest pending job has been eligible at least that long ranks
// ahead of every campaign that is not starved, the longest-starved first, at most
// starve_campaigns of them (default 1); before that, and with the key off, the policy's own order
// stands.
#include "core_fixtures.h"

using namespace campaign_test;

namespace
{

// 4 CPUs, nothing started. User 1: 4 CPUs x 1000 s at t = 0. User 3: 4 CPUs x 2000 s at t = 50.
// User 2: 4 CPUs x 10 s at t = 400 (its C~ is the soonest: a few seconds of work).
CampaignCore three_users(const std::string &parameters)
{
	return core_with_queue(
	    parameters, 4, {job(1, 1, 0, 4, 1000), job(3, 3, 50, 4, 2000), job(2, 2, 400, 4, 10)});
}

std::vector<uint32_t> order_at(const std::string &parameters, int64_t now_s)
{
	return three_users(parameters).rank(now_s).order;
}

} // namespace

START_TEST(test_off_keeps_the_ostrich_order)
{
	const std::vector<uint32_t> order = order_at("policy=ostrich", 600);
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order.front(), 2); // the light job's C~ is the soonest
}
END_TEST

START_TEST(test_starved_campaigns_rank_first_oldest_first)
{
	// At 600 with 500: user 1 (eligible since 0) and user 3 (since 50) are starved, user 2
	// (since 400) is not.
	const std::vector<uint32_t> order =
	    order_at("policy=ostrich,starve_after_s=500,starve_campaigns=2", 600);
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 3);
	ck_assert_uint_eq(order[2], 2);
}
END_TEST

START_TEST(test_not_before_the_time)
{
	// At 520 only user 1 has waited 500 s.
	std::vector<uint32_t> order = order_at("policy=ostrich,starve_after_s=500", 520);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 2);
	// At 499 nobody has: the OStrich order.
	order = order_at("policy=ostrich,starve_after_s=500", 499);
	ck_assert_uint_eq(order.front(), 2);
}
END_TEST

// By default only the longest-starved campaign goes first; user 3, starved too, keeps its OStrich
// place behind user 2.
START_TEST(test_one_starved_campaign_by_default)
{
	const std::vector<uint32_t> order = order_at("policy=ostrich,starve_after_s=500", 600);
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 2);
	ck_assert_uint_eq(order[2], 3);
}
END_TEST

// A campaign's jobs that run are not waiting: only pending jobs make it starved.
START_TEST(test_running_jobs_do_not_count)
{
	CampaignCore core = three_users("policy=ostrich,starve_after_s=500");
	ok(core.start(1, 450));
	ok(core.submit(job(4, 1, 460, 4, 1000), 460)); // joins user 1's running campaign
	const std::vector<uint32_t> order = core.rank(600).order;
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order[0], 3); // starved since 50; user 1's pending job waits since 460
}
END_TEST

START_TEST(test_faircamp_too)
{
	const std::vector<uint32_t> order =
	    order_at("policy=faircamp,starve_after_s=500,starve_campaigns=2", 600);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 3);
	ck_assert_uint_eq(order[2], 2);
}
END_TEST

// starve_scope=job: only the starved job goes first; its campaign's other jobs keep their place.
START_TEST(test_job_scope_moves_the_job_alone)
{
	CampaignCore core = three_users("policy=ostrich,starve_after_s=500,starve_scope=job");
	ok(core.submit(job(5, 3, 550, 4, 3000), 550)); // joins user 3's campaign, waits 50 s
	const std::vector<uint32_t> order = core.rank(600).order;
	ck_assert_uint_eq(order.size(), 4);
	ck_assert_uint_eq(order[0], 1); // waited 600 s
	ck_assert_uint_eq(order[1], 2); // then OStrich's order: user 2's C~ first
	// user 3's campaign (jobs 5 and 3, LPT) last
	ck_assert_uint_eq(order[2], 5);
	ck_assert_uint_eq(order[3], 3);
	// Two starved jobs: the one waiting longest first, then the next.
	const std::vector<uint32_t> two =
	    three_users("policy=ostrich,starve_after_s=500,starve_scope=job,starve_campaigns=2")
	        .rank(600)
	        .order;
	ck_assert_uint_eq(two[0], 1);
	ck_assert_uint_eq(two[1], 3);
	ck_assert_uint_eq(two[2], 2);
}
END_TEST

// A head of max_jobs keeps its length: the starved job takes the first place, the last drops.
START_TEST(test_job_scope_keeps_the_head_length)
{
	CampaignCore core = three_users("policy=ostrich,starve_after_s=500,starve_scope=job");
	const Ranking head = core.rank(600, CampaignCore::RankScope::jobs_only, 1);
	ck_assert_uint_eq(head.order.size(), 1);
	ck_assert_uint_eq(head.order[0], 1);
	ck_assert_uint_eq(head.explanations.size(), 1);
	ck_assert_uint_eq(head.explanations[0].job_id, 1);
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_starve");
	TCase *tc = tcase_create("starve");
	tcase_add_test(tc, test_off_keeps_the_ostrich_order);
	tcase_add_test(tc, test_starved_campaigns_rank_first_oldest_first);
	tcase_add_test(tc, test_not_before_the_time);
	tcase_add_test(tc, test_one_starved_campaign_by_default);
	tcase_add_test(tc, test_running_jobs_do_not_count);
	tcase_add_test(tc, test_faircamp_too);
	tcase_add_test(tc, test_job_scope_moves_the_job_alone);
	tcase_add_test(tc, test_job_scope_keeps_the_head_length);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
