// Usage-aware OStrich shares (usage_halflife_s): a unit's share of V scaled by its decayed past
// usage against its share, 2^(-usage_weight * usage / share), from the core's own run events; off
// by default; saved and restored with the state.
#include "core_fixtures.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

// A run of `user` on all 4 CPUs over [start_s, end_s].
void ran(CampaignCore &core, uint32_t job_id, uint32_t user, int64_t start_s, int64_t end_s)
{
	ok(core.submit(job(job_id, user, start_s, 4, end_s - start_s), start_s));
	ok(core.start(job_id, start_s));
	ok(core.end(job_id, end_s));
}

// Users 1 and 2 each submit 400 CPU-seconds (jobs 2 and 3) at now_s; ranked then.
Ranking both_submit(CampaignCore &core, int64_t now_s)
{
	ok(core.submit(job(2, 1, now_s, 4, 100), now_s));
	ok(core.submit(job(3, 2, now_s, 4, 100), now_s));
	return core.rank(now_s);
}

// User 1 ran 4 CPUs for 1000 s; then users 1 and 2 each submit 400 CPU-seconds at t = 1000.
Ranking after_history(CampaignCore &core)
{
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ran(core, 1, 1, 0, 1000);
	return both_submit(core, 1000);
}

} // namespace

START_TEST(test_usage_off_by_default_shares_equal)
{
	CampaignCore core = make_core("policy=ostrich");
	const Ranking ranking = after_history(core);
	// Equal shares: 2 CPUs each, 400 / 2 = 200 s.
	expect_near(explain(ranking, 2).key, 1200, "user 1's C~");
	expect_near(explain(ranking, 3).key, 1200, "user 2's C~");
}
END_TEST

// Two units known: share_norm 1/2. User 1 holds all usage: 2^(-1 / 0.5) = 1/4 against user 2's 1,
// so user 1 gets 4 * 0.25 / 1.25 = 0.8 CPUs and user 2 3.2 CPUs: C~ 1000 + 400 / 0.8 = 1500 and
// 1000 + 400 / 3.2 = 1125.
START_TEST(test_past_usage_shrinks_a_units_share)
{
	CampaignCore core = make_core("policy=ostrich,usage_halflife_s=3600");
	const Ranking ranking = after_history(core);
	expect_near(explain(ranking, 2).key, 1500, "user 1's C~");
	expect_near(explain(ranking, 3).key, 1125, "user 2's C~");
	ck_assert_uint_eq(ranking.order.front(), 3);
}
END_TEST

// usage_weight scales the exponent: 0 switches the effect off, 2 gives 2^(-4) = 1/16.
START_TEST(test_usage_weight_scales_the_effect)
{
	CampaignCore none = make_core("policy=ostrich,usage_halflife_s=3600,usage_weight=0");
	expect_near(explain(after_history(none), 2).key, 1200, "weight 0: equal shares");
	CampaignCore strong = make_core("policy=ostrich,usage_halflife_s=3600,usage_weight=2");
	// user 1: 4 * (1/16) / (1 + 1/16) = 0.235294 CPUs -> 400 / 0.235294 = 1700 s.
	expect_near(explain(after_history(strong), 2).key, 2700, "user 1's C~");
}
END_TEST

// Usage decays: user 1 ran at [0, 1000], user 2 the same at [50000, 51000]. With a one-hour
// half-life user 1's run is long forgotten at 51000 and user 2 ranks last; with a ten-year
// half-life the two runs weigh the same and so do the shares.
Ranking after_two_runs(const std::string &parameters)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ran(core, 1, 1, 0, 1000);
	ran(core, 4, 2, 50000, 51000);
	return both_submit(core, 51000);
}

START_TEST(test_usage_decays_with_the_half_life)
{
	const Ranking hour = after_two_runs("policy=ostrich,usage_halflife_s=3600");
	ck_assert_msg(explain(hour, 2).key < explain(hour, 3).key, "user 1 first: %f %f",
	              explain(hour, 2).key, explain(hour, 3).key);
	const Ranking decade = after_two_runs("policy=ostrich,usage_halflife_s=315360000");
	ck_assert_msg(near(explain(decade, 2).key, explain(decade, 3).key, 1.0),
	              "equal usage, equal shares: %f %f", explain(decade, 2).key,
	              explain(decade, 3).key);
}
END_TEST

// A running job counts too, from its start.
START_TEST(test_running_jobs_count_as_usage)
{
	CampaignCore core = make_core("policy=ostrich,usage_halflife_s=3600");
	ok(core.capacity({"p", 8, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 5000), 0));
	ok(core.start(1, 0));
	ok(core.submit(job(2, 1, 1000, 4, 100), 1000));
	ok(core.submit(job(3, 2, 1000, 4, 100), 1000));
	const Ranking ranking = core.rank(1000);
	ck_assert_msg(explain(ranking, 3).key < explain(ranking, 2).key,
	              "user 2 (no usage) before user 1 (running): %f %f", explain(ranking, 3).key,
	              explain(ranking, 2).key);
}
END_TEST

START_TEST(test_usage_survives_save_and_restore)
{
	CampaignCore core = make_core("policy=ostrich,usage_halflife_s=3600");
	const Ranking before = after_history(core);
	const std::string saved = CoreStateCodec::save(core);
	auto restored = CoreStateCodec::load(saved);
	ck_assert_msg(restored.ok(), "%s", restored.ok() ? "" : restored.error().c_str());
	const Ranking after = restored.value().rank(1000);
	expect_near(explain(after, 2).key, explain(before, 2).key, "user 1's C~ after restore");
	expect_near(explain(after, 3).key, explain(before, 3).key, "user 2's C~ after restore");
	const std::string saved_again = CoreStateCodec::save(restored.value());
	ck_assert_str_eq(saved_again.c_str(), saved.c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_usage_shares");
	TCase *tc = tcase_create("usage");
	tcase_add_test(tc, test_usage_off_by_default_shares_equal);
	tcase_add_test(tc, test_past_usage_shrinks_a_units_share);
	tcase_add_test(tc, test_usage_weight_scales_the_effect);
	tcase_add_test(tc, test_usage_decays_with_the_half_life);
	tcase_add_test(tc, test_running_jobs_count_as_usage);
	tcase_add_test(tc, test_usage_survives_save_and_restore);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
