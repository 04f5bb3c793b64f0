// The local search over the plan (PlannerConfig::local_search_iterations): a light campaign's
// job reserved behind a heavy campaign is moved ahead and the campaigns' predicted stretch
// falls; with the search off, or where a move would make it worse, the plan stays the rank
// order's; on random instances every plan it keeps is still a plan of the machine. One node,
// hand-worked.
#include "check_main.h"
#include "plan_checker.h"
#include "plan_fixtures.h"
#include "plan_random.h"

#include <chrono>
#include <memory>

using namespace plan_fixtures;

namespace
{

PlannerConfig search_config(int32_t iterations)
{
	PlannerConfig result = config(ReservationMode::conservative);
	result.local_search_iterations = iterations;
	result.local_search_ms = 60000; // the iterations bound the search here, not the clock
	return result;
}

void check_ok(const campaign::Status &status)
{
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
}

// 10 CPUs busy until 100. Heavy campaign 1: H1 and H2, 10 CPUs x 1000 s each; light campaign 2:
// L, 1 CPU x 10 s, ranked last; all submitted at 0. In rank order L is reserved at 2100 (stretch
// 2110 / 10 = 211); moved ahead of H1 it runs at 100 (stretch 11) and campaign 1 ends 10 s later
// (2110 / 2000 against 2100 / 2000).
std::vector<PendingJob> light_behind_heavy()
{
	return {job(1, 10, 1000, 1), job(2, 10, 1000, 1), job(3, 1, 10, 2)};
}

} // namespace

START_TEST(test_local_search_moves_a_light_campaign_ahead)
{
	Planner searched(search_config(4));
	check_ok(searched.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
	                          light_behind_heavy(), 0));
	Plan plan = searched.plan(0);
	ck_assert_int_eq(plan.planned.at(3).start_s, 100);
	ck_assert_int_eq(plan.planned.at(1).start_s, 110);
	ck_assert_int_eq(plan.planned.at(2).start_s, 1110);
	ck_assert_uint_ge(searched.local_search_kept(), 1);

	Planner rank_order(search_config(0));
	check_ok(rank_order.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
	                            light_behind_heavy(), 0));
	const PlanFairness before = rank_order.fairness();
	const PlanFairness after = searched.fairness();
	ck_assert_double_eq_tol(before.max, 211, 1e-9);
	ck_assert_double_eq_tol(after.max, 11, 1e-9);
	ck_assert_double_eq_tol(after.sum_squares, 11 * 11 + 1.055 * 1.055, 1e-9);
	ck_assert(after.sum_squares < before.sum_squares);
	ck_assert_uint_eq(after.placed_jobs, 3);
}
END_TEST

// Off (0 iterations, the default): the rank order's plan, nothing tried.
START_TEST(test_local_search_off_keeps_the_rank_order)
{
	ck_assert_int_eq(PlannerConfig{}.local_search_iterations, 0);
	Planner planner(search_config(0));
	check_ok(planner.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
	                         light_behind_heavy(), 0));
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.planned.at(1).start_s, 100);
	ck_assert_int_eq(plan.planned.at(2).start_s, 1100);
	ck_assert_int_eq(plan.planned.at(3).start_s, 2100);
	ck_assert_uint_eq(planner.local_search_tried(), 0);
}
END_TEST

// A move that makes the sum of squares worse is tried and not kept. 10 CPUs busy until 100;
// X (campaign 1, 10 CPUs x 10 s) reserved at 100 (stretch 11), L (campaign 2, 1 CPU x 100 s)
// at 110 (stretch 2.1). L ahead of X: L 2, X 21 (sum 445 against 125.41).
START_TEST(test_local_search_keeps_no_move_that_makes_it_worse)
{
	Planner planner(search_config(4));
	check_ok(planner.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
	                         {job(1, 10, 10, 1), job(2, 1, 100, 2)}, 0));
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.planned.at(1).start_s, 100);
	ck_assert_int_eq(plan.planned.at(2).start_s, 110);
	ck_assert_uint_ge(planner.local_search_tried(), 1);
	ck_assert_uint_eq(planner.local_search_kept(), 0);
	ck_assert_double_eq_tol(planner.fairness().sum_squares, 11 * 11 + 2.1 * 2.1, 1e-9);
}
END_TEST

// The search's job order survives the kept plan's updates: after H1's reservation and L's run,
// an early end of the running job moves the plan earlier and L keeps its place ahead of H1.
START_TEST(test_local_search_order_is_kept_by_updates)
{
	Planner planner(search_config(4));
	check_ok(planner.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
	                         light_behind_heavy(), 0));
	check_ok(planner.job_ended(11, 50));
	Plan plan = planner.plan(50);
	ck_assert(plan.starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(plan.planned.at(1).start_s, 60);
}
END_TEST

// The time cap is read inside a move too, at each job it places again: on a clock that moves a
// millisecond a reading, with a 3 ms cap the first move (L ahead of H1) starts at 1 ms and
// reaches the cap after placing one job; it is restored unfinished, so the plan is the rank
// order's and nothing is kept (read only between moves, the move finished and was kept). With
// a 1 s cap the same clock lets the move finish and it is kept.
START_TEST(test_local_search_cap_stops_a_move_under_way)
{
	auto searched_on_ticking_clock = [](int64_t cap_ms) {
		PlannerConfig capped = search_config(4);
		capped.local_search_ms = cap_ms;
		Planner planner(capped);
		auto ticks = std::make_shared<int64_t>(0);
		planner.set_local_search_clock([ticks] {
			return std::chrono::steady_clock::time_point(
			    std::chrono::milliseconds((*ticks)++));
		});
		check_ok(planner.rebuild(uniform_cluster(1, 10), {running(11, 0, 10, 100)},
		                         light_behind_heavy(), 0));
		return planner;
	};
	Planner planner = searched_on_ticking_clock(3);
	ck_assert_uint_eq(planner.local_search_tried(), 1);
	ck_assert_uint_eq(planner.local_search_kept(), 0);
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.planned.at(1).start_s, 100);
	ck_assert_int_eq(plan.planned.at(2).start_s, 1100);
	ck_assert_int_eq(plan.planned.at(3).start_s, 2100);

	Planner enough = searched_on_ticking_clock(1000);
	ck_assert_uint_ge(enough.local_search_kept(), 1);
	ck_assert_int_eq(enough.plan(0).planned.at(3).start_s, 100);
}
END_TEST

// Random instances: the searched plan over-commits no node, places as many jobs, and its
// objective is no worse than the rank order's.
START_TEST(test_local_search_plans_stay_plans_of_the_machine)
{
	int searched = 0;
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, 1000);
		PlannerConfig with = instance.config;
		with.mode = ReservationMode::conservative;
		with.starts_only = false;
		PlannerConfig without = with;
		with.local_search_iterations = 8;
		with.local_search_ms = 60000;
		for (size_t i = 0; i < instance.pending.size(); ++i)
			instance.pending[i].submit_s = 1000 - static_cast<int64_t>(i % 7) * 100;
		Planner planner(with), rank_order(without);
		if (!planner.rebuild(instance.cluster, instance.running, instance.pending, 1000)
		         .ok())
			continue;
		check_ok(
		    rank_order.rebuild(instance.cluster, instance.running, instance.pending, 1000));
		searched += planner.local_search_kept() > 0;
		std::vector<plan_checker::Booking> bookings;
		for (const RunningJob &job : instance.running)
			bookings.push_back(
			    {1000, std::max<int64_t>(job.expected_end_s, 1001), job.allocations});
		for (const auto &[id, planned] : planner.plan(1000).planned)
			bookings.push_back({planned.start_s, planned.start_s + planned.limit_s,
			                    planned.allocations});
		const std::string over = plan_checker::overcommit(instance.cluster, bookings, 1000);
		ck_assert_msg(over.empty(), "seed %llu: %s", (unsigned long long)seed,
		              over.c_str());
		ck_assert_msg(planner.fairness().sum_squares <=
		                  rank_order.fairness().sum_squares * (1 + 1e-9),
		              "seed %llu: the search made the objective worse",
		              (unsigned long long)seed);
		ck_assert_msg(planner.fairness().placed_jobs >= rank_order.fairness().placed_jobs,
		              "seed %llu: the search left a job without a place",
		              (unsigned long long)seed);
		ck_assert_msg(planner.fairness().max <= rank_order.fairness().max * (1 + 1e-9),
		              "seed %llu: the search raised the worst campaign",
		              (unsigned long long)seed);
	}
	ck_assert_msg(searched > 0, "no random instance had a move kept");
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_local_search");
	TCase *tc = tcase_create("hand_worked");
	tcase_add_test(tc, test_local_search_moves_a_light_campaign_ahead);
	tcase_add_test(tc, test_local_search_off_keeps_the_rank_order);
	tcase_add_test(tc, test_local_search_keeps_no_move_that_makes_it_worse);
	tcase_add_test(tc, test_local_search_order_is_kept_by_updates);
	tcase_add_test(tc, test_local_search_cap_stops_a_move_under_way);
	tcase_add_test(tc, test_local_search_plans_stay_plans_of_the_machine);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
