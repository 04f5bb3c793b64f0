// Unit tests of the planner on hand-worked schedules: EASY, conservative, per-campaign and none
// on one queue, node identity (not CPU counts), memory, exclusive jobs, DOWN nodes, partitions.
#include "check_main.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// The worked queue (hand-computed, in the style of Mu'alem & Feitelson 2001, Fig. 1): one node of
// 4 CPUs, a running job R holds 2 CPUs until t=10, now = 0. Rank order A, B, C, D, E, F.
//   A 4 CPUs 10 s | B 2 CPUs 20 s | C 1 CPU 5 s | D 1 CPU 10 s | E 2 CPUs 5 s | F 1 CPU 100 s
// EASY: A reserved at 10 (R ends); B would overlap A's [10,20) so it waits; C [0,5) and D [0,10)
// fit beside R without touching A; E and F find no CPU now.
// Conservative: A at 10; B at 20 (after A); C, D now; E: [5,10) has 1 free, A holds [10,20),
// B leaves 2 free from 20 -> E at 20; F: first 1-CPU gap of 100 s opens at 25 (E ends).
std::vector<PendingJob> worked_queue()
{
	return {job(1, 4, 10), job(2, 2, 20), job(3, 1, 5),
	        job(4, 1, 10), job(5, 2, 5),  job(6, 1, 100)};
}

Planner planned(ReservationMode mode, const std::vector<PendingJob> &queue)
{
	Planner planner(config(mode));
	auto status = planner.rebuild(uniform_cluster(1, 4), {running(100, 0, 2, 10)}, queue, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

} // namespace

START_TEST(test_plan_easy_reserves_head_and_backfills_around_it)
{
	Planner planner = planned(ReservationMode::easy, worked_queue());
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.starts_now.size(), 2);
	ck_assert_int_eq(plan.starts_now[0], 3);
	ck_assert_int_eq(plan.starts_now[1], 4);
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(plan.planned.at(1).start_s, 10);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 5).status == JobStatus::waiting);
	ck_assert(status_of(planner, 6).status == JobStatus::waiting);
}
END_TEST

START_TEST(test_plan_conservative_reserves_every_job_in_rank_order)
{
	Planner planner = planned(ReservationMode::conservative, worked_queue());
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.starts_now.size(), 2);
	ck_assert_int_eq(plan.planned.at(1).start_s, 10);
	ck_assert_int_eq(plan.planned.at(2).start_s, 20);
	ck_assert_int_eq(plan.planned.at(3).start_s, 0);
	ck_assert_int_eq(plan.planned.at(4).start_s, 0);
	ck_assert_int_eq(plan.planned.at(5).start_s, 20);
	ck_assert_int_eq(plan.planned.at(6).start_s, 25);
}
END_TEST

START_TEST(test_plan_greedy_is_first_fit)
{
	// No reservation: A cannot start, B takes the 2 free CPUs for [0,20), nothing else fits.
	Planner planner = planned(ReservationMode::greedy, worked_queue());
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.starts_now.size(), 1);
	ck_assert_int_eq(plan.starts_now[0], 2);
	ck_assert_int_eq(plan.planned.size(), 1);
}
END_TEST

START_TEST(test_plan_depth_limits_conservative_reservations)
{
	// Depth 2: A and B reserved (10, 20); E and F are beyond the depth and do not fit now.
	Planner planner(config(ReservationMode::conservative, 2));
	ck_assert(
	    planner.rebuild(uniform_cluster(1, 4), {running(100, 0, 2, 10)}, worked_queue(), 0)
	        .ok());
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert(status_of(planner, 5).status == JobStatus::waiting);
	ck_assert(status_of(planner, 6).status == JobStatus::waiting);
}
END_TEST

START_TEST(test_plan_per_campaign_reserves_each_campaign_head)
{
	// Hand-worked: same machine. A (campaign 1, 4 CPUs 10 s), B (campaign 1, 2 CPUs 20 s),
	// E (campaign 2, 3 CPUs 5 s), C (campaign 3, 1 CPU 5 s).
	// per_campaign: A reserved at 10; B is campaign 1's second job: it only may start now, and
	// [0,20) would overlap A -> waits; E heads campaign 2: reserved at 20 (after A); C now.
	// conservative puts E at 40 (behind B's reservation [20,40)); EASY reserves nothing for E.
	std::vector<PendingJob> queue{job(1, 4, 10, 1), job(2, 2, 20, 1), job(5, 3, 5, 2),
	                              job(3, 1, 5, 3)};
	Planner per_campaign = planned(ReservationMode::per_campaign, queue);
	ck_assert(status_of(per_campaign, 2).status == JobStatus::waiting);
	ck_assert_int_eq(status_of(per_campaign, 5).start_s, 20);
	ck_assert(status_of(per_campaign, 3).status == JobStatus::starts_now);
	Planner conservative = planned(ReservationMode::conservative, queue);
	ck_assert_int_eq(status_of(conservative, 5).start_s, 40);
	Planner easy = planned(ReservationMode::easy, queue);
	ck_assert(status_of(easy, 5).status == JobStatus::waiting);
}
END_TEST

START_TEST(test_plan_lists_bookings_only_in_per_campaign)
{
	// Only per_campaign's kept minima read the profile's booking log: other modes leave it
	// empty, also after a second rebuild (a new profile assigned to the planner), and
	// per_campaign still lists then.
	for (const ReservationMode mode : {ReservationMode::conservative, ReservationMode::easy,
	                                   ReservationMode::per_campaign}) {
		Planner planner = planned(mode, worked_queue());
		ck_assert(
		    planner
		        .rebuild(uniform_cluster(1, 4), {running(100, 0, 2, 10)}, worked_queue(), 0)
		        .ok());
		const size_t listed = planner.profile().booking_log().mark().size;
		if (mode == ReservationMode::per_campaign)
			ck_assert_uint_gt(listed, 0);
		else
			ck_assert_uint_eq(listed, 0);
	}
}
END_TEST

START_TEST(test_plan_counts_cpus_per_node_not_in_total)
{
	// Klusáček's thesis (2011) counts a gap's CPUs, not where they are: 2 nodes x 4 CPUs,
	// 2 CPUs busy on each until 10. Four CPUs are free in total, but a one-node 4-CPU job
	// cannot start before 10; the same job allowed to spread starts now on both nodes.
	Planner planner(config(ReservationMode::conservative));
	PendingJob one_node = job(1, 4, 50);
	one_node.nodes_max = 1;
	PendingJob spread = job(2, 4, 5);
	ck_assert(planner
	              .rebuild(uniform_cluster(2, 4),
	                       {running(100, 0, 2, 10), running(101, 1, 2, 10)}, {one_node, spread},
	                       0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 10);
	ck_assert_int_eq(status_of(planner, 2).start_s, 0);
	ck_assert_int_eq(status_of(planner, 2).allocations.size(), 2);
}
END_TEST

START_TEST(test_plan_memory_is_a_resource_per_node)
{
	// Node: 4 CPUs, 8000 MB; a running job holds 1 CPU and 7000 MB until 50. A job asking
	// 1 CPU and 2000 MB per node has free CPUs now but not the memory: it starts at 50.
	Planner planner(config(ReservationMode::conservative));
	PendingJob hungry = job(1, 1, 10);
	hungry.memory_per_node_mb = 2000;
	PendingJob small = job(2, 2, 10);
	small.memory_per_cpu_mb = 400; // 800 MB: fits in the 1000 MB left
	ck_assert(planner
	              .rebuild(uniform_cluster(1, 4, 8000), {running(100, 0, 1, 50, 7000)},
	                       {hungry, small}, 0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 50);
	ck_assert_int_eq(status_of(planner, 2).start_s, 0);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].memory_mb, 800);
}
END_TEST

START_TEST(test_plan_exclusive_job_waits_for_an_empty_node_and_keeps_it)
{
	// One CPU of node 0 is busy until 30: the exclusive job starts at 30 and takes all 8 CPUs
	// and all memory; a later 1-CPU job cannot share the node while it runs ([30,40)).
	Planner planner(config(ReservationMode::conservative));
	PendingJob whole = job(1, 2, 10);
	whole.exclusive = true;
	PendingJob tiny = job(2, 1, 40);
	ck_assert(planner.rebuild(uniform_cluster(1, 8), {running(100, 0, 1, 30)}, {whole, tiny}, 0)
	              .ok());
	PlannedJob planned_whole = status_of(planner, 1);
	ck_assert_int_eq(planned_whole.start_s, 30);
	ck_assert_int_eq(planned_whole.allocations[0].cpus, 8);
	ck_assert_int_eq(status_of(planner, 2).start_s, 40);
}
END_TEST

START_TEST(test_plan_down_and_drained_nodes_are_never_planned)
{
	Cluster cluster = uniform_cluster(3, 4);
	cluster.nodes[0].state = NodeState::down;
	cluster.nodes[1].state = NodeState::drain;
	PendingJob only_down = job(1, 1, 10);
	only_down.allowed_nodes = {0, 1};
	PendingJob anywhere = job(2, 4, 10);
	Planner planner(config(ReservationMode::conservative));
	ck_assert(planner.rebuild(cluster, {}, {only_down, anywhere}, 0).ok());
	ck_assert(status_of(planner, 1).status == JobStatus::cannot_run);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 2);
}
END_TEST

START_TEST(test_plan_overlapping_partitions_share_nodes)
{
	// Partitions P1 = {0,1,2} and P2 = {2,3} overlap on node 2. X takes P1's three nodes
	// whole for [0,100); Y needs both P2 nodes whole: node 2 is X's until 100, so Y waits.
	Planner planner(config(ReservationMode::conservative));
	PendingJob x = job(1, 12, 100);
	x.exclusive = true;
	x.nodes_min = 3;
	x.allowed_nodes = {0, 1, 2};
	PendingJob y = job(2, 8, 10);
	y.exclusive = true;
	y.nodes_min = 2;
	y.allowed_nodes = {2, 3};
	ck_assert(planner.rebuild(uniform_cluster(4, 4), {}, {x, y}, 0).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 0);
	ck_assert_int_eq(status_of(planner, 2).start_s, 100);
}
END_TEST

START_TEST(test_plan_rejects_bad_input_naming_the_job)
{
	Planner planner(config(ReservationMode::easy));
	auto bad_limit = planner.rebuild(uniform_cluster(1, 4), {}, {job(7, 1, 0)}, 0);
	ck_assert(!bad_limit.ok());
	ck_assert(bad_limit.error().find("job 7") != std::string::npos);
	PendingJob bad_node = job(8, 1, 10);
	bad_node.allowed_nodes = {5};
	auto out_of_range = planner.rebuild(uniform_cluster(1, 4), {}, {bad_node}, 0);
	ck_assert(!out_of_range.ok());
	ck_assert(out_of_range.error().find("job 8") != std::string::npos);
	auto twice = planner.rebuild(uniform_cluster(1, 4), {}, {job(9, 1, 5), job(9, 1, 5)}, 0);
	ck_assert(!twice.ok());
}
END_TEST

START_TEST(test_plan_failed_rebuild_leaves_an_empty_plan)
{
	// A snapshot with a bad job is refused whole: nothing of it is planned.
	Planner planner(config(ReservationMode::conservative));
	ck_assert(planner.rebuild(uniform_cluster(1, 4), {}, {job(1, 1, 10)}, 0).ok());
	ck_assert(
	    !planner.rebuild(uniform_cluster(1, 4), {}, {job(2, 1, 10), job(3, 1, -5)}, 0).ok());
	ck_assert_int_eq(planner.pending_count(), 0);
	ck_assert(planner.plan(0).planned.empty());
}
END_TEST

START_TEST(test_plan_usage_example_from_the_readme)
{
	// The usage example of src/common/plan/README.md, as the simulator would run it:
	// 2 nodes x 8 CPUs; job 1 (16 CPUs) fills both nodes now; job 2 (8 CPUs, one node) is
	// reserved at 100; job 1 ends early at 40 and job 2 moves to 40.
	using namespace campaign::plan;
	Planner planner({.mode = ReservationMode::per_campaign, .depth = 100, .horizon_s = 86400});
	Cluster cluster{{{"n0", 8, 32000, NodeState::up}, {"n1", 8, 32000, NodeState::up}}};
	ck_assert(planner.rebuild(cluster, {}, {}, 0).ok());
	ck_assert(
	    planner.job_submitted({.id = 1, .cpus = 16, .limit_s = 100, .campaign_id = 7}, 0).ok());
	ck_assert(
	    planner.job_submitted({.id = 2, .cpus = 8, .limit_s = 50, .campaign_id = 9}, 0).ok());
	Plan plan = planner.plan(0);
	for (JobId id : plan.starts_now) // the caller starts them, then confirms
		ck_assert(
		    planner.job_started({id, plan.planned.at(id).allocations, 0 + 100}, 0).ok());
	ck_assert_int_eq(planner.plan(0).planned.at(2).start_s, 100);
	ck_assert(planner.job_ended(1, 40).ok()); // early completion: the plan is compressed
	ck_assert(planner.plan(40).starts_now == std::vector<JobId>{2});
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_modes");
	TCase *tc = tcase_create("hand_worked");
	tcase_add_test(tc, test_plan_easy_reserves_head_and_backfills_around_it);
	tcase_add_test(tc, test_plan_conservative_reserves_every_job_in_rank_order);
	tcase_add_test(tc, test_plan_greedy_is_first_fit);
	tcase_add_test(tc, test_plan_lists_bookings_only_in_per_campaign);
	tcase_add_test(tc, test_plan_depth_limits_conservative_reservations);
	tcase_add_test(tc, test_plan_per_campaign_reserves_each_campaign_head);
	tcase_add_test(tc, test_plan_counts_cpus_per_node_not_in_total);
	tcase_add_test(tc, test_plan_memory_is_a_resource_per_node);
	tcase_add_test(tc, test_plan_exclusive_job_waits_for_an_empty_node_and_keeps_it);
	tcase_add_test(tc, test_plan_down_and_drained_nodes_are_never_planned);
	tcase_add_test(tc, test_plan_overlapping_partitions_share_nodes);
	tcase_add_test(tc, test_plan_rejects_bad_input_naming_the_job);
	tcase_add_test(tc, test_plan_failed_rebuild_leaves_an_empty_plan);
	tcase_add_test(tc, test_plan_usage_example_from_the_readme);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
