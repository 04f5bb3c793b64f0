// Unit tests of jobs with several node sets (a job submitted to several partitions, -p a,b): it
// is planned in whichever set starts it first, the first set on ties; a set too small for it
// does not make it unrunnable; compression moves it into another set when that one frees up
// first; a bad node index in any set is named.
#include "check_main.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// n0 and n1 of 8 CPUs each, the first set {n0}, the second {n1}.
PendingJob two_set_job(JobId id, int32_t cpus, int64_t limit_s)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.allowed_nodes = {0};
	pending.other_node_sets = {{1}};
	return pending;
}

} // namespace

// n0 busy until 100, n1 free: the job starts now in its second set, on n1.
START_TEST(test_plan_starts_a_job_now_in_its_second_set)
{
	Planner planner =
	    planned(uniform_cluster(2, 8), {running(100, 0, 8, 100)}, {two_set_job(1, 8, 50)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).node_set, 1);
	ck_assert_int_eq(plan.planned.at(1).allocations[0].node, 1);
}
END_TEST

// Both busy: reserved where it starts first (n1 free at 100, n0 at 200), and in the first set
// when that one frees first.
START_TEST(test_plan_reserves_a_job_in_the_set_that_starts_it_first)
{
	Planner later_first =
	    planned(uniform_cluster(2, 8), {running(100, 0, 8, 200), running(101, 1, 8, 100)},
	            {two_set_job(1, 8, 50)});
	ck_assert(status_of(later_first, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(later_first, 1).start_s, 100);
	ck_assert_int_eq(status_of(later_first, 1).node_set, 1);
	ck_assert_int_eq(status_of(later_first, 1).allocations[0].node, 1);
	Planner first_first =
	    planned(uniform_cluster(2, 8), {running(100, 0, 8, 100), running(101, 1, 8, 200)},
	            {two_set_job(1, 8, 50)});
	ck_assert_int_eq(status_of(first_first, 1).start_s, 100);
	ck_assert_int_eq(status_of(first_first, 1).node_set, 0);
	ck_assert_int_eq(status_of(first_first, 1).allocations[0].node, 0);
}
END_TEST

// Both free: the first set (Slurm's queue order) wins the tie.
START_TEST(test_plan_prefers_the_first_set_on_ties)
{
	Planner planner = planned(uniform_cluster(2, 8), {}, {two_set_job(1, 4, 50)});
	ck_assert_int_eq(status_of(planner, 1).node_set, 0);
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 0);
}
END_TEST

// The first set is too small for the job (a node of 4 CPUs): it still runs, in the second.
START_TEST(test_plan_runs_a_job_too_big_for_its_first_set_in_another)
{
	Cluster cluster = uniform_cluster(2, 8);
	cluster.nodes[0].cpus = 4;
	Planner planner = planned(cluster, {running(100, 1, 8, 100)}, {two_set_job(1, 8, 50)});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert_int_eq(status_of(planner, 1).node_set, 1);
}
END_TEST

// Kept plan: reserved at 200 in its first set; the job on n1 ends early at 10, and compression
// moves the reservation into the second set, now.
START_TEST(test_plan_compression_moves_a_job_into_a_set_freed_first)
{
	Planner planner =
	    planned(uniform_cluster(2, 8), {running(100, 0, 8, 200), running(101, 1, 8, 300)},
	            {two_set_job(1, 8, 50)});
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert_int_eq(status_of(planner, 1).node_set, 0);
	auto status = planner.job_ended(101, 10);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	const Plan plan = planner.plan(10);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).node_set, 1);
	ck_assert_int_eq(plan.planned.at(1).allocations[0].node, 1);
}
END_TEST

START_TEST(test_plan_names_a_bad_node_in_another_set)
{
	Planner planner(config(ReservationMode::conservative));
	PendingJob bad = two_set_job(7, 1, 50);
	bad.other_node_sets = {{1}, {9}};
	auto status = planner.rebuild(uniform_cluster(2, 8), {}, {bad}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 7: allowed node index 9") != std::string::npos, "%s",
	              status.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_node_sets");
	TCase *tc = tcase_create("node_sets");
	tcase_add_test(tc, test_plan_starts_a_job_now_in_its_second_set);
	tcase_add_test(tc, test_plan_reserves_a_job_in_the_set_that_starts_it_first);
	tcase_add_test(tc, test_plan_prefers_the_first_set_on_ties);
	tcase_add_test(tc, test_plan_runs_a_job_too_big_for_its_first_set_in_another);
	tcase_add_test(tc, test_plan_compression_moves_a_job_into_a_set_freed_first);
	tcase_add_test(tc, test_plan_names_a_bad_node_in_another_set);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
