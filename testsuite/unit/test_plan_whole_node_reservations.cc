// Unit tests of whole-node reservations (PlannerConfig::whole_node_reservations, Slurm's
// sched/backfill): a reserved job holds every CPU of its nodes from its start to its end, so a
// lower-ranked job that would run into it on those nodes waits, and a short one that ends
// before it takes the CPUs a longer one would have taken under CPU-level reservations.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// 2 nodes x 4 CPUs, 3 CPUs of each busy until 100. Ranked: job 1 (6 CPUs, 100 s) cannot
// start before 100 and is reserved there on both nodes; job 2 (1 CPU, 200 s) would run into
// it; job 3 (2 CPUs, 50 s) ends before it.
Planner planned_with(bool whole_node_reservations)
{
	PlannerConfig settings = config(ReservationMode::conservative);
	settings.whole_node_reservations = whole_node_reservations;
	Planner planner(settings);
	auto status = planner.rebuild(uniform_cluster(2, 4),
	                              {running(100, 0, 3, 100), running(101, 1, 3, 100)},
	                              {job(1, 6, 100), job(2, 1, 200), job(3, 2, 50)}, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

int32_t cpus_of(const PlannedJob &planned)
{
	int32_t cpus = 0;
	for (const NodeAllocation &allocation : planned.allocations)
		cpus += allocation.cpus;
	return cpus;
}

} // namespace

// CPU-level: job 2 takes n1's free CPU now (n1 keeps 2 CPUs beside job 1's reservation), so
// job 3 finds 1 free CPU and waits. Whole nodes: job 2 may not run into job 1's nodes and
// waits for its end (200); job 3 starts now on a CPU of each node.
START_TEST(test_plan_whole_node_reservation_lets_the_short_job_start_and_holds_the_long_one)
{
	Planner cpu_level = planned_with(false);
	ck_assert(cpu_level.plan(0).starts_now == std::vector<JobId>{2});
	ck_assert(status_of(cpu_level, 3).status == JobStatus::reserved);

	Planner whole = planned_with(true);
	const Plan plan = whole.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(cpus_of(plan.planned.at(3)), 2);
	ck_assert(status_of(whole, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(whole, 1).start_s, 100);
	ck_assert_int_eq(cpus_of(status_of(whole, 1)), 6); // its own CPUs, not the nodes'
	ck_assert(status_of(whole, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(whole, 2).start_s, 200);
}
END_TEST

// Cancelling the reservation gives back the whole nodes: job 2 moves to 50 (job 3's end),
// which the nodes' other CPUs, if still held, would forbid.
START_TEST(test_plan_whole_node_reservation_cancelled_gives_back_its_nodes)
{
	Planner whole = planned_with(true);
	const Plan plan = whole.plan(0);
	for (JobId id : plan.starts_now) {
		auto started = whole.job_started({id, plan.planned.at(id).allocations, 50}, 0);
		ck_assert_msg(started.ok(), "%s", started.ok() ? "" : started.error().c_str());
	}
	auto cancelled = whole.job_cancelled(1, 1);
	ck_assert_msg(cancelled.ok(), "%s", cancelled.ok() ? "" : cancelled.error().c_str());
	ck_assert(status_of(whole, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(whole, 2).start_s, 50);
}
END_TEST

// The PlanKeeper plans afresh every pass, as sched/backfill does each cycle: the same plan
// as a rebuild after a job ends early.
START_TEST(test_plan_keeper_with_whole_node_reservations_plans_as_a_rebuild)
{
	PlannerConfig settings = config(ReservationMode::conservative);
	settings.whole_node_reservations = true;
	PlanKeeper keeper(settings);
	const Cluster cluster = uniform_cluster(2, 4);
	std::vector<RunningJob> busy = {running(100, 0, 3, 100), running(101, 1, 3, 100)};
	std::vector<PendingJob> queue = {job(1, 6, 100), job(2, 1, 200), job(3, 2, 50)};
	auto first = keeper.update(cluster, busy, queue, 0);
	ck_assert(first.ok());
	ck_assert(first.value().starts_now == std::vector<JobId>{3});
	// Job 3 was not started; job 100 ended at 10: n0 is free, job 1 still needs 6 CPUs.
	busy.erase(busy.begin());
	auto second = keeper.update(cluster, busy, queue, 10);
	ck_assert(second.ok());
	ck_assert_int_eq(keeper.rebuilds(), 2);
	ck_assert(second.value().starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(second.value().planned.at(1).start_s, 100);
}
END_TEST

// sched/backfill's bf_resolution (PlannerConfig::reservation_resolution_s): the reservation
// of job 1 at 100 to 200 is held from 60 to 180 at a resolution of 60 (both rounded down), so
// job 3 (2 CPUs, 70 s), which ends before 100 but after 60, no longer starts now, and job 2
// (1 CPU, 200 s) is planned at 180 instead of 200.
Planner planned_at_resolution(int64_t resolution_s)
{
	PlannerConfig settings = config(ReservationMode::conservative);
	settings.whole_node_reservations = true;
	settings.reservation_resolution_s = resolution_s;
	Planner planner(settings);
	auto status = planner.rebuild(uniform_cluster(2, 4),
	                              {running(100, 0, 3, 100), running(101, 1, 3, 100)},
	                              {job(1, 6, 100), job(2, 1, 200), job(3, 2, 70)}, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

START_TEST(test_plan_whole_node_reservation_held_in_whole_resolutions)
{
	Planner exact = planned_at_resolution(0);
	ck_assert(exact.plan(0).starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(status_of(exact, 2).start_s, 200);

	Planner rounded = planned_at_resolution(60);
	const Plan plan = rounded.plan(0);
	ck_assert(plan.starts_now.empty());
	ck_assert_int_eq(status_of(rounded, 1).start_s, 100); // its own start is not rounded
	ck_assert_int_eq(status_of(rounded, 2).start_s, 180);
	ck_assert(status_of(rounded, 3).status == JobStatus::reserved);
}
END_TEST

// A reservation within one resolution is held for one (backfill.c _add_reservation): at 300,
// job 1's 100 to 200 rounds to 0 to 0 and is held from 0 to 300, so job 3 waits and job 2 is
// planned at 300.
START_TEST(test_plan_whole_node_reservation_held_at_least_one_resolution)
{
	Planner rounded = planned_at_resolution(300);
	ck_assert(rounded.plan(0).starts_now.empty());
	ck_assert_int_eq(status_of(rounded, 2).start_s, 300);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_whole_node_reservations");
	TCase *tc = tcase_create("whole_node_reservations");
	tcase_add_test(
	    tc, test_plan_whole_node_reservation_lets_the_short_job_start_and_holds_the_long_one);
	tcase_add_test(tc, test_plan_whole_node_reservation_cancelled_gives_back_its_nodes);
	tcase_add_test(tc, test_plan_keeper_with_whole_node_reservations_plans_as_a_rebuild);
	tcase_add_test(tc, test_plan_whole_node_reservation_held_in_whole_resolutions);
	tcase_add_test(tc, test_plan_whole_node_reservation_held_at_least_one_resolution);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
