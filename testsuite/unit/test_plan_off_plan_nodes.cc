// Unit tests of OffPlanNodes with the planner's own starts: select is told only which nodes a
// job may use, and packs onto one node a job the plan split over two (to keep CPUs for a later
// reservation). A pass that started the rest of its plan as planned had Slurm refuse a start
// on the node packed (test_mixed_vs_backfill, issue 15 point 7); the guard leaves such a start
// to the next pass, and no other start.
#include "check_main.h"
#include "plan/off_plan_nodes.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// select/cons_tres within the plan's nodes, as seen from outside: the one node that holds the
// whole job with the fewest CPUs to spare (best fit), else the nodes with the most free CPUs
// first. Empty: it does not fit (Slurm: "Requested nodes are busy").
std::vector<NodeAllocation> select_within(const std::vector<NodeAllocation> &planned, int32_t cpus,
                                          const std::vector<int32_t> &free_cpus)
{
	const NodeAllocation *best = nullptr;
	for (const NodeAllocation &node : planned)
		if (free_cpus[node.node] >= cpus &&
		    (!best || free_cpus[node.node] < free_cpus[best->node]))
			best = &node;
	if (best)
		return {{.node = best->node, .cpus = cpus}};
	std::vector<NodeAllocation> by_free = planned;
	std::sort(by_free.begin(), by_free.end(), [&](const auto &a, const auto &b) {
		return free_cpus[a.node] > free_cpus[b.node];
	});
	std::vector<NodeAllocation> allocated;
	for (const NodeAllocation &node : by_free) {
		const int32_t take = std::min(cpus, free_cpus[node.node]);
		if (take > 0)
			allocated.push_back({.node = node.node, .cpus = take});
		cpus -= take;
	}
	return cpus == 0 ? allocated : std::vector<NodeAllocation>{};
}

struct PassResult {
	std::vector<JobId> started, left_for_next_pass, refused;
};

// A pass as sched/campaign's apply_plan makes it: the plan's starts now in order, each placed
// by select_within on what is free then, the guard asked first and told of each start.
PassResult pass(Planner &planner, const Cluster &cluster, const std::vector<RunningJob> &running,
                bool guarded)
{
	std::vector<int32_t> free_cpus;
	for (const NodeSpec &node : cluster.nodes)
		free_cpus.push_back(node.cpus);
	for (const RunningJob &job : running)
		for (const NodeAllocation &allocation : job.allocations)
			free_cpus[allocation.node] -= allocation.cpus;
	OffPlanNodes off_plan;
	PassResult result;
	const Plan plan = planner.plan(0);
	for (const JobId id : plan.starts_now) {
		const PlannedJob &planned = plan.planned.at(id);
		if (guarded && off_plan.touches(planned.allocations)) {
			result.left_for_next_pass.push_back(id);
			continue;
		}
		int32_t cpus = 0;
		for (const NodeAllocation &allocation : planned.allocations)
			cpus += allocation.cpus;
		const std::vector<NodeAllocation> allocated =
		    select_within(planned.allocations, cpus, free_cpus);
		if (allocated.empty()) {
			result.refused.push_back(id);
			continue;
		}
		for (const NodeAllocation &allocation : allocated)
			free_cpus[allocation.node] -= allocation.cpus;
		off_plan.started(planned.allocations, allocated);
		result.started.push_back(id);
	}
	return result;
}

// Two nodes of 8 CPUs, n0 7 busy until 1000. Job 1 (4 CPUs) may begin at 30: reserved on n1.
// Job 2 (5 CPUs) starts now, split n0:1 n1:4 around it; job 3 (4 CPUs for 20 s) starts now on
// n1's other 4 CPUs, before job 1 begins.
const Cluster kCluster = uniform_cluster(2, 8);
const std::vector<RunningJob> kRunning = {running(100, 0, 7, 1000)};

std::vector<PendingJob> split_queue()
{
	PendingJob begins_later = job(1, 4, 100);
	begins_later.earliest_start_s = 30;
	return {begins_later, job(2, 5, 100), job(3, 4, 20)};
}

} // namespace

START_TEST(test_plan_splits_a_job_that_select_packs)
{
	Planner planner = planned(kCluster, kRunning, split_queue());
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{2, 3}));
	ck_assert_int_eq(plan.planned.at(2).allocations.size(), 2);
	ck_assert_int_eq(plan.planned.at(3).allocations.size(), 1);
	ck_assert_int_eq(plan.planned.at(3).allocations[0].node, 1);
	// Unguarded, as before: select packs job 2 onto n1, and job 3's start there is refused.
	const PassResult unguarded = pass(planner, kCluster, kRunning, false);
	ck_assert(unguarded.refused == std::vector<JobId>{3});
}
END_TEST

START_TEST(test_start_on_a_node_packed_off_plan_waits_for_the_next_pass)
{
	Planner planner = planned(kCluster, kRunning, split_queue());
	const PassResult result = pass(planner, kCluster, kRunning, true);
	ck_assert_msg(result.refused.empty(), "%zu starts refused", result.refused.size());
	ck_assert(result.started == std::vector<JobId>{2});
	ck_assert(result.left_for_next_pass == std::vector<JobId>{3});
}
END_TEST

// Where select allocates as planned (no split), every start of the pass goes ahead.
START_TEST(test_starts_as_planned_are_not_held_back)
{
	const std::vector<PendingJob> queue = {job(1, 5, 100), job(2, 3, 100), job(3, 6, 50)};
	Planner planner = planned(uniform_cluster(2, 8), {}, queue);
	const PassResult result = pass(planner, uniform_cluster(2, 8), {}, true);
	ck_assert(result.refused.empty());
	ck_assert(result.left_for_next_pass.empty());
	ck_assert_int_eq(result.started.size(), planner.plan(0).starts_now.size());
	ck_assert_int_eq(result.started.size(), 3);
}
END_TEST

// Fewer CPUs than planned on a node, or fewer nodes, leave more room: nothing recorded. More
// CPUs, or a node the plan did not give the job, are recorded; only starts there are touched.
START_TEST(test_off_plan_nodes_records_only_nodes_given_more)
{
	OffPlanNodes off_plan;
	ck_assert(!off_plan.started({{.node = 0, .cpus = 4}, {.node = 1, .cpus = 4}},
	                            {{.node = 0, .cpus = 4}, {.node = 1, .cpus = 2}}));
	ck_assert(!off_plan.started({{.node = 0, .cpus = 2}, {.node = 1, .cpus = 2}},
	                            {{.node = 1, .cpus = 2}}));
	ck_assert(off_plan.empty());
	ck_assert(off_plan.started({{.node = 0, .cpus = 1}, {.node = 1, .cpus = 4}},
	                           {{.node = 1, .cpus = 5}}));
	ck_assert(off_plan.touches({{.node = 1, .cpus = 1}}));
	ck_assert(!off_plan.touches({{.node = 0, .cpus = 1}, {.node = 2, .cpus = 8}}));
	ck_assert(off_plan.started({{.node = 0, .cpus = 1}}, {{.node = 3, .cpus = 1}}));
	ck_assert(off_plan.touches({{.node = 3, .cpus = 2}}));
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_off_plan_nodes");
	TCase *tc = tcase_create("off_plan_nodes");
	tcase_add_test(tc, test_plan_splits_a_job_that_select_packs);
	tcase_add_test(tc, test_start_on_a_node_packed_off_plan_waits_for_the_next_pass);
	tcase_add_test(tc, test_starts_as_planned_are_not_held_back);
	tcase_add_test(tc, test_off_plan_nodes_records_only_nodes_given_more);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
