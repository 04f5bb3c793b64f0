// Unit tests of GRES (GPUs) in the planner: counted per node like CPUs and memory, typed kinds
// booked with the untyped total, exclusive jobs take a node's GRES, and bad input named.
#include "check_main.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

constexpr size_t gpu = 0;      // every GPU of a node
constexpr size_t gpu_a100 = 1; // the GPUs of type a100

// Two nodes of 16 CPUs and 4 GPUs; n1's GPUs are a100s.
Cluster gpu_cluster()
{
	Cluster cluster = uniform_cluster(2, 16);
	cluster.gres_kinds = {"gpu", "gpu:a100"};
	for (NodeSpec &node : cluster.nodes)
		node.gres[gpu] = 4;
	cluster.nodes[1].gres[gpu_a100] = 4;
	return cluster;
}

PendingJob gpu_job(JobId id, int32_t cpus, int32_t gpus, int64_t limit_s, bool a100 = false)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.nodes_max = 1;
	pending.gres_per_node[gpu] = gpus;
	if (a100)
		pending.gres_per_node[gpu_a100] = gpus;
	return pending;
}

RunningJob gpu_running(JobId id, NodeIndex node, int32_t cpus, int32_t gpus, int64_t end_s,
                       bool a100 = false)
{
	NodeAllocation allocation{node, cpus, 0, {}};
	allocation.gres[gpu] = gpus;
	if (a100)
		allocation.gres[gpu_a100] = gpus;
	return RunningJob{id, {allocation}, end_s};
}

Planner planned(const std::vector<RunningJob> &running, const std::vector<PendingJob> &queue)
{
	Planner planner(config(ReservationMode::conservative));
	auto status = planner.rebuild(gpu_cluster(), running, queue, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

} // namespace

// Both nodes hold 3 of their 4 GPUs until t=50 and t=80, CPUs idle. A 2-GPU job cannot start
// now (CPUs alone would let it) and is reserved where GPUs free up first: n0 at 50; a 1-GPU
// job starts now; a CPU-only job of 14 CPUs starts now beside them.
START_TEST(test_plan_gpus_are_counted_per_node_like_cpus)
{
	Planner planner =
	    planned({gpu_running(100, 0, 1, 3, 50), gpu_running(101, 1, 1, 3, 80, true)},
	            {gpu_job(1, 2, 2, 100), gpu_job(2, 1, 1, 100), job(3, 14, 100)});
	const Plan plan = planner.plan(0);
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 50);
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 0);
	ck_assert_int_eq(status_of(planner, 1).allocations[0].gres[gpu], 2);
	ck_assert(plan.starts_now == (std::vector<JobId>{2, 3}));
	// Job 2 took the one free GPU of a node: the reserved job 1 keeps its own at 50.
	ck_assert_int_eq(plan.planned.at(2).allocations[0].gres[gpu], 1);
}
END_TEST

// A job asking for a100s goes only to n1 (n0's GPUs have no type), and books both the typed
// count and the total: an untyped 4-GPU job after it cannot take n1 meanwhile.
START_TEST(test_plan_typed_gpus_book_the_type_and_the_total)
{
	Planner planner = planned({gpu_running(100, 0, 1, 4, 30)},
	                          {gpu_job(1, 1, 2, 100, true), gpu_job(2, 1, 4, 100)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).allocations[0].node, 1);
	ck_assert_int_eq(plan.planned.at(1).allocations[0].gres[gpu_a100], 2);
	ck_assert_int_eq(plan.planned.at(1).allocations[0].gres[gpu], 2);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 30); // n0 after the running job
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 0);
}
END_TEST

// More GPUs per node than any node has: cannot run, whatever the CPUs.
START_TEST(test_plan_more_gpus_than_a_node_has_cannot_run)
{
	Planner planner = planned({}, {gpu_job(1, 1, 5, 100), gpu_job(2, 1, 1, 100, true)});
	ck_assert(status_of(planner, 1).status == JobStatus::cannot_run);
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
}
END_TEST

// An exclusive job takes a node's GPUs too, so a GPU job after it waits for the other node.
START_TEST(test_plan_exclusive_job_takes_the_nodes_gpus)
{
	PendingJob whole = job(1, 1, 100);
	whole.exclusive = true;
	Planner planner = planned({gpu_running(100, 1, 1, 1, 40)}, {whole, gpu_job(2, 1, 4, 100)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).allocations[0].gres[gpu], 4);
	ck_assert_int_eq(status_of(planner, 2).start_s, 40);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 1);
}
END_TEST

// A job's GPUs ending early give them back: the reserved GPU job moves earlier (compression).
START_TEST(test_plan_gpus_freed_early_move_a_reservation_earlier)
{
	Planner planner = planned({gpu_running(100, 0, 1, 4, 50), gpu_running(101, 1, 1, 4, 60)},
	                          {gpu_job(1, 1, 2, 100)});
	ck_assert_int_eq(status_of(planner, 1).start_s, 50);
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert(planner.plan(10).starts_now == std::vector<JobId>{1});
}
END_TEST

START_TEST(test_plan_rejects_negative_gres_naming_the_job_or_node)
{
	Planner planner(config(ReservationMode::conservative));
	PendingJob bad = gpu_job(7, 1, -1, 100);
	auto status = planner.rebuild(gpu_cluster(), {}, {bad}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 7") != std::string::npos, "%s",
	              status.error().c_str());
	Cluster cluster = gpu_cluster();
	cluster.nodes[1].gres[gpu] = -2;
	status = planner.rebuild(cluster, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("'n1'") != std::string::npos, "%s",
	              status.error().c_str());
	cluster = gpu_cluster();
	cluster.gres_kinds = {"gpu", "gpu:a100", "gpu:v100", "mps", "shard"};
	status = planner.rebuild(cluster, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("5 GRES kinds") != std::string::npos, "%s",
	              status.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_gres");
	TCase *tc = tcase_create("gres");
	tcase_add_test(tc, test_plan_gpus_are_counted_per_node_like_cpus);
	tcase_add_test(tc, test_plan_typed_gpus_book_the_type_and_the_total);
	tcase_add_test(tc, test_plan_more_gpus_than_a_node_has_cannot_run);
	tcase_add_test(tc, test_plan_exclusive_job_takes_the_nodes_gpus);
	tcase_add_test(tc, test_plan_gpus_freed_early_move_a_reservation_earlier);
	tcase_add_test(tc, test_plan_rejects_negative_gres_naming_the_job_or_node);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
