// starve_fair_factor=k: an OStrich pending job that has waited more than k times its campaign's
// fair flow time (completion in V less the campaign's start, at least starve_fair_floor_s) ranks
// first, the most overdue first, at most starve_campaigns of them; only jobs at most
// starve_fair_width of the partition's CPUs. Off, and before the bound, the OStrich order stands.
// The bound is read from the core's own V (the campaign listing), not computed here.
#include "core_fixtures.h"

#include <cmath>

using namespace campaign_test;

namespace
{

// 4 CPUs, nothing started. User 1: 2 CPUs x 2000 s at t = 0 (a late C~). User 2: 4 CPUs x 10 s
// at t = 100 (its C~ is the soonest, so OStrich ranks it first).
CampaignCore two_users(const std::string &parameters)
{
	return core_with_queue(parameters, 4, {job(1, 1, 0, 2, 2000), job(2, 2, 100, 4, 10)});
}

// User 1's campaign's fair flow time: its completion in V less its start, as the core lists it
// (both campaigns are finished in V by then, so it no longer moves).
double fair_flow_of_user_1(int64_t now_s)
{
	const Ranking ranking = two_users("policy=ostrich").rank(now_s);
	for (const CampaignRow &row : ranking.campaigns)
		if (row.uid == 1)
			return static_cast<double>(row.virtual_finish_s.value() - row.submit_s);
	ck_abort_msg("user 1's campaign not listed");
	return 0;
}

std::vector<uint32_t> order_at(const std::string &parameters, int64_t now_s)
{
	return two_users(parameters).rank(now_s).order;
}

} // namespace

START_TEST(test_off_keeps_the_ostrich_order)
{
	const std::vector<uint32_t> order = order_at("policy=ostrich", 100000);
	ck_assert_uint_eq(order.size(), 2);
	ck_assert_uint_eq(order[0], 2);
	ck_assert_uint_eq(order[1], 1);
}
END_TEST

// k = 2: user 1's job (2 CPUs, half the machine) goes first once it has waited 2 x its fair flow,
// not before. User 2's job is 4 CPUs, wider than starve_fair_width=0.5: never guarded.
START_TEST(test_first_once_past_k_times_the_fair_flow)
{
	const double fair_flow_s = fair_flow_of_user_1(10000);
	ck_assert(fair_flow_s > 1000); // 4000 CPU-s, shared with user 2 for a while
	const auto bound_s = static_cast<int64_t>(2 * fair_flow_s);
	const std::string guard = "policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5";
	std::vector<uint32_t> order = order_at(guard, bound_s - 1);
	ck_assert_uint_eq(order[0], 2);
	order = order_at(guard, bound_s + 2);
	ck_assert_uint_eq(order.size(), 2);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 2);
}
END_TEST

// The width limit: at a quarter of the machine user 1's 2-CPU job is not guarded.
START_TEST(test_wider_jobs_are_not_guarded)
{
	const std::vector<uint32_t> order =
	    order_at("policy=ostrich,starve_fair_factor=2,starve_fair_width=0.25", 100000);
	ck_assert_uint_eq(order[0], 2);
}
END_TEST

// The fair flow time is at least starve_fair_floor_s: a floor above the wait keeps the order.
START_TEST(test_the_floor_bounds_the_fair_flow)
{
	const double fair_flow_s = fair_flow_of_user_1(10000);
	const auto now_s = static_cast<int64_t>(std::ceil(3 * fair_flow_s));
	std::vector<uint32_t> order =
	    order_at("policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5", now_s);
	ck_assert_uint_eq(order[0], 1);
	order = order_at("policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5,"
	                 "starve_fair_floor_s=" +
	                     std::to_string(now_s),
	                 now_s);
	ck_assert_uint_eq(order[0], 2);
}
END_TEST

// Both overdue, one place (starve_campaigns=1): the most overdue (wait over fair flow) goes
// first. User 3: 1 CPU x 100 s at t = 200, a fair flow of a few hundred seconds; at 20 x user
// 1's fair flow it has waited far more times its own than user 1 has.
START_TEST(test_most_overdue_first)
{
	const double fair_flow_s = fair_flow_of_user_1(10000);
	const auto now_s = static_cast<int64_t>(20 * fair_flow_s);
	CampaignCore core = two_users("policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5");
	ok(core.submit(job(3, 3, 200, 1, 100), 200));
	const Ranking off_order = [&] {
		CampaignCore plain = two_users("policy=ostrich");
		ok(plain.submit(job(3, 3, 200, 1, 100), 200));
		return plain.rank(now_s);
	}();
	ck_assert_uint_eq(off_order.order.size(), 3);
	ck_assert_uint_eq(off_order.order[2], 1); // OStrich: user 1 last
	const std::vector<uint32_t> order = core.rank(now_s).order;
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order[0], 3); // waited ~200 x its fair flow, user 1 ~20 x
	// Two places: user 1's job next, ahead of user 2's (too wide to be guarded).
	CampaignCore two = two_users(
	    "policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5,starve_campaigns=2");
	ok(two.submit(job(3, 3, 200, 1, 100), 200));
	const std::vector<uint32_t> two_order = two.rank(now_s).order;
	ck_assert_uint_eq(two_order[0], 3);
	ck_assert_uint_eq(two_order[1], 1);
	ck_assert_uint_eq(two_order[2], 2);
}
END_TEST

// A head of max_jobs keeps its length: the guarded job takes the first place.
START_TEST(test_keeps_the_head_length)
{
	CampaignCore core = two_users("policy=ostrich,starve_fair_factor=2,starve_fair_width=0.5");
	const Ranking head = core.rank(100000, CampaignCore::RankScope::jobs_only, 1);
	ck_assert_uint_eq(head.order.size(), 1);
	ck_assert_uint_eq(head.order[0], 1);
	ck_assert_uint_eq(head.explanations.size(), 1);
	ck_assert_uint_eq(head.explanations[0].job_id, 1);
}
END_TEST

// FairCamp has no fluid schedule: the key does not change its order.
START_TEST(test_faircamp_ignores_it)
{
	const std::vector<uint32_t> plain = order_at("policy=faircamp", 100000);
	const std::vector<uint32_t> guarded = order_at(
	    "policy=faircamp,starve_fair_factor=2,starve_fair_width=0.5,starve_campaigns=2",
	    100000);
	ck_assert(plain == guarded);
}
END_TEST

// Bad values are refused, naming the key.
START_TEST(test_bad_values_name_the_key)
{
	for (const char *text :
	     {"starve_fair_factor=-1", "starve_fair_factor=x", "starve_fair_width=0",
	      "starve_fair_width=1.5", "starve_fair_floor_s=0"}) {
		auto core = CampaignCore::create(text);
		ck_assert_msg(!core.ok(), "%s accepted", text);
		const std::string key = std::string(text).substr(0, std::string(text).find('='));
		ck_assert_msg(core.error().find(key) != std::string::npos, "%s: %s", text,
		              core.error().c_str());
	}
	auto core = CampaignCore::create("starve_fair_factor=30,starve_fair_width=0.1,"
	                                 "starve_fair_floor_s=60");
	ck_assert_msg(core.ok(), "%s", core.ok() ? "" : core.error().c_str());
	ck_assert(core.value().config().starve_fair_factor == 30);
	ck_assert(core.value().config().starve_fair_width == 0.1);
	ck_assert_int_eq(core.value().config().starve_fair_floor_s, 60);
	ck_assert(core.value().config().moves_jobs());
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_fair_guard");
	TCase *tc = tcase_create("fair_guard");
	tcase_add_test(tc, test_off_keeps_the_ostrich_order);
	tcase_add_test(tc, test_first_once_past_k_times_the_fair_flow);
	tcase_add_test(tc, test_wider_jobs_are_not_guarded);
	tcase_add_test(tc, test_the_floor_bounds_the_fair_flow);
	tcase_add_test(tc, test_most_overdue_first);
	tcase_add_test(tc, test_keeps_the_head_length);
	tcase_add_test(tc, test_faircamp_ignores_it);
	tcase_add_test(tc, test_bad_values_name_the_key);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
