// Unit tests of node Weight in the planner's node choice: the lightest nodes are filled first, as
// Slurm's select does (several light nodes before one heavier node that alone would do; a job of
// one node at most on the lightest node that holds it), weights only order the choice (a job
// fits wherever it fits without them), equal weights change nothing, and a reserved job is placed
// on the lightest nodes free at its start.
#include "check_main.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// Nodes of these CPUs and weights, in index order.
Cluster weighted_cluster(const std::vector<int32_t> &cpus, const std::vector<uint32_t> &weights)
{
	Cluster cluster;
	for (size_t i = 0; i < cpus.size(); ++i) {
		cluster.nodes.push_back({"n" + std::to_string(i), cpus[i], 64000, NodeState::up});
		cluster.nodes.back().weight = weights[i];
	}
	return cluster;
}

std::vector<NodeIndex> nodes_of(const PlannedJob &planned)
{
	std::vector<NodeIndex> nodes;
	for (const NodeAllocation &allocation : planned.allocations)
		nodes.push_back(allocation.node);
	return nodes;
}

PendingJob one_node_job(JobId id, int32_t cpus, int64_t limit_s)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.nodes_max = 1;
	return pending;
}

} // namespace

// Four nodes of 8 CPUs, n2 and n3 the lightest: single-CPU-ish jobs go there first, best fit
// among them (n2 after the first job has the fewest spare CPUs); only when they are full do
// jobs go to n0 (best fit, then the lowest index among the heavier ones).
START_TEST(test_plan_fills_the_lightest_nodes_first)
{
	Planner planner = planned(weighted_cluster({8, 8, 8, 8}, {10, 10, 1, 1}), {},
	                          {job(1, 4, 100), job(2, 4, 100), job(3, 8, 100), job(4, 2, 100)});
	const Plan plan = planner.plan(0);
	ck_assert_uint_eq(plan.starts_now.size(), 4);
	ck_assert(nodes_of(plan.planned.at(1)) == std::vector<NodeIndex>{2});
	ck_assert(nodes_of(plan.planned.at(2)) == std::vector<NodeIndex>{2});
	ck_assert(nodes_of(plan.planned.at(3)) == std::vector<NodeIndex>{3});
	ck_assert(nodes_of(plan.planned.at(4)) == std::vector<NodeIndex>{0});
}
END_TEST

// Two light nodes of 4 CPUs and a heavy one of 8: an 8-CPU job takes both light nodes, as
// cons_tres takes the lightest node set first (without weights it is best fit on n2 alone).
START_TEST(test_plan_takes_several_light_nodes_before_one_heavy_node)
{
	Planner planner = planned(weighted_cluster({4, 4, 8}, {1, 1, 5}), {}, {job(1, 8, 100)});
	ck_assert(nodes_of(planner.plan(0).planned.at(1)) == (std::vector<NodeIndex>{0, 1}));
	Planner unweighted = planned(weighted_cluster({4, 4, 8}, {3, 3, 3}), {}, {job(1, 8, 100)});
	ck_assert(nodes_of(unweighted.plan(0).planned.at(1)) == std::vector<NodeIndex>{2});
}
END_TEST

// A job of one node at most (-N 1) passes over the light nodes too small for it and takes the
// lightest node that holds it: n1 (weight 5), not n2 (weight 9), whichever fits tighter.
START_TEST(test_plan_puts_a_one_node_job_on_the_lightest_node_that_holds_it)
{
	Planner planner =
	    planned(weighted_cluster({4, 16, 8}, {1, 5, 9}), {}, {one_node_job(1, 8, 100)});
	ck_assert(nodes_of(planner.plan(0).planned.at(1)) == std::vector<NodeIndex>{1});
}
END_TEST

// Weights only order the choice: three light nodes of 2 CPUs cannot hold 12 CPUs on two nodes,
// two heavy nodes of 8 can, and the job starts there (not "cannot run").
START_TEST(test_plan_weights_never_make_a_job_unfit)
{
	PendingJob two_nodes = job(1, 12, 100);
	two_nodes.nodes_max = 2;
	Planner planner =
	    planned(weighted_cluster({2, 2, 2, 8, 8}, {1, 1, 1, 5, 5}), {}, {two_nodes});
	ck_assert(status_of(planner, 1).status == JobStatus::starts_now);
	ck_assert(nodes_of(status_of(planner, 1)) == (std::vector<NodeIndex>{3, 4}));
}
END_TEST

// A reserved job: the light node n1 is busy until 200, the heavy n0 until 100, and the job
// needs a whole node. It is placed at 100 on n0 (the earliest start wins over weight), and a
// second whole-node job at 200 goes to the light n1 though n0 is free then too.
START_TEST(test_plan_places_reserved_jobs_on_the_lightest_nodes_free_at_their_start)
{
	Planner planner = planned(weighted_cluster({8, 8}, {9, 1}),
	                          {running(100, 0, 8, 100), running(101, 1, 8, 200)},
	                          {job(1, 8, 100), job(2, 8, 100)});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert(nodes_of(status_of(planner, 1)) == std::vector<NodeIndex>{0});
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 200);
	ck_assert(nodes_of(status_of(planner, 2)) == std::vector<NodeIndex>{1});
}
END_TEST

// Equal weights (any value) give the unweighted choice: best fit, then the lowest index.
START_TEST(test_plan_equal_weights_keep_best_fit)
{
	Planner planner = planned(weighted_cluster({8, 4, 4}, {7, 7, 7}), {running(100, 2, 1, 500)},
	                          {job(1, 3, 100), job(2, 4, 100)});
	const Plan plan = planner.plan(0);
	ck_assert(nodes_of(plan.planned.at(1)) == std::vector<NodeIndex>{2});
	ck_assert(nodes_of(plan.planned.at(2)) == std::vector<NodeIndex>{1});
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_node_weight");
	TCase *tc = tcase_create("node_weight");
	tcase_add_test(tc, test_plan_fills_the_lightest_nodes_first);
	tcase_add_test(tc, test_plan_takes_several_light_nodes_before_one_heavy_node);
	tcase_add_test(tc, test_plan_puts_a_one_node_job_on_the_lightest_node_that_holds_it);
	tcase_add_test(tc, test_plan_weights_never_make_a_job_unfit);
	tcase_add_test(tc,
	               test_plan_places_reserved_jobs_on_the_lightest_nodes_free_at_their_start);
	tcase_add_test(tc, test_plan_equal_weights_keep_best_fit);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
