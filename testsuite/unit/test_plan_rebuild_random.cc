// Randomized property test of a full plan: thousands of small instances, each checked by the
// independent brute-force checker (plan_checker.h) against the guarantees of doc/design.md §3.
#include "check_main.h"
#include "plan_random.h"
#include "plan_rules.h"

using namespace campaign::plan;

namespace
{
constexpr uint64_t instance_count = 3000;
constexpr int64_t now_s = 1000;
} // namespace

START_TEST(test_plan_random_plans_never_overcommit_and_obey_rank_rules)
{
	// Rules checked per instance: no node's CPUs or memory over-committed at any time; every
	// placement has the job's shape on allowed, up nodes; each reserved job starts at the
	// earliest time the jobs ranked above it allow (so no lower-ranked job delays it); each
	// job beyond the depth waits only if it does not fit now; depth and per-campaign counts.
	for (uint64_t seed = 1; seed <= instance_count; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, now_s);
		Planner planner(instance.config);
		auto built =
		    planner.rebuild(instance.cluster, instance.running, instance.pending, now_s);
		ck_assert_msg(built.ok(), "seed %lu: %s", seed,
		              built.ok() ? "" : built.error().c_str());
		std::string error = plan_rules::resource_error(instance.cluster, instance.running,
		                                               instance.pending, planner);
		if (error.empty())
			error = plan_rules::rank_rule_error(instance.cluster, instance.running,
			                                    instance.pending, planner);
		ck_assert_msg(error.empty(), "seed %lu mode %s: %s", seed,
		              to_string(instance.config.mode), error.c_str());
	}
}
END_TEST

START_TEST(test_plan_random_appending_jobs_equals_a_rebuild)
{
	// Submitting jobs one by one at the end of the queue gives exactly the plan a rebuild of
	// the whole queue gives (same statuses, starts and nodes).
	for (uint64_t seed = 1; seed <= instance_count; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, now_s);
		Planner whole(instance.config);
		ck_assert(whole.rebuild(instance.cluster, instance.running, instance.pending, now_s)
		              .ok());
		Planner appended(instance.config);
		const size_t first = instance.pending.size() / 2;
		std::vector<PendingJob> head(instance.pending.begin(),
		                             instance.pending.begin() + first);
		ck_assert(appended.rebuild(instance.cluster, instance.running, head, now_s).ok());
		for (size_t i = first; i < instance.pending.size(); ++i)
			ck_assert(appended.job_submitted(instance.pending[i], now_s).ok());
		auto expected = whole.queue();
		auto got = appended.queue();
		ck_assert_int_eq(expected.size(), got.size());
		for (size_t i = 0; i < got.size(); ++i) {
			ck_assert_msg(expected[i].status == got[i].status &&
			                  expected[i].start_s == got[i].start_s &&
			                  expected[i].allocations == got[i].allocations,
			              "seed %lu job %lu differs", seed, got[i].id);
		}
	}
}
END_TEST

START_TEST(test_plan_random_inserts_at_once_equal_one_by_one)
{
	// New jobs ranked above kept ones, after a job ended early (so the kept plan was
	// compressed, not fresh): inserted at once (jobs_inserted, one walk from the highest)
	// they give exactly the plan that inserting them one by one, lowest first, gives.
	uint64_t with_several = 0;
	for (uint64_t seed = 1; seed <= instance_count; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, now_s);
		plan_random::Random random(seed + 7);
		std::vector<bool> inserted(instance.pending.size());
		std::vector<PendingJob> kept;
		for (size_t i = 0; i < instance.pending.size(); ++i) {
			inserted[i] = i + 1 < instance.pending.size() && random.chance(40);
			if (!inserted[i])
				kept.push_back(instance.pending[i]);
		}
		if (random.chance(30)) // slipped reservations frozen, kept across the inserts
			instance.config.freeze_slip_s = random.between(1, 20);
		Planner one_by_one(instance.config), at_once(instance.config);
		const int64_t later_s = now_s + random.between(1, 30);
		for (Planner *planner : {&one_by_one, &at_once}) {
			ck_assert(
			    planner->rebuild(instance.cluster, instance.running, kept, now_s).ok());
			if (!instance.running.empty())
				ck_assert(
				    planner->job_ended(instance.running.front().id, later_s).ok());
		}
		std::vector<Planner::Insert> inserts;
		for (size_t i = instance.pending.size(); i-- > 0;)
			if (inserted[i]) {
				const JobId before = instance.pending[i + 1].id;
				ck_assert(
				    one_by_one.job_submitted(instance.pending[i], later_s, before)
				        .ok());
				inserts.push_back({&instance.pending[i], before});
			}
		with_several += inserts.size() > 1;
		ck_assert(at_once.jobs_inserted(inserts, later_s).ok());
		auto expected = one_by_one.queue();
		auto got = at_once.queue();
		ck_assert_int_eq(expected.size(), got.size());
		for (size_t i = 0; i < got.size(); ++i)
			ck_assert_msg(expected[i].id == got[i].id &&
			                  expected[i].status == got[i].status &&
			                  expected[i].start_s == got[i].start_s &&
			                  expected[i].allocations == got[i].allocations,
			              "seed %lu job %lu differs", seed, got[i].id);
	}
	ck_assert_uint_gt(with_several, instance_count / 4); // the case is met
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_rebuild_random");
	TCase *tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_random_plans_never_overcommit_and_obey_rank_rules);
	tcase_add_test(tc, test_plan_random_appending_jobs_equals_a_rebuild);
	tcase_add_test(tc, test_plan_random_inserts_at_once_equal_one_by_one);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
