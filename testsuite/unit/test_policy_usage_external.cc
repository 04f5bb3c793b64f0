// Usage-aware OStrich shares fed from outside (set_user_usage, set_account_usage), as
// priority/campaign feeds each association's RawUsage: the order follows the given usage in the
// direction the man page states (more usage, a smaller share, a later key), the core's own
// accrual is ignored once any usage was given, and the given usage is not saved in the state.
#include "core_fixtures.h"
#include "state/core_state_json.h"

#include <limits>

using namespace campaign_test;

namespace
{

constexpr const char *kUsageShares = "policy=ostrich,usage_halflife_s=3600";

// User 1 ran 4 CPUs for 1000 s (the core's own accrual holds it); then users 1 and 2 each submit
// 400 CPU-seconds (jobs 2 and 3) at t = 1000.
void history_then_both_submit(CampaignCore &core)
{
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 1000), 0));
	ok(core.start(1, 0));
	ok(core.end(1, 1000));
	ok(core.submit(job(2, 1, 1000, 4, 100), 1000));
	ok(core.submit(job(3, 2, 1000, 4, 100), 1000));
}

} // namespace

// User 1 submits 400 CPU-seconds at 0, user 2 the same at 10; both given no usage, user 1 leads
// (V ran it alone for 10 s: 360 left at 2 CPUs, key 190; user 2 400 at 2 CPUs, key 210). At 20
// (340 and 380 left) user 1's given usage rises to 1000: share_norm 1/2, all the usage user 1's,
// so 2^(-1 / 0.5) = 1/4 against 1, 0.8 CPUs against 3.2: user 1's key 20 + 340 / 0.8 = 445, user
// 2's 20 + 380 / 3.2 = 138.75, and user 2 now leads though it came later.
START_TEST(test_rising_given_usage_moves_a_unit_back)
{
	CampaignCore core = make_core(kUsageShares);
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(2, 1, 0, 4, 100), 0));
	ok(core.submit(job(3, 2, 10, 4, 100), 10));
	ok(core.set_user_usage(1, 0, 10));
	ok(core.set_user_usage(2, 0, 10));
	const Ranking before = core.rank(10);
	expect_near(explain(before, 2).key, 190, "user 1's C~, no usage");
	expect_near(explain(before, 3).key, 210, "user 2's C~, no usage");
	ck_assert_uint_eq(before.order.front(), 2);

	ok(core.set_user_usage(1, 1000, 20));
	const Ranking after = core.rank(20);
	expect_near(explain(after, 2).key, 445, "user 1's C~ with usage");
	expect_near(explain(after, 3).key, 138.75, "user 2's C~");
	ck_assert_uint_eq(after.order.front(), 3);
}
END_TEST

// The core's own accrual would give user 1 a quarter of user 2's share (keys 1500 and 1125, as
// in test_policy_usage_shares). Once usage is given, only the given usage counts: user 2 given
// none and user 1 never given count alike (equal shares, both 1200), and user 2 given more than
// user 1 turns the own accrual's order around.
START_TEST(test_own_accrual_ignored_once_usage_is_given)
{
	CampaignCore own = make_core(kUsageShares);
	history_then_both_submit(own);
	const Ranking by_own = own.rank(1000);
	expect_near(explain(by_own, 2).key, 1500, "own accrual: user 1's C~");
	expect_near(explain(by_own, 3).key, 1125, "own accrual: user 2's C~");

	CampaignCore given = make_core(kUsageShares);
	history_then_both_submit(given);
	ok(given.set_user_usage(2, 0, 1000));
	const Ranking none = given.rank(1000);
	expect_near(explain(none, 2).key, 1200, "given: user 1's C~");
	expect_near(explain(none, 3).key, 1200, "given: user 2's C~");

	ok(given.set_user_usage(2, 5000, 1000));
	const Ranking reversed = given.rank(1000);
	expect_near(explain(reversed, 2).key, 1125, "given: user 1's C~");
	expect_near(explain(reversed, 3).key, 1500, "given: user 2's C~ with usage");
	ck_assert_uint_eq(reversed.order.front(), 2);
}
END_TEST

// A running job adds nothing either once usage is given (the source's usage counts it already):
// user 1 running and given no usage ranks as with usage shares off, where the own accrual alone
// would push user 1's campaign later.
namespace
{

Ranking running_then_both_submit(const std::string &parameters, bool give_usage)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 8, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 5000), 0));
	ok(core.start(1, 0));
	ok(core.submit(job(2, 1, 1000, 4, 100), 1000));
	ok(core.submit(job(3, 2, 1000, 4, 100), 1000));
	if (give_usage)
		ok(core.set_user_usage(1, 0, 1000));
	return core.rank(1000);
}

} // namespace

START_TEST(test_running_jobs_not_added_to_given_usage)
{
	const Ranking off = running_then_both_submit("policy=ostrich", false);
	const Ranking own = running_then_both_submit(kUsageShares, false);
	const Ranking given = running_then_both_submit(kUsageShares, true);
	ck_assert_msg(explain(own, 2).key > explain(off, 2).key + 1,
	              "own accrual counts the running job: %f against %f", explain(own, 2).key,
	              explain(off, 2).key);
	expect_near(explain(given, 2).key, explain(off, 2).key, "given none: user 1's C~");
	expect_near(explain(given, 3).key, explain(off, 3).key, "given none: user 2's C~");
}
END_TEST

// unit=account: accounts are given usage (users 1 and 2 are in acct1 and acct2); users are not.
START_TEST(test_account_usage_with_unit_account)
{
	CampaignCore core = make_core("policy=ostrich,unit=account,usage_halflife_s=3600");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(2, 1, 0, 4, 100), 0));
	ok(core.submit(job(3, 2, 0, 4, 100), 0));
	ok(core.set_account_usage("acct1", 1000, 0));
	ck_assert(!core.set_user_usage(1, 1000, 0).ok());
	const Ranking ranking = core.rank(0);
	expect_near(explain(ranking, 2).key, 500, "acct1's C~ (0.8 CPUs)");
	expect_near(explain(ranking, 3).key, 125, "acct2's C~ (3.2 CPUs)");
	CampaignCore by_user = make_core(kUsageShares);
	ck_assert(!by_user.set_account_usage("acct1", 1000, 0).ok());
}
END_TEST

START_TEST(test_negative_or_nan_usage_refused)
{
	CampaignCore core = make_core(kUsageShares);
	ck_assert(!core.set_user_usage(1, -1, 0).ok());
	ck_assert(!core.set_user_usage(1, std::numeric_limits<double>::quiet_NaN(), 0).ok());
	ck_assert(!core.set_user_usage(1, std::numeric_limits<double>::infinity(), 0).ok());
	ok(core.set_user_usage(1, 0, 0));
}
END_TEST

// The host gives its usage again before every ranking, so the state file leaves it out: the
// saved text is the same with or without it, and a restored core ranks on its own accrual until
// it is given usage again.
START_TEST(test_given_usage_not_saved)
{
	CampaignCore plain = make_core(kUsageShares);
	history_then_both_submit(plain);
	CampaignCore given = make_core(kUsageShares);
	history_then_both_submit(given);
	ok(given.set_user_usage(2, 0, 1000));
	const std::string saved = CoreStateCodec::save(given);
	// Named: ck_assert_str_eq keeps the pointer past the statement that made a temporary.
	const std::string saved_plain = CoreStateCodec::save(plain);
	ck_assert_str_eq(saved.c_str(), saved_plain.c_str());
	auto restored = CoreStateCodec::load(saved);
	ck_assert_msg(restored.ok(), "%s", restored.ok() ? "" : restored.error().c_str());
	const Ranking by_own = restored.value().rank(1000);
	expect_near(explain(by_own, 2).key, 1500, "restored, own accrual: user 1's C~");
	ok(restored.value().set_user_usage(2, 0, 1000));
	expect_near(explain(restored.value().rank(1000), 2).key, 1200, "given again: user 1's C~");
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_usage_external");
	TCase *tc = tcase_create("external");
	tcase_add_test(tc, test_rising_given_usage_moves_a_unit_back);
	tcase_add_test(tc, test_own_accrual_ignored_once_usage_is_given);
	tcase_add_test(tc, test_running_jobs_not_added_to_given_usage);
	tcase_add_test(tc, test_account_usage_with_unit_account);
	tcase_add_test(tc, test_negative_or_nan_usage_refused);
	tcase_add_test(tc, test_given_usage_not_saved);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
