// overdue=clamp|share: a campaign whose completion in V is already past (its user waited while V
// served it) ranks by the soonest it could still complete, now + its pending work on all CPUs
// (clamp) or on its fair share of them (share), but never later than C~ plus its own time in V (C~
// - s~) when first postponed, moved later by overdue_slide x the time since (no starvation), and it
// takes no new job; keep (the thesis) ranks it by C~, first. The default is share with a slide of
// 0.8 (doc/fairness-results.md, "A held-out log: NASA-iPSC"). overdue_pace: each job the postponed
// campaign starts moves its bound later by the job's work over its share.
#include "core_fixtures.h"
#include "policy/virtual_schedule.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

// 4 CPUs. User 1 submits 10 jobs of 4 CPUs x 1000 s at t = 0; V completes them at t = 10,000 (its
// time in V: 10,000 s), but none has started by `now_s`, when user 2 submits job 11, 4 CPUs x
// `limit_s`.
CampaignCore late_campaign_core(const std::string &parameters, int64_t now_s, int64_t limit_s = 100)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	for (uint32_t id = 1; id <= 10; id++)
		ok(core.submit(job(id, 1, 0, 4, 1000), 0));
	ok(core.submit(job(11, 2, now_s, 4, limit_s), now_s));
	return core;
}

Ranking late_campaign_and_a_newcomer(const std::string &parameters, int64_t now_s = 12000)
{
	return late_campaign_core(parameters, now_s).rank(now_s);
}

} // namespace

START_TEST(test_keep_ranks_the_late_campaign_first)
{
	const Ranking ranking = late_campaign_and_a_newcomer("policy=ostrich,overdue=keep");
	expect_near(explain(ranking, 1).key, 10000, "user 1's C~ (past)");
	ck_assert_uint_eq(ranking.order.front(), 1);
	ck_assert_uint_eq(ranking.order.back(), 11);
}
END_TEST

START_TEST(test_clamp_ranks_it_by_the_soonest_completion)
{
	const Ranking ranking = late_campaign_and_a_newcomer("policy=ostrich,overdue=clamp");
	// 40,000 CPU-seconds pending on 4 CPUs: not before 22,000, but at most 10,000 + 10,000.
	// User 2: 12,000 + 400 / 4.
	expect_near(explain(ranking, 1).key, 20000, "user 1's key");
	expect_near(explain(ranking, 11).key, 12100, "user 2's C~");
	ck_assert_uint_eq(ranking.order.front(), 11);
}
END_TEST

// User 1: four jobs of 4 CPUs x 1000 s at t = 0, two of which ran over [0, 1000]; V completes
// the campaign at 4,000 (bound 8,000). At 4,500 user 2 submits: 8,000 CPU-seconds are pending.
Ranking half_run_campaign(const std::string &parameters)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	for (uint32_t id = 1; id <= 4; id++)
		ok(core.submit(job(id, 1, 0, 4, 1000), 0));
	ok(core.start(1, 0));
	ok(core.end(1, 1000));
	ok(core.start(2, 1000));
	ok(core.end(2, 2000));
	ok(core.submit(job(5, 2, 4500, 4, 100), 4500));
	return core.rank(4500);
}

START_TEST(test_clamp_and_share_differ_by_the_share)
{
	// clamp: 4,500 + 8,000 / 4 CPUs; share: 4,500 + 8,000 / 2 CPUs (two users), bounded at
	// 8,000.
	expect_near(explain(half_run_campaign("policy=ostrich,overdue=clamp"), 3).key, 6500,
	            "clamp");
	expect_near(explain(half_run_campaign("policy=ostrich,overdue=share"), 3).key, 8000,
	            "share");
	expect_near(explain(half_run_campaign("policy=ostrich,overdue=keep"), 3).key, 4000, "keep");
}
END_TEST

// Late by more than its own time in V, the campaign is first again: no starvation.
START_TEST(test_bound_ends_the_postponement)
{
	const Ranking ranking =
	    late_campaign_and_a_newcomer("policy=ostrich,overdue=share,overdue_slide=0", 20001);
	expect_near(explain(ranking, 1).key, 20000, "user 1's key");
	ck_assert_uint_eq(ranking.order.front(), 1);
}
END_TEST

// The bound is fixed when the campaign is first postponed, and the campaign is closed then: a job
// its user submits later opens a campaign of its own instead of moving the postponed one's C~.
START_TEST(test_postponed_campaign_is_closed_and_keeps_its_bound)
{
	CampaignCore core =
	    late_campaign_core("policy=ostrich,overdue=share,overdue_slide=0", 12000);
	expect_near(explain(core.rank(12000), 1).key, 20000, "user 1's key when first postponed");
	ok(core.submit(job(12, 1, 12001, 4, 100), 12001)); // user 1's campaign still has jobs
	const Ranking later = core.rank(12001);
	ck_assert_msg(explain(later, 12).campaign_id != explain(later, 1).campaign_id,
	              "job 12 opened a campaign of its own");
	expect_near(explain(later, 1).key, 20000, "user 1's postponed key after job 12");
	// V completed user 1's late campaign at 10,000, so job 12's starts in V at once: 12,001 +
	// 400 CPU-seconds on 2 CPUs. It runs ahead of the postponed one, which stays last.
	expect_near(explain(later, 12).key, 12201, "job 12's own C~");
	ck_assert_uint_eq(later.order.back(), 10);
}
END_TEST

// overdue_slide: the bound moves later by that fraction of the time since the postponement.
START_TEST(test_slide_moves_the_bound_slower_than_time)
{
	CampaignCore core =
	    late_campaign_core("policy=ostrich,overdue=share,overdue_slide=0.5", 12000, 100000);
	expect_near(explain(core.rank(12000), 1).key, 20000, "bound when first postponed");
	// At 16,000: 40,000 CPU-seconds on 2 CPUs would end at 36,000; the bound is 20,000 +
	// 0.5 x 4,000.
	expect_near(explain(core.rank(16000), 1).key, 22000, "bound 4,000 s later");
	// It stops postponing once time catches up with the bound: at 28,000 the bound is 28,000.
	expect_near(explain(core.rank(28000), 1).key, 28000, "bound meets time");
	ck_assert_uint_eq(core.rank(28001).order.front(), 1);
}
END_TEST

// With no parameters the late campaign is postponed (share, slide 0.8): the newcomer goes first,
// and the bound moves later at 0.8 of the time since the postponement.
START_TEST(test_default_postpones_with_a_sliding_bound)
{
	const Ranking first = late_campaign_and_a_newcomer("policy=ostrich");
	expect_near(explain(first, 1).key, 20000, "bound when first postponed");
	ck_assert_uint_eq(first.order.front(), 11);
	// A newcomer of 400,000 CPU-seconds keeps the late campaign's key at its bound, which
	// has moved from 20,000 by 0.8 x 5,000 at 17,000 (its soonest end: 17,000 + 40,000 / 2).
	CampaignCore core = late_campaign_core("policy=ostrich", 12000, 100000);
	expect_near(explain(core.rank(12000), 1).key, 20000, "bound when first postponed");
	expect_near(explain(core.rank(17000), 1).key, 24000, "20,000 + 0.8 x 5,000");
}
END_TEST

// The bound outlives a restart: saved and loaded, the postponed campaign keeps the bound it was
// given at 12,000 (a bound made again at load would start from the load's time and move later).
START_TEST(test_state_keeps_the_postponement)
{
	CampaignCore core = late_campaign_core("policy=ostrich", 12000, 100000);
	expect_near(explain(core.rank(12000), 1).key, 20000, "bound when first postponed");
	auto loaded = CoreStateCodec::load(CoreStateCodec::save(core));
	ck_assert_msg(loaded.ok(), "%s", loaded.ok() ? "" : loaded.error().c_str());
	expect_near(explain(loaded.value().rank(17000), 1).key, 24000, "20,000 + 0.8 x 5,000");
	ck_assert(loaded.value().rank(17000).order == core.rank(17000).order);
}
END_TEST

// overdue_pace: once the bound has let the late campaign through, each job it starts moves the
// bound later by the job's work over its share (share) or over the partition's CPUs (partition),
// so a newcomer goes ahead of its next job instead of waiting for the whole campaign
// (whole-machine campaigns back to back; "Paced late campaigns" in doc/fairness-results.md). The
// moves are kept across a restart.
START_TEST(test_pace_moves_the_bound_by_the_work_started)
{
	// 4,000 CPU-seconds started: on a share of 2 CPUs 2,000 s, on the partition's 4 1,000 s.
	const std::pair<const char *, double> paces[] = {
	    {"none", 20000}, {"partition", 21000}, {"share", 22000}};
	for (const auto &[pace, key] : paces) {
		CampaignCore core = late_campaign_core(
		    std::string("policy=ostrich,overdue=share,overdue_slide=0,overdue_pace=") +
		        pace,
		    20001);
		const Ranking due = core.rank(20001);
		expect_near(explain(due, 1).key, 20000, "bound when first postponed, passed");
		ck_assert_uint_eq(due.order.front(), 1);
		ok(core.start(1, 20001));
		const Ranking after = core.rank(20002);
		// User 2's job 11: C~ 20,001 + 400 / 4 (V completed user 1's campaign long ago).
		expect_near(explain(after, 11).key, 20101, "the newcomer's C~");
		expect_near(explain(after, 2).key, key, pace);
		ck_assert_uint_eq(after.order.front(), key > 20101 ? 11 : 2);
		auto loaded = CoreStateCodec::load(CoreStateCodec::save(core));
		ck_assert_msg(loaded.ok(), "%s", loaded.ok() ? "" : loaded.error().c_str());
		expect_near(explain(loaded.value().rank(20002), 2).key, key, "after a restart");
	}
	// Its turn again once time passes the moved bound, ahead of a newer newcomer. With a third
	// user the share is 4 / 3 CPUs: 20,000 + 4,000 x 3 / 4.
	CampaignCore core = late_campaign_core(
	    "policy=ostrich,overdue=share,overdue_slide=0,overdue_pace=share", 20001);
	ck_assert_uint_eq(core.rank(20001).order.front(), 1);
	ok(core.start(1, 20001));
	ok(core.start(11, 20002));
	ok(core.submit(job(12, 3, 23001, 4, 100), 23001));
	const Ranking again = core.rank(23001);
	expect_near(explain(again, 2).key, 23000, "the bound on a share of 4 / 3 CPUs");
	ck_assert_uint_eq(again.order.front(), 2);
}
END_TEST

// With a sliding bound the move is (1 - slide) of it, so the bound meets time again after the
// job's work over the share, as without a slide.
START_TEST(test_pace_with_a_slide_meets_time_after_the_share)
{
	CampaignCore core = late_campaign_core(
	    "policy=ostrich,overdue=share,overdue_slide=0.5,overdue_pace=share", 12000, 100000);
	expect_near(explain(core.rank(12000), 1).key, 20000, "bound when first postponed");
	ck_assert_uint_eq(core.rank(28001).order.front(), 1); // 20,000 + 0.5 x 16,000 = 28,000
	ok(core.start(1, 28001));
	// 28,000.5 + 0.5 x 4,000 / 2: it meets time 2,000 s later than without the start.
	expect_near(explain(core.rank(28001), 2).key, 29000.5, "bound after the start");
	expect_near(explain(core.rank(30000), 2).key, 30000, "bound meets time at 28,000 + 2,000");
}
END_TEST

// A campaign on time in V keeps its C~: the clamp only binds when V is ahead of what can still run.
START_TEST(test_clamp_leaves_campaigns_on_time)
{
	CampaignCore core = make_core("policy=ostrich,overdue=clamp");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 1000), 0));
	ok(core.submit(job(2, 2, 0, 4, 500), 0));
	const Ranking ranking = core.rank(0);
	// Two users on 4 CPUs, 2 CPUs each (the projection keeps the current share): 2000 / 2 and
	// 4000 / 2. The clamp would give 500 and 1000.
	expect_near(explain(ranking, 2).key, 1000, "user 2's C~");
	expect_near(explain(ranking, 1).key, 2000, "user 1's C~");
}
END_TEST

// overdue_grace scales the own time in V in the bound set when the campaign is first postponed:
// C~ + grace x (C~ - s~). User 1's C~ is 10,000 and its time in V 10,000; at 12,000 it could not
// complete before 12,000 + 40,000 / 2 (its share of the 4 CPUs), so the bound decides.
START_TEST(test_grace_scales_the_own_time_in_the_bound)
{
	const Ranking half = late_campaign_and_a_newcomer(
	    "policy=ostrich,overdue=share,overdue_slide=0,overdue_grace=0.5");
	expect_near(explain(half, 1).key, 15000, "10,000 + 0.5 x 10,000");
	ck_assert_uint_eq(half.order.front(), 11);
	const Ranking none = late_campaign_and_a_newcomer(
	    "policy=ostrich,overdue=share,overdue_slide=0,overdue_grace=0");
	expect_near(explain(none, 1).key, 10000, "its C~: first at once");
	ck_assert_uint_eq(none.order.front(), 1);
}
END_TEST

// reopened: a campaign V finished that is given more work (its jobs' estimates rose) is queued
// again for its user: last, behind the user's newer campaigns, or next, after the campaign V is
// serving. One unit on 1 CPU: A (10 s) finishes at 10; B (100 s) runs from 10, C (100 s) waits;
// then A gets 5 s more.
START_TEST(test_reopened_campaign_is_served_next_or_last)
{
	for (const bool next : {true, false}) {
		campaign::VirtualSchedule schedule;
		schedule.advance_to(0, 1);
		schedule.add_work(1, 7, 10, next);
		schedule.advance_to(10, 1);
		ck_assert(schedule.view(1, 1).finished);
		schedule.add_work(2, 7, 100, next);
		schedule.add_work(3, 7, 100, next);
		schedule.add_work(1, 7, 5, next);
		const campaign::VirtualView a = schedule.view(1, 1), c = schedule.view(3, 1);
		ck_assert(!a.finished);
		expect_near(a.start_s, next ? 110 : 210, "A's new start in V");
		expect_near(a.finish_s, next ? 115 : 215, "A's new completion in V");
		expect_near(c.start_s, next ? 115 : 110, "C's start in V");
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_overdue");
	TCase *tc = tcase_create("overdue");
	tcase_add_test(tc, test_keep_ranks_the_late_campaign_first);
	tcase_add_test(tc, test_clamp_ranks_it_by_the_soonest_completion);
	tcase_add_test(tc, test_clamp_and_share_differ_by_the_share);
	tcase_add_test(tc, test_bound_ends_the_postponement);
	tcase_add_test(tc, test_postponed_campaign_is_closed_and_keeps_its_bound);
	tcase_add_test(tc, test_slide_moves_the_bound_slower_than_time);
	tcase_add_test(tc, test_clamp_leaves_campaigns_on_time);
	tcase_add_test(tc, test_default_postpones_with_a_sliding_bound);
	tcase_add_test(tc, test_state_keeps_the_postponement);
	tcase_add_test(tc, test_pace_moves_the_bound_by_the_work_started);
	tcase_add_test(tc, test_pace_with_a_slide_meets_time_after_the_share);
	tcase_add_test(tc, test_grace_scales_the_own_time_in_the_bound);
	tcase_add_test(tc, test_reopened_campaign_is_served_next_or_last);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
