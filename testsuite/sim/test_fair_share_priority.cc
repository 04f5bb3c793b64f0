// The Slurm-style fair-share baselines: usage decay, the classic and Fair Tree factors
// (slurm.schedmd.com classic_fair_share.html, fair_tree.html), the age factor, passes and ties.
#include "check_main.h"

#include "engine/fair_share_priority.h"

#include <chrono>
#include <cmath>

using namespace campaign::sim;

namespace
{

SimJob job_of(uint32_t user, uint32_t group = 0, uint32_t cpus = 1)
{
	SimJob job;
	job.user = user;
	job.group = group;
	job.cpus = cpus;
	return job;
}

FairShareOptions every_rank(FairShareVariant variant)
{
	FairShareOptions options;
	options.variant = variant;
	options.calc_period_s = 0; // a pass at every rank: factors as of the rank's instant
	return options;
}

void ok(const campaign::Status &status)
{
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
}

std::vector<uint32_t> ranked(FairSharePriority &source, int64_t now_s)
{
	const auto ranking = source.rank(now_s);
	ck_assert_msg(ranking.ok(), "%s", ranking.ok() ? "" : ranking.error().c_str());
	return ranking.value();
}

// Runs `cpus` CPUs of `user` (in `group`) as job `job` over [from_s, to_s].
void run(FairSharePriority &source, uint32_t job, uint32_t user, uint32_t group, uint32_t cpus,
         int64_t from_s, int64_t to_s)
{
	ok(source.submit(job, job_of(user, group, cpus), from_s));
	ok(source.start(job, from_s));
	ok(source.end(job, to_s));
}

bool equal_order(const std::vector<uint32_t> &actual, const std::vector<uint32_t> &expected)
{
	return actual == expected;
}

} // namespace

START_TEST(test_fair_share_more_decayed_usage_ranks_lower)
{
	for (FairShareVariant variant : {FairShareVariant::classic, FairShareVariant::fair_tree}) {
		FairSharePriority source(every_rank(variant));
		run(source, 0, 1, 0, 4, 0, 1000); // user 1: 4000 CPU-s
		run(source, 1, 2, 0, 1, 0, 1000); // user 2: 1000 CPU-s
		ok(source.submit(2, job_of(1), 1000));
		ok(source.submit(3, job_of(2), 1000));
		ck_assert(equal_order(ranked(source, 1000), {3, 2}));
		ck_assert(source.fair_share_factor_of(3) > source.fair_share_factor_of(2));
		ck_assert(source.usage_cpu_s(1, 1000) > source.usage_cpu_s(2, 1000));
	}
}
END_TEST

START_TEST(test_usage_halves_after_exactly_one_half_life)
{
	FairShareOptions options = every_rank(FairShareVariant::classic);
	options.half_life_s = 3600;
	FairSharePriority source(options);
	run(source, 0, 1, 0, 2, 0, 600);
	// 2 CPUs for 600 s, decaying meanwhile: 2 * (1 - 2^(-600/3600)) * 3600 / ln 2
	const double accrued = 2 * (1 - std::exp2(-600.0 / 3600)) * 3600 / std::log(2.0);
	const double at_end = source.usage_cpu_s(1, 600);
	ck_assert(std::fabs(at_end - accrued) < 1e-9);
	ck_assert(at_end < 1200 && at_end > 1100);
	ck_assert(source.usage_cpu_s(1, 600 + 3600) == at_end / 2); // exactly half
	ck_assert(source.usage_cpu_s(1, 600 + 7200) == at_end / 4);
	ranked(source, 600 + 3600); // a pass catches usage up the same way
	ck_assert(source.usage_cpu_s(1, 600 + 3600) == at_end / 2);

	options.half_life_s = 0; // no decay: plain CPU-seconds
	FairSharePriority no_decay(options);
	run(no_decay, 0, 1, 0, 2, 0, 600);
	ck_assert(no_decay.usage_cpu_s(1, 100000) == 1200);
}
END_TEST

START_TEST(test_age_factor_grows_then_caps_at_max_age)
{
	FairShareOptions options = every_rank(FairShareVariant::fair_tree);
	options.max_age_s = 1000;
	FairSharePriority source(options);
	ok(source.submit(0, job_of(1), 0));
	// one user, no usage: F = 1 -> 10000; age 500 / 1000 of weight 1000 -> 500
	ranked(source, 500);
	ck_assert(source.priority_of(0) == 10500);
	ranked(source, 1000);
	ck_assert(source.priority_of(0) == 11000);
	ranked(source, 50000); // capped at PriorityMaxAge
	ck_assert(source.priority_of(0) == 11000);
}
END_TEST

START_TEST(test_classic_two_users_factor_by_hand)
{
	// Users 1 and 2 run 3 and 1 CPUs over the same interval: U1 = 3/4, U2 = 1/4 whatever the
	// decay; S = 1/2 each. F = 2^(-U/S) (classic_fair_share.html):
	// F1 = 2^(-1.5) = 0.35355339..., F2 = 2^(-0.5) = 0.70710678...
	// priority = floor(10000 F): 3535 and 7071.
	FairSharePriority source(every_rank(FairShareVariant::classic));
	run(source, 0, 1, 0, 3, 0, 100);
	run(source, 1, 2, 0, 1, 0, 100);
	ok(source.submit(2, job_of(1), 100));
	ok(source.submit(3, job_of(2), 100));
	ck_assert(equal_order(ranked(source, 100), {3, 2}));
	ck_assert(std::fabs(source.fair_share_factor_of(2) - 0.3535533905932738) < 1e-12);
	ck_assert(std::fabs(source.fair_share_factor_of(3) - 0.7071067811865476) < 1e-12);
	ck_assert(source.priority_of(2) == 3535);
	ck_assert(source.priority_of(3) == 7071);
}
END_TEST

START_TEST(test_classic_three_users_thesis_example)
{
	// Pinheiro's thesis, Fig. 2.14: of 3 users, the one that used everything has
	// F = 2^(-1/(1/3)) = 0.125; the others F = 1.
	FairSharePriority source(every_rank(FairShareVariant::classic));
	run(source, 0, 1, 0, 1, 0, 120);
	ok(source.submit(1, job_of(1), 120));
	ok(source.submit(2, job_of(2), 120));
	ok(source.submit(3, job_of(3), 120));
	ck_assert(equal_order(ranked(source, 120), {2, 3, 1}));
	ck_assert(std::fabs(source.fair_share_factor_of(1) - 0.125) < 1e-12);
	ck_assert(source.fair_share_factor_of(2) == 1);
	ck_assert(source.fair_share_factor_of(3) == 1);
}
END_TEST

START_TEST(test_fair_tree_ranks_accounts_first_then_users)
{
	// Account 10: users 1 (ran 2 CPUs) and 2 (no usage); account 20: user 3 (ran 1 CPU), all
	// over the same interval. Usage 2:0:1; accounts 10 and 20 have 2/3 and 1/3 of it.
	// Fair Tree (fair_tree.html): LF(acct 10) = 0.5 / (2/3) = 0.75 < LF(acct 20) = 0.5 / (1/3)
	// = 1.5, so user 3 ranks first (rank 3, F = 1); inside account 10, user 2 (LF infinite,
	// F = 2/3) then user 1 (LF = 0.5 / 1, F = 1/3).
	// Classic, S = 1/3: F1 = 2^(-2) = 0.25, F2 = 1, F3 = 2^(-1) = 0.5: user 2 before user 3.
	for (FairShareVariant variant : {FairShareVariant::fair_tree, FairShareVariant::classic}) {
		FairSharePriority source(every_rank(variant));
		run(source, 0, 1, 10, 2, 0, 100);
		run(source, 1, 3, 20, 1, 0, 100);
		ok(source.submit(2, job_of(1, 10), 100));
		ok(source.submit(3, job_of(2, 10), 100));
		ok(source.submit(4, job_of(3, 20), 100));
		const std::vector<uint32_t> order = ranked(source, 100);
		if (variant == FairShareVariant::fair_tree) {
			ck_assert(equal_order(order, {4, 3, 2}));
			ck_assert(source.fair_share_factor_of(4) == 1);
			ck_assert(std::fabs(source.fair_share_factor_of(3) - 2.0 / 3) < 1e-12);
			ck_assert(std::fabs(source.fair_share_factor_of(2) - 1.0 / 3) < 1e-12);
		} else {
			ck_assert(equal_order(order, {3, 4, 2}));
			ck_assert(std::fabs(source.fair_share_factor_of(2) - 0.25) < 1e-12);
			ck_assert(std::fabs(source.fair_share_factor_of(4) - 0.5) < 1e-12);
		}
	}
}
END_TEST

START_TEST(test_fair_tree_ties_share_ranks_and_merge_accounts)
{
	// Accounts 10 (users 1, 2) and 20 (users 3, 4); users 1 and 3 ran 1 CPU each over the same
	// interval. Both accounts have LF = 0.5 / 0.5 = 1: tied, so their users are merged
	// (fair_tree.html, "Ties"). Users 2 and 4 (LF infinite) tie at rank 4, F = 4/4; users 1
	// and 3 (LF 0.5) tie at rank 2, F = 2/4. Without the merge account 10's users would
	// take ranks 4 and 3, account 20's 2 and 1.
	FairSharePriority source(every_rank(FairShareVariant::fair_tree));
	run(source, 0, 1, 10, 1, 0, 100);
	run(source, 1, 3, 20, 1, 0, 100);
	ok(source.submit(2, job_of(1, 10), 100));
	ok(source.submit(3, job_of(2, 10), 100));
	ok(source.submit(4, job_of(3, 20), 100));
	ok(source.submit(5, job_of(4, 20), 100));
	ck_assert(equal_order(ranked(source, 100), {3, 5, 2, 4}));
	ck_assert(source.fair_share_factor_of(3) == 1);
	ck_assert(source.fair_share_factor_of(5) == 1);
	ck_assert(source.fair_share_factor_of(2) == 0.5);
	ck_assert(source.fair_share_factor_of(4) == 0.5);
}
END_TEST

START_TEST(test_factors_refresh_only_every_calc_period)
{
	FairShareOptions options; // Fair Tree, PriorityCalcPeriod = 300 s
	FairSharePriority source(options);
	ok(source.submit(0, job_of(1, 0, 8), 0));
	ok(source.submit(1, job_of(1), 0));
	ok(source.submit(2, job_of(2), 0));
	ck_assert(equal_order(ranked(source, 0), {0, 1, 2})); // no usage yet: all F = 1
	ok(source.start(0, 0));                               // user 1 now accrues usage
	ck_assert(equal_order(ranked(source, 100), {1, 2}));  // factors of the pass at t = 0
	ok(source.submit(3, job_of(2), 200)); // priority at submission: last pass' F, age 0
	ck_assert(source.priority_of(3) == 10000);
	ck_assert(equal_order(ranked(source, 200), {1, 2, 3}));
	// the pass at t = 300: user 1 (usage) F = 1/2, user 2 (none) F = 1
	ck_assert(equal_order(ranked(source, 300), {2, 3, 1}));
	ck_assert(source.fair_share_factor_of(1) == 0.5);
}
END_TEST

START_TEST(test_ties_break_by_submit_time_then_job_index)
{
	FairShareOptions options;
	options.calc_period_s = 3600;
	FairSharePriority source(options);
	ok(source.submit(5, job_of(1), 0));
	ck_assert(equal_order(ranked(source, 0), {5}));
	ok(source.submit(4, job_of(1), 10)); // same priority (age frozen until the next pass)
	ok(source.submit(3, job_of(1), 10));
	ck_assert(source.priority_of(5) == source.priority_of(3));
	ck_assert(equal_order(ranked(source, 10), {5, 3, 4}));
	ok(source.start(5, 10));
	ck_assert(equal_order(ranked(source, 20), {3, 4}));
	ck_assert_uint_eq(source.campaign_of(3), 0);
}
END_TEST

START_TEST(test_event_errors_name_the_job_and_bad_options_the_field)
{
	FairSharePriority source{FairShareOptions{}};
	ok(source.submit(7, job_of(1), 0));
	const campaign::Status twice = source.submit(7, job_of(1), 0);
	ck_assert(!twice.ok());
	ck_assert(twice.error().find("job index 7") != std::string::npos);
	ck_assert(!source.end(7, 0).ok());    // pending, not running
	ck_assert(!source.start(99, 0).ok()); // never submitted
	ok(source.start(7, 0));
	ck_assert(!source.start(7, 0).ok());
	FairShareOptions bad;
	bad.max_age_s = 0;
	FairSharePriority invalid(bad);
	ck_assert(invalid.rank(0).error().find("max_age_s") != std::string::npos);
	ck_assert(!invalid.submit(0, job_of(1), 0).ok());
	ck_assert_str_eq(fair_share_variant_name(FairShareVariant::classic), "fairshare");
	ck_assert_str_eq(fair_share_variant_name(FairShareVariant::fair_tree), "fairtree");
}
END_TEST

START_TEST(test_ten_thousand_pending_jobs_rank_in_priority_order)
{
	for (FairShareVariant variant : {FairShareVariant::classic, FairShareVariant::fair_tree}) {
		FairSharePriority source(every_rank(variant));
		uint32_t job = 0;
		for (uint32_t user = 0; user < 100; user++)
			run(source, job++, user, user % 7, 1 + user % 5, 0, 10 + user);
		const uint32_t first_pending = job;
		for (; job < first_pending + 10000; job++)
			ok(source.submit(job, job_of(job % 100, (job % 100) % 7), 200 + job % 13));
		const auto began = std::chrono::steady_clock::now();
		const std::vector<uint32_t> order = ranked(source, 1000);
		const double took_ms = std::chrono::duration<double, std::milli>(
		                           std::chrono::steady_clock::now() - began)
		                           .count();
		ck_assert_uint_eq(order.size(), 10000);
		for (size_t i = 1; i < order.size(); i++)
			ck_assert(source.priority_of(order[i - 1]) >= source.priority_of(order[i]));
		std::cout << "fair_share_rank_10k_pending_" << fair_share_variant_name(variant)
		          << " " << took_ms << " ms\n";
	}
}
END_TEST

// A head of the order is the order's first jobs, at a pass and between passes (arrivals merged
// in, started jobs gone); a longer head at the same instant is the same order, not ranked again.
START_TEST(test_rank_head_is_the_head_of_rank)
{
	FairShareOptions options;
	options.calc_period_s = 300;
	FairSharePriority by_head(options), whole(options);
	uint32_t job = 0;
	for (uint32_t user = 0; user < 6; user++) {
		run(by_head, job, user, user % 2, 1 + user, 0, 100 * (user + 1));
		run(whole, job++, user, user % 2, 1 + user, 0, 100 * (user + 1));
	}
	for (int64_t now_s : {700, 800, 1000}) { // a pass, none, a pass
		for (uint32_t k = 0; k < 40; k++, job++) {
			ok(by_head.submit(job, job_of(job % 6, (job % 6) % 2), now_s));
			ok(whole.submit(job, job_of(job % 6, (job % 6) % 2), now_s));
		}
		const std::vector<uint32_t> order = ranked(whole, now_s);
		const auto head = by_head.rank_head(now_s, 8);
		ck_assert(head.ok());
		ck_assert(equal_order(head.value(), {order.begin(), order.begin() + 8}));
		const auto longer = by_head.longer_head(now_s, 32);
		ck_assert(longer.ok());
		ck_assert(equal_order(longer.value(), {order.begin(), order.begin() + 32}));
		const auto all = by_head.longer_head(now_s, 100000);
		ck_assert(all.ok());
		ck_assert(equal_order(all.value(), order));
		for (uint32_t started : {order[0], order[5]}) { // gone from the next head
			ok(by_head.start(started, now_s));
			ok(whole.start(started, now_s));
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("fair_share_priority");
	TCase *tc = tcase_create("fair_share");
	tcase_add_test(tc, test_fair_share_more_decayed_usage_ranks_lower);
	tcase_add_test(tc, test_usage_halves_after_exactly_one_half_life);
	tcase_add_test(tc, test_age_factor_grows_then_caps_at_max_age);
	tcase_add_test(tc, test_classic_two_users_factor_by_hand);
	tcase_add_test(tc, test_classic_three_users_thesis_example);
	tcase_add_test(tc, test_fair_tree_ranks_accounts_first_then_users);
	tcase_add_test(tc, test_fair_tree_ties_share_ranks_and_merge_accounts);
	tcase_add_test(tc, test_factors_refresh_only_every_calc_period);
	tcase_add_test(tc, test_ties_break_by_submit_time_then_job_index);
	tcase_add_test(tc, test_event_errors_name_the_job_and_bad_options_the_field);
	tcase_add_test(tc, test_ten_thousand_pending_jobs_rank_in_priority_order);
	tcase_add_test(tc, test_rank_head_is_the_head_of_rank);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
