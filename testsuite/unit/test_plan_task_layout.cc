// Unit tests of the task layout in the planner's node choice (PendingJob::cpus_per_task,
// tasks_per_node, spread), as select/cons_tres places tasks: a node takes whole tasks only (7
// free CPUs hold one task of 4), --ntasks-per-node puts exactly that many tasks on every node
// used (so it fixes the node count), and --spread-job uses as many nodes as allowed, one task each
// first. The default layout (one CPU a task, any number a node) plans as before.
#include "check_main.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// CPUs the job holds on each of its nodes, by node index.
std::vector<std::pair<NodeIndex, int32_t>> shape_of(const PlannedJob &planned)
{
	std::vector<std::pair<NodeIndex, int32_t>> shape;
	for (const NodeAllocation &allocation : planned.allocations)
		shape.emplace_back(allocation.node, allocation.cpus);
	return shape;
}

using Shape = std::vector<std::pair<NodeIndex, int32_t>>;

PendingJob tasks_job(JobId id, int32_t tasks, int32_t cpus_per_task, int64_t limit_s)
{
	PendingJob pending = job(id, tasks * cpus_per_task, limit_s);
	pending.cpus_per_task = cpus_per_task;
	return pending;
}

// Four nodes of 8 CPUs, 3 of each busy until t = 500: 5 free CPUs a node.
std::vector<RunningJob> three_busy_on_each(int nodes)
{
	std::vector<RunningJob> busy;
	for (int node = 0; node < nodes; ++node)
		busy.push_back(running(100 + node, node, 3, 500));
	return busy;
}

} // namespace

// -n 4 -c 3 on four 8-CPU nodes with 5 free CPUs each: one task of 3 a node, so all four nodes
// now, 3 CPUs each. Counted as 12 CPUs alone (the old plan) it took 5 + 5 + 2 on three nodes,
// a layout whose third node holds no whole task.
START_TEST(test_plan_places_whole_tasks_only)
{
	Planner planner =
	    planned(uniform_cluster(4, 8), three_busy_on_each(4), {tasks_job(1, 4, 3, 100)});
	const Plan plan = planner.plan(0);
	ck_assert_uint_eq(plan.starts_now.size(), 1);
	ck_assert(shape_of(plan.planned.at(1)) == (Shape{{0, 3}, {1, 3}, {2, 3}, {3, 3}}));
}
END_TEST

// The same job on three such nodes has no place now (three tasks fit): it is reserved at 500,
// when the busy CPUs come back, not started now on a layout Slurm cannot give.
START_TEST(test_plan_reserves_a_job_whose_tasks_do_not_fit_now)
{
	Planner planner =
	    planned(uniform_cluster(3, 8), three_busy_on_each(3), {tasks_job(1, 4, 3, 100)});
	const PlannedJob planned_job = status_of(planner, 1);
	ck_assert(planned_job.status == JobStatus::reserved);
	ck_assert_int_eq(planned_job.start_s, 500);
	int32_t cpus = 0;
	for (const NodeAllocation &allocation : planned_job.allocations) {
		ck_assert_int_eq(allocation.cpus % 3, 0);
		cpus += allocation.cpus;
	}
	ck_assert_int_eq(cpus, 12);
}
END_TEST

// A node with 7 free CPUs takes one task of 4, not 7/4 of one: -n 2 -c 4 on two nodes with 7
// free needs both, 4 CPUs each.
START_TEST(test_plan_a_node_takes_no_part_of_a_task)
{
	Planner planner =
	    planned(uniform_cluster(2, 8), {running(100, 0, 1, 500), running(101, 1, 1, 500)},
	            {tasks_job(1, 2, 4, 100)});
	ck_assert(shape_of(planner.plan(0).planned.at(1)) == (Shape{{0, 4}, {1, 4}}));
}
END_TEST

// --ntasks-per-node=2 with -n 4 on idle 8-CPU nodes: two nodes of 2 tasks, though one node
// holds all four; with -c 2 each node holds 4 CPUs.
START_TEST(test_plan_tasks_per_node_fixes_the_node_count)
{
	PendingJob per_node = job(1, 4, 100);
	per_node.tasks_per_node = 2;
	PendingJob wide_tasks = tasks_job(2, 4, 2, 100);
	wide_tasks.tasks_per_node = 2;
	Planner planner = planned(uniform_cluster(4, 8), {}, {per_node, wide_tasks});
	const Plan plan = planner.plan(0);
	ck_assert_uint_eq(plan.starts_now.size(), 2);
	const Shape first = shape_of(plan.planned.at(1));
	ck_assert_uint_eq(first.size(), 2);
	ck_assert_int_eq(first[0].second, 2);
	ck_assert_int_eq(first[1].second, 2);
	const Shape second = shape_of(plan.planned.at(2));
	ck_assert_uint_eq(second.size(), 2);
	ck_assert_int_eq(second[0].second, 4);
	ck_assert_int_eq(second[1].second, 4);
}
END_TEST

// --ntasks-per-node=3 -c 2: a node with 5 free CPUs holds fewer than 3 tasks and takes none; the
// job waits for two nodes of 6 free CPUs.
START_TEST(test_plan_tasks_per_node_passes_over_a_node_with_room_for_fewer)
{
	PendingJob per_node = tasks_job(1, 6, 2, 100);
	per_node.tasks_per_node = 3;
	Planner planner =
	    planned(uniform_cluster(3, 8),
	            {running(100, 0, 3, 500), running(101, 1, 3, 500), running(102, 2, 1, 300)},
	            {per_node});
	const PlannedJob planned_job = status_of(planner, 1);
	ck_assert(planned_job.status == JobStatus::reserved);
	ck_assert_int_eq(planned_job.start_s, 500);
	for (const NodeAllocation &allocation : planned_job.allocations)
		ck_assert_int_eq(allocation.cpus, 6);
}
END_TEST

// --spread-job -n 4 (its nodes_max is its task count, as job_mgr.c sets it) on idle 8-CPU
// nodes: four nodes, one task each, where the default layout puts all four on one node.
START_TEST(test_plan_spread_uses_as_many_nodes_as_allowed)
{
	PendingJob spread = job(1, 4, 100);
	spread.spread = true;
	spread.nodes_max = 4;
	Planner planner = planned(uniform_cluster(6, 8), {}, {spread, job(2, 4, 100)});
	const Plan plan = planner.plan(0);
	ck_assert(shape_of(plan.planned.at(1)) == (Shape{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
	ck_assert_uint_eq(plan.planned.at(2).allocations.size(), 1);
}
END_TEST

// --spread-job -n 8 with nodes_max 3: three nodes, one task each first, the rest on the first
// (as _eval_nodes_spread's first node takes what the others do not need).
START_TEST(test_plan_spread_fills_its_first_node_after_one_task_each)
{
	PendingJob spread = job(1, 8, 100);
	spread.spread = true;
	spread.nodes_max = 3;
	Planner planner = planned(uniform_cluster(4, 8), {}, {spread});
	ck_assert(shape_of(planner.plan(0).planned.at(1)) == (Shape{{0, 6}, {1, 1}, {2, 1}}));
}
END_TEST

// The default layout plans as before: 12 CPUs on nodes with 5 free take three nodes (5 + 5 + 2).
START_TEST(test_plan_default_layout_counts_cpus_only)
{
	Planner planner = planned(uniform_cluster(4, 8), three_busy_on_each(4), {job(1, 12, 100)});
	ck_assert_uint_eq(planner.plan(0).planned.at(1).allocations.size(), 3);
}
END_TEST

// A bad layout is an error naming the job; the plan is left empty.
START_TEST(test_plan_rejects_a_bad_layout)
{
	PendingJob bad = job(7, 4, 100);
	bad.cpus_per_task = 0;
	Planner planner(config(ReservationMode::conservative));
	auto status = planner.rebuild(uniform_cluster(2, 8), {}, {bad}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 7") != std::string::npos &&
	                  status.error().find("cpus_per_task") != std::string::npos,
	              "%s", status.error().c_str());
	PendingJob negative = job(8, 4, 100);
	negative.tasks_per_node = -1;
	status = planner.rebuild(uniform_cluster(2, 8), {}, {negative}, 0);
	ck_assert(!status.ok());
	ck_assert(status.error().find("tasks_per_node") != std::string::npos);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_task_layout");
	TCase *tc = tcase_create("task_layout");
	tcase_add_test(tc, test_plan_places_whole_tasks_only);
	tcase_add_test(tc, test_plan_reserves_a_job_whose_tasks_do_not_fit_now);
	tcase_add_test(tc, test_plan_a_node_takes_no_part_of_a_task);
	tcase_add_test(tc, test_plan_tasks_per_node_fixes_the_node_count);
	tcase_add_test(tc, test_plan_tasks_per_node_passes_over_a_node_with_room_for_fewer);
	tcase_add_test(tc, test_plan_spread_uses_as_many_nodes_as_allowed);
	tcase_add_test(tc, test_plan_spread_fills_its_first_node_after_one_task_each);
	tcase_add_test(tc, test_plan_default_layout_counts_cpus_only);
	tcase_add_test(tc, test_plan_rejects_a_bad_layout);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
