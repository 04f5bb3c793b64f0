// Unit tests of unavailable windows (reservations that start later, such as maintenance) in the
// planner: no job is placed to run into one, jobs that end before it start now, a job it blocks
// is placed at its end, a kept plan is rebuilt when a window appears, and bad windows are named.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// Two nodes of 16 CPUs; `nodes` are unavailable over [100, 200).
Cluster cluster_with_window(std::vector<NodeIndex> nodes)
{
	Cluster cluster = uniform_cluster(2, 16);
	cluster.unavailable.push_back({.nodes = std::move(nodes), .start_s = 100, .end_s = 200});
	return cluster;
}

} // namespace

// A window over the whole machine: the whole-machine job is reserved at its end; a job that
// ends exactly at its start starts now; one a second longer does not (it would run into it) and
// waits for the reserved job.
START_TEST(test_plan_window_over_every_node_blocks_jobs_that_would_run_into_it)
{
	Planner planner = planned(cluster_with_window({0, 1}), {},
	                          {job(1, 32, 150), job(2, 8, 100), job(3, 8, 101)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{2});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert(status_of(planner, 3).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 3).start_s, 350);
}
END_TEST

// A window over n0 only, n1 busy until 300: a job of a whole node cannot start on n0 now
// (it would run into the window) and is placed on n0 at the window's end; a job that ends
// before the window starts on n0 now.
START_TEST(test_plan_window_over_some_nodes_places_a_blocked_job_at_its_end)
{
	Planner planner = planned(cluster_with_window({0}), {running(100, 1, 16, 300)},
	                          {job(1, 16, 150), job(2, 4, 90)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{2});
	ck_assert_int_eq(plan.planned.at(2).allocations[0].node, 0);
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 0);
}
END_TEST

// n0 is unavailable over [100, 200) and a running job holds half of it until 250; n1 is busy
// until 300. A job that ends before the window starts now in n0's free half; one a little
// longer would run into the window and is placed in that half at its end: the running job
// keeps its CPUs, the window gives back only what it took.
START_TEST(test_plan_running_job_into_a_window_keeps_its_cpus_after_it)
{
	Planner planner =
	    planned(cluster_with_window({0}), {running(100, 0, 8, 250), running(101, 1, 16, 300)},
	            {job(1, 8, 150), job(2, 8, 100), job(3, 16, 50)});
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 0);
	ck_assert_int_eq(status_of(planner, 3).start_s, 300); // n0 whole only from 350, n1 at 300
}
END_TEST

// A window that appears between two snapshots of the same jobs is planned at once: the
// PlanKeeper does not keep the plan made without it.
START_TEST(test_plan_keeper_plans_afresh_when_a_window_appears)
{
	PlanKeeper keeper(config(ReservationMode::conservative));
	const std::vector<PendingJob> queue{job(1, 32, 150)};
	auto before = keeper.update(uniform_cluster(2, 16), {}, queue, 0);
	ck_assert(before.ok());
	ck_assert(before.value().starts_now == std::vector<JobId>{1});
	auto after = keeper.update(cluster_with_window({0, 1}), {}, queue, 0);
	ck_assert(after.ok());
	ck_assert(after.value().starts_now.empty());
	ck_assert_int_eq(after.value().planned.at(1).start_s, 200);
}
END_TEST

// --time-min, as sched/backfill: a window over the whole machine at [300, 400); a job of 10
// minutes with a 1-minute minimum starts now for the longest whole minutes that end by the
// window (5); one whose minimum (6 minutes) does not fit is reserved after it, its limit whole.
START_TEST(test_plan_time_min_job_starts_now_with_the_limit_that_fits_before_a_window)
{
	Cluster cluster = uniform_cluster(2, 16);
	cluster.unavailable.push_back({.nodes = {0, 1}, .start_s = 300, .end_s = 400});
	PendingJob shortened = job(1, 16, 600);
	shortened.limit_min_s = 60;
	PendingJob too_long = job(2, 16, 600);
	too_long.limit_min_s = 360;
	Planner planner = planned(cluster, {}, {shortened, too_long});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).limit_s, 300);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 400);
	ck_assert_int_eq(status_of(planner, 2).limit_s, 600);
	PendingJob bad = job(3, 1, 60);
	bad.limit_min_s = 120;
	auto status = planner.rebuild(cluster, {}, {bad}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 3: minimum time limit 120 s") != std::string::npos,
	              "%s", status.error().c_str());
}
END_TEST

START_TEST(test_plan_rejects_bad_windows_saying_what_is_wrong)
{
	Planner planner(config(ReservationMode::conservative));
	Cluster cluster = uniform_cluster(2, 16);
	cluster.unavailable.push_back({.nodes = {0}, .start_s = 200, .end_s = 100});
	auto status = planner.rebuild(cluster, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("ends (100 s) before it starts (200 s)") !=
	                  std::string::npos,
	              "%s", status.error().c_str());
	cluster.unavailable = {{.nodes = {5}, .start_s = 100, .end_s = 200}};
	status = planner.rebuild(cluster, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("node index 5") != std::string::npos, "%s",
	              status.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_unavailable");
	TCase *tc = tcase_create("unavailable");
	tcase_add_test(tc, test_plan_window_over_every_node_blocks_jobs_that_would_run_into_it);
	tcase_add_test(tc, test_plan_window_over_some_nodes_places_a_blocked_job_at_its_end);
	tcase_add_test(tc, test_plan_running_job_into_a_window_keeps_its_cpus_after_it);
	tcase_add_test(tc, test_plan_keeper_plans_afresh_when_a_window_appears);
	tcase_add_test(tc,
	               test_plan_time_min_job_starts_now_with_the_limit_that_fits_before_a_window);
	tcase_add_test(tc, test_plan_rejects_bad_windows_saying_what_is_wrong);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
