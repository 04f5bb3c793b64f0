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

int main()
{
	Suite *suite = suite_create("plan_rebuild_random");
	TCase *tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_random_plans_never_overcommit_and_obey_rank_rules);
	tcase_add_test(tc, test_plan_random_appending_jobs_equals_a_rebuild);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
