// Unit tests of preemption in the planner (PendingJob::preemptable): a job that may preempt
// starts now over the running jobs it may preempt, only them, and only for itself; the others
// still see those jobs' resources taken; a kept plan is made again when the preemptable jobs
// change, and when those every job may preempt (Cluster::preemptable_by_any) change.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

// Two nodes of 8 CPUs: job 100 (preemptable) holds n0 until 1000, job 101 (not) n1 until 500.
std::vector<RunningJob> busy_machine()
{
	return {running(100, 0, 8, 1000), running(101, 1, 8, 500)};
}

PendingJob preemptor(JobId id, int32_t cpus, int64_t limit_s, std::vector<JobId> preemptable)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.preemptable = std::move(preemptable);
	return pending;
}

Planner planned(const std::vector<RunningJob> &running, const std::vector<PendingJob> &queue)
{
	Planner planner(config(ReservationMode::conservative));
	auto status = planner.rebuild(uniform_cluster(2, 8), running, queue, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

} // namespace

// The preemptor starts now on the preemptable job's node; a job ranked below it that may not
// preempt waits for n1 (500), not for n0 (the preemptee's end, 1000, is no earlier for it).
START_TEST(test_plan_preemptor_starts_now_on_the_preemptable_jobs_node)
{
	Planner planner = planned(busy_machine(), {preemptor(1, 8, 300, {100}), job(2, 8, 300)});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).allocations.size(), 1);
	ck_assert_int_eq(plan.planned.at(1).allocations[0].node, 0);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 500);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 1);
}
END_TEST

// The freed resources are the preemptor's alone: a second preemptor of the same job, ranked
// below the first, finds n0 taken (the first's booking over the preemptee's) and waits; a
// job that may preempt only the other running job gets n1 now.
START_TEST(test_plan_preempted_resources_go_to_one_preemptor_only)
{
	Planner planner =
	    planned(busy_machine(), {preemptor(1, 8, 300, {100}), preemptor(2, 8, 300, {100}),
	                             preemptor(3, 4, 300, {101})});
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{1, 3}));
	ck_assert_int_eq(plan.planned.at(3).allocations[0].node, 1);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_gt(status_of(planner, 2).start_s, 0);
}
END_TEST

// Preemption is the last resort: a job that fits now without it starts on the free node, and
// one that would fit only over more than it may preempt is not started over anything.
START_TEST(test_plan_preemption_only_when_nothing_else_fits_now)
{
	Planner free_first = planned({running(100, 0, 8, 1000)}, {preemptor(1, 8, 300, {100})});
	ck_assert(free_first.plan(0).starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(free_first.plan(0).planned.at(1).allocations[0].node, 1);
	Planner too_big = planned(busy_machine(), {preemptor(1, 16, 300, {100})});
	ck_assert(too_big.plan(0).starts_now.empty());
	ck_assert(status_of(too_big, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(too_big, 1).start_s, 1000);
}
END_TEST

// A kept plan: when the preemptable jobs of a pending job change (a new low-priority job
// started), the keeper plans again and the preemptor starts over it.
START_TEST(test_plan_keeper_plans_again_when_preemptable_jobs_change)
{
	PlanKeeper keeper(config(ReservationMode::conservative));
	const Cluster cluster = uniform_cluster(2, 8);
	auto first = keeper.update(cluster, busy_machine(), {preemptor(1, 8, 300, {})}, 0);
	ck_assert(first.ok());
	ck_assert(first.value().starts_now.empty());
	auto second = keeper.update(cluster, busy_machine(), {preemptor(1, 8, 300, {101})}, 10);
	ck_assert(second.ok());
	ck_assert(second.value().starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(second.value().planned.at(1).allocations[0].node, 1);
}
END_TEST

// Cluster::preemptable_by_any: every job may preempt them (powered-down nodes' stand-ins), as
// if each listed them itself; still one preemptor per freed resource.
START_TEST(test_plan_every_job_may_preempt_the_clusters_list)
{
	Cluster cluster = uniform_cluster(2, 8);
	cluster.preemptable_by_any = {100};
	Planner planner(config(ReservationMode::conservative));
	auto status = planner.rebuild(cluster, busy_machine(), {job(1, 8, 300), job(2, 8, 300)}, 0);
	ck_assert(status.ok());
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(plan.planned.at(1).allocations[0].node, 0);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 500);
}
END_TEST

// A kept plan on the same nodes is made again when the cluster's list changes.
START_TEST(test_plan_keeper_plans_again_when_the_clusters_preemptable_list_changes)
{
	PlanKeeper keeper(config(ReservationMode::conservative));
	Cluster cluster = uniform_cluster(2, 8);
	auto first = keeper.update(cluster, busy_machine(), {job(1, 8, 300)}, 0);
	ck_assert(first.ok());
	ck_assert(first.value().starts_now.empty());
	cluster.preemptable_by_any = {101};
	auto second = keeper.update(cluster, busy_machine(), {job(1, 8, 300)}, 10);
	ck_assert(second.ok());
	ck_assert(second.value().starts_now == std::vector<JobId>{1});
	ck_assert_int_eq(second.value().planned.at(1).allocations[0].node, 1);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_preemption");
	TCase *tc = tcase_create("preemption");
	tcase_add_test(tc, test_plan_preemptor_starts_now_on_the_preemptable_jobs_node);
	tcase_add_test(tc, test_plan_preempted_resources_go_to_one_preemptor_only);
	tcase_add_test(tc, test_plan_preemption_only_when_nothing_else_fits_now);
	tcase_add_test(tc, test_plan_keeper_plans_again_when_preemptable_jobs_change);
	tcase_add_test(tc, test_plan_every_job_may_preempt_the_clusters_list);
	tcase_add_test(tc, test_plan_keeper_plans_again_when_the_clusters_preemptable_list_changes);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
