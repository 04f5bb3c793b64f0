// Unit tests of describe_plan: the line sched/campaign logs at BackfillMap and campsim's
// --dump-plan prints, read by scripts/replay_plan_map.py. Times are from the plan's time, running
// jobs by expected end, planned jobs by start, the room as the planner sized it.
#include "check_main.h"
#include "plan/plan_text.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

START_TEST(test_plan_line_lists_ends_starts_and_room)
{
	const Cluster cluster = uniform_cluster(2, 8);
	const std::vector<RunningJob> jobs_running = {running(7, 1, 4, 130), running(5, 0, 8, 110)};
	PlannerConfig with_room = config(ReservationMode::conservative);
	with_room.short_room = 0.25; // 4 of 16 CPUs
	with_room.short_limit_s = 60;
	Planner planner(with_room);
	// 3 starts now beside job 7; 4 waits for job 5's end; 2 (long) can use no CPU of the room.
	ck_assert(
	    planner
	        .rebuild(cluster, jobs_running, {job(3, 4, 60), job(4, 8, 60), job(2, 4, 120)}, 100)
	        .ok());
	const Plan plan = planner.plan(100);
	ck_assert_int_eq(planner.short_room_cpus(), 4);
	ck_assert_string_eq(describe_plan(plan, jobs_running, cluster, planner.short_room_cpus()),
	                    "room=4 running=5>+10,7>+30 planned=3@+0/60:n1x4,4@+10/60:n0x8,"
	                    "2@+30/120:n1x4");
}
END_TEST

// A job over two nodes lists both; an empty plan says so.
START_TEST(test_plan_line_of_a_split_job_and_of_nothing)
{
	const Cluster cluster = uniform_cluster(2, 4);
	Planner planner(config(ReservationMode::conservative));
	ck_assert(planner.rebuild(cluster, {}, {job(9, 6, 60)}, 0).ok());
	ck_assert_string_eq(describe_plan(planner.plan(0), {}, cluster, 0),
	                    "room=0 running= planned=9@+0/60:n0x4+n1x2");
	ck_assert_string_eq(describe_plan(Plan{}, {}, cluster, 0), "room=0 running= planned=");
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_text");
	TCase *tc = tcase_create("plan_text");
	tcase_add_test(tc, test_plan_line_lists_ends_starts_and_room);
	tcase_add_test(tc, test_plan_line_of_a_split_job_and_of_nothing);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
