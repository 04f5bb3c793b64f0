// FairCamp (doc/design.md §3): list-schedule Delta, anchored and paper deadlines, the thesis's
// worked example, and the randomized guarantee that paper mode meets every deadline (FC Prop. 7).
#include "core_fixtures.h"
#include "policy/faircamp_deadlines.h"

using namespace campaign_test;

START_TEST(test_faircamp_list_schedule_is_lpt_on_rigid_jobs)
{
	// LPT on 2 CPUs: 5 | 4, then 3 after 4 -> 7, then 2 after 5 -> 7: makespan 7.
	ck_assert(near(
	    list_schedule_makespan_s({{1, 1, 1, 3}, {2, 1, 1, 5}, {3, 1, 1, 2}, {4, 1, 1, 4}}, 2),
	    7));
	// A 3-CPU job on 2 CPUs is clamped to 2; arrays count each task.
	ck_assert(near(list_schedule_makespan_s({{1, 3, 1, 10}}, 2), 10));
	ck_assert(near(list_schedule_makespan_s({{1, 1, 4, 10}}, 2), 20));
	ck_assert(near(list_schedule_makespan_s({}, 0), 0));
}
END_TEST

// The packed list is a plain list of ListJob in another form: put replaces the first job with
// its id in place, remove drops every one, push_back appends; extreme values survive.
START_TEST(test_faircamp_packed_jobs_match_a_plain_list_random)
{
	std::mt19937_64 random(11);
	const std::vector<uint32_t> ids = {0, 1, 2, 3, 127, 128, 70000, UINT32_MAX - 1, UINT32_MAX};
	const std::vector<int64_t> lengths = {0, 1, 59, 86400, -5, INT64_MAX, INT64_MIN};
	const std::vector<uint32_t> counts = {0, 1, 2, 127, 128, 65536, UINT32_MAX};
	for (int instance = 0; instance < 300; instance++) {
		PackedListJobs packed;
		std::vector<ListJob> plain;
		for (int step = 0; step < 60; step++) {
			const ListJob job = {
			    ids[random() % ids.size()], counts[random() % counts.size()],
			    counts[random() % counts.size()], lengths[random() % lengths.size()]};
			const uint64_t action = random() % 5;
			if (action == 0) {
				packed.push_back(job);
				plain.push_back(job);
			} else if (action == 1) {
				packed.remove(job.job_id);
				std::erase_if(plain, [&](const ListJob &old) {
					return old.job_id == job.job_id;
				});
			} else {
				packed.put(job);
				auto same = std::find_if(
				    plain.begin(), plain.end(),
				    [&](const ListJob &old) { return old.job_id == job.job_id; });
				if (same != plain.end())
					*same = job;
				else
					plain.push_back(job);
			}
			const std::vector<ListJob> unpacked = packed.unpack();
			ck_assert_uint_eq(packed.size(), plain.size());
			ck_assert_uint_eq(unpacked.size(), plain.size());
			for (size_t index = 0; index < plain.size(); index++)
				ck_assert_msg(unpacked[index].job_id == plain[index].job_id &&
				                  unpacked[index].cpus == plain[index].cpus &&
				                  unpacked[index].tasks == plain[index].tasks &&
				                  unpacked[index].length_s == plain[index].length_s,
				              "instance %d step %d: job %zu differs", instance,
				              step, index);
		}
	}
}
END_TEST

// Thesis §4.2 / FC §VI-C, k = 2: user 1 Delta = 5, 3 -> d = 10, 16; user 2 Delta = 3, 3, 10 ->
// d = 6, 12, 32. The paper prints 22 for the last one; the formula k*Delta + d_prev gives 32.
START_TEST(test_faircamp_deadlines_thesis_example)
{
	for (const auto mode :
	     {FairCampDeadlines::Mode::Paper, FairCampDeadlines::Mode::Anchored}) {
		FairCampDeadlines deadlines(mode);
		const std::vector<std::pair<uint32_t, int64_t>> campaigns = {
		    {1, 5}, {1, 3}, {2, 3}, {2, 3}, {2, 10}};
		uint64_t id = 1;
		for (const auto &[user, delta_s] : campaigns) {
			deadlines.open(id, user, 0, 2);
			deadlines.put_job(id, {static_cast<uint32_t>(id), 1, 1, delta_s}, 1);
			id++;
		}
		const std::vector<double> expected = {10, 16, 6, 12, 32};
		for (uint64_t campaign = 1; campaign <= 5; campaign++)
			ck_assert_msg(near(deadlines.deadline_s(campaign), expected[campaign - 1]),
			              "campaign %lu: %.3f", static_cast<unsigned long>(campaign),
			              deadlines.deadline_s(campaign));
	}
}
END_TEST

START_TEST(test_faircamp_anchored_deadline_starts_at_arrival)
{
	FairCampDeadlines deadlines(FairCampDeadlines::Mode::Anchored);
	deadlines.open(1, 0, 0, 2);
	deadlines.put_job(1, {1, 1, 1, 5}, 1);
	deadlines.open(2, 0, 100, 3); // arrives after d_1 = 10: anchored at 100, k frozen at 3
	deadlines.put_job(2, {2, 1, 1, 4}, 1);
	ck_assert(near(deadlines.deadline_s(2), 112));
	deadlines.put_job(2, {3, 1, 1, 6}, 1); // a job joins: Delta recomputed to 10
	ck_assert(near(deadlines.deadline_s(2), 130));
	deadlines.retire(1);
	ck_assert(near(deadlines.deadline_s(2), 130));
	FairCampDeadlines paper(FairCampDeadlines::Mode::Paper);
	paper.open(1, 0, 0, 2);
	paper.put_job(1, {1, 1, 1, 5}, 1);
	paper.open(2, 0, 100, 3);
	paper.put_job(2, {2, 1, 1, 4}, 1);
	ck_assert(near(paper.deadline_s(2), 22)); // not anchored: 10 + 3*4
}
END_TEST

START_TEST(test_faircamp_core_ranks_by_deadline)
{
	CampaignCore core = make_core("policy=faircamp,faircamp_k=2,faircamp_mode=paper");
	ok(core.capacity({"p", 1, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 5), 0));
	ok(core.submit(job(2, 2, 0, 1, 3), 0));
	const Ranking ranking = core.rank(0);
	expect_near(explain(ranking, 1).deadline_s, 10, "user 1 d_1");
	expect_near(explain(ranking, 2).deadline_s, 6, "user 2 d_1");
	ck_assert_uint_eq(ranking.order.front(), 2);
}
END_TEST

// FC Prop. 7: with k = the number of users, campaigns run as whole-machine blocks in EDF
// order, first campaigns at t = 0 and each next campaign released at its predecessor's
// completion, every campaign finishes by its deadline.
START_TEST(test_faircamp_paper_mode_meets_every_deadline_random)
{
	std::mt19937_64 random(3);
	for (int instance = 0; instance < 1500; instance++) {
		const uint32_t users = 1 + static_cast<uint32_t>(random() % 6);
		const uint64_t capacity = 1 + random() % 8;
		FairCampDeadlines deadlines(FairCampDeadlines::Mode::Paper);
		std::vector<std::deque<uint64_t>> workflows(users);
		uint64_t id = 1;
		for (uint32_t user = 0; user < users; user++)
			for (int campaign = 0; campaign < 1 + static_cast<int>(random() % 5);
			     campaign++) {
				deadlines.open(id, user, 0, users);
				for (int job = 0; job < 1 + static_cast<int>(random() % 6); job++)
					deadlines.put_job(
					    id,
					    {static_cast<uint32_t>(job),
					     1 + static_cast<uint32_t>(random() % 3), 1,
					     1 + static_cast<int64_t>(random() % 100)},
					    capacity);
				workflows[user].push_back(id++);
			}
		std::vector<double> released(users, 0);
		double now_s = 0;
		for (;;) {
			int chosen = -1;
			double earliest_release = 1e300;
			for (uint32_t user = 0; user < users; user++) {
				if (workflows[user].empty())
					continue;
				earliest_release = std::min(earliest_release, released[user]);
				if (released[user] > now_s)
					continue;
				if (chosen < 0 ||
				    deadlines.deadline_s(workflows[user].front()) <
				        deadlines.deadline_s(workflows[chosen].front()))
					chosen = static_cast<int>(user);
			}
			if (earliest_release == 1e300)
				break;
			if (chosen < 0) {
				now_s = earliest_release;
				continue;
			}
			const uint64_t campaign = workflows[chosen].front();
			now_s += deadlines.delta_s(campaign);
			ck_assert_msg(now_s <= deadlines.deadline_s(campaign) + 1e-9,
			              "instance %d: campaign %lu ends %.1f after deadline %.1f",
			              instance, static_cast<unsigned long>(campaign), now_s,
			              deadlines.deadline_s(campaign));
			workflows[chosen].pop_front();
			released[chosen] = now_s;
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("faircamp");
	TCase *tc = tcase_create("deadlines");
	tcase_add_test(tc, test_faircamp_list_schedule_is_lpt_on_rigid_jobs);
	tcase_add_test(tc, test_faircamp_packed_jobs_match_a_plain_list_random);
	tcase_add_test(tc, test_faircamp_deadlines_thesis_example);
	tcase_add_test(tc, test_faircamp_anchored_deadline_starts_at_arrival);
	tcase_add_test(tc, test_faircamp_core_ranks_by_deadline);
	tcase_add_test(tc, test_faircamp_paper_mode_meets_every_deadline_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
