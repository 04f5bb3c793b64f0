// Unit tests of earliest starts and dependencies in the planner (PendingJob::earliest_start_s,
// PendingJob::after): a job is placed at or after its earliest start and after the end of each
// job it waits for (running: expected end; pending: planned end); one whose predecessor has no
// place is blocked and blocks no one; the kept plan keeps the rules through ends, starts,
// refusals, cancels and submissions (random sequences); order_after_waited_for puts each job
// after the jobs it waits for and drops those that wait for a job that will not be planned.
#include "check_main.h"
#include "plan/dependency_order.h"
#include "plan/plan_keeper.h"
#include "plan_fixtures.h"
#include "plan_random.h"
#include "plan_rules.h"

#include <map>
#include <set>

using namespace plan_fixtures;

namespace
{

PendingJob job_after(JobId id, int32_t cpus, int64_t limit_s, std::vector<JobId> after,
                     int64_t earliest_start_s = 0)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.after = std::move(after);
	pending.earliest_start_s = earliest_start_s;
	return pending;
}

} // namespace

// An idle machine: a job with a begin time is reserved at it, not started now; a job without
// starts now beside it. Without a reservation (greedy), it waits.
START_TEST(test_plan_earliest_start_is_kept_on_an_idle_machine)
{
	Planner planner =
	    planned(uniform_cluster(2, 16), {}, {job_after(1, 8, 100, {}, 500), job(2, 8, 100)});
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 500);
	Planner greedy = planned(uniform_cluster(2, 16), {}, {job_after(1, 8, 100, {}, 500)},
	                         ReservationMode::greedy);
	ck_assert(greedy.plan(0).starts_now.empty());
	ck_assert(status_of(greedy, 1).status == JobStatus::waiting);
}
END_TEST

// A running job on n0 ends at 300; its dependent needs 4 CPUs, which n1 has free now: it is
// planned at 300, the predecessor's end, and a job ranked below takes n1 now.
START_TEST(test_plan_dependent_of_a_running_job_starts_at_its_expected_end)
{
	Planner planner = planned(uniform_cluster(2, 16), {running(100, 0, 16, 300)},
	                          {job_after(1, 4, 50, {100}), job(2, 16, 200)});
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 300);
}
END_TEST

// A chain on one node of 8 CPUs busy until 100: A (whole node, 50 s) at 100, B after A at 150,
// C after B and not before 400 at 400; D, ranked last and independent (2 CPUs), takes the CPUs
// B leaves free at 150.
START_TEST(test_plan_chain_of_pending_dependents_follows_the_planned_ends)
{
	Planner planner = planned(uniform_cluster(1, 8), {running(100, 0, 8, 100)},
	                          {job(1, 8, 50), job_after(2, 4, 60, {1}),
	                           job_after(3, 4, 10, {2}, 400), job(4, 2, 30)});
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert_int_eq(status_of(planner, 2).start_s, 150);
	ck_assert_int_eq(status_of(planner, 3).start_s, 400);
	ck_assert_int_eq(status_of(planner, 4).start_s, 150);
}
END_TEST

// A job waiting for an unknown job, or for one beyond the horizon, is blocked: no place, no
// reservation taken (easy: the one reservation goes to the next job that cannot start now).
START_TEST(test_plan_dependent_of_an_unplanned_job_is_blocked_and_blocks_no_one)
{
	Planner unknown =
	    planned(uniform_cluster(1, 8), {}, {job_after(1, 1, 10, {77}), job(2, 8, 10)});
	ck_assert(status_of(unknown, 1).status == JobStatus::blocked);
	ck_assert(unknown.plan(0).starts_now == std::vector<JobId>{2});
	PlannerConfig short_horizon = config(ReservationMode::easy, 1, 50);
	Planner planner(short_horizon);
	ck_assert(planner
	              .rebuild(uniform_cluster(1, 8), {running(100, 0, 8, 100)},
	                       {job(1, 8, 10), job_after(2, 1, 10, {1}), job(3, 4, 10)}, 0)
	              .ok());
	ck_assert(status_of(planner, 1).status == JobStatus::beyond_horizon);
	ck_assert(status_of(planner, 2).status == JobStatus::blocked);
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
}
END_TEST

// A dependent planned after its predecessor takes no reservation slot: on one node of 8 CPUs
// busy until 100, the dependent (ranked first) is planned at 100 and the campaign's job that can
// start first still gets its reservation (at 150, after it), in easy mode (one slot) and in
// per_campaign (one per campaign, both of campaign 1). A third job, of no slot, waits.
START_TEST(test_plan_dependent_leaves_the_reservation_slot_to_its_campaign)
{
	for (const ReservationMode mode : {ReservationMode::easy, ReservationMode::per_campaign}) {
		PendingJob dependent = job_after(1, 8, 50, {100});
		dependent.campaign_id = 1;
		Planner planner = planned(uniform_cluster(1, 8), {running(100, 0, 8, 100)},
		                          {dependent, job(2, 8, 50, 1), job(3, 8, 50, 1)}, mode);
		ck_assert(status_of(planner, 1).status == JobStatus::reserved);
		ck_assert_int_eq(status_of(planner, 1).start_s, 100);
		ck_assert_msg(status_of(planner, 2).status == JobStatus::reserved, "%s: %s",
		              to_string(mode), to_string(status_of(planner, 2).status));
		ck_assert_int_eq(status_of(planner, 2).start_s, 150);
		ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	}
}
END_TEST

// The predecessor's start is refused: it loses its place, so the dependent is blocked; after the
// hold both are planned again, the dependent after the predecessor's new end.
START_TEST(test_plan_refused_predecessor_blocks_its_dependent_until_planned_again)
{
	PlannerConfig held = config(ReservationMode::conservative);
	held.refusal_hold_s = 20;
	Planner planner(held);
	ck_assert(
	    planner.rebuild(uniform_cluster(1, 8), {}, {job(1, 8, 50), job_after(2, 8, 10, {1})}, 0)
	        .ok());
	ck_assert_int_eq(status_of(planner, 2).start_s, 50);
	ck_assert(planner.refused(1, 0).ok());
	ck_assert(status_of(planner, 2).status == JobStatus::blocked);
	planner.plan(30);
	ck_assert(status_of(planner, 1).status == JobStatus::starts_now);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 80);
}
END_TEST

// Bad input names the job.
START_TEST(test_plan_rejects_a_job_waiting_for_itself_or_a_negative_earliest_start)
{
	Planner planner(config(ReservationMode::conservative));
	auto self = planner.rebuild(uniform_cluster(1, 8), {}, {job_after(5, 1, 10, {5})}, 0);
	ck_assert(!self.ok());
	ck_assert_string_eq(self.error(), "rebuild: job 5: waits for its own end");
	auto negative =
	    planner.rebuild(uniform_cluster(1, 8), {}, {job_after(6, 1, 10, {}, -1)}, 0);
	ck_assert(!negative.ok());
	ck_assert_string_eq(negative.error(), "rebuild: job 6: negative earliest start -1 s");
}
END_TEST

// The kept plan plans afresh when what a job waits for changes.
START_TEST(test_plan_keeper_plans_afresh_when_a_wait_changes)
{
	PlanKeeper keeper(config(ReservationMode::conservative));
	const Cluster cluster = uniform_cluster(1, 8);
	std::vector<PendingJob> queue{job(1, 8, 50), job_after(2, 8, 10, {1})};
	ck_assert(keeper.update(cluster, {}, queue, 0).ok());
	ck_assert(keeper.update(cluster, {}, queue, 1).ok());
	ck_assert_int_eq(keeper.rebuilds(), 1);
	queue[1].after.clear();
	queue[1].earliest_start_s = 300;
	auto plan = keeper.update(cluster, {}, queue, 2);
	ck_assert(plan.ok());
	ck_assert_int_eq(keeper.rebuilds(), 2);
	ck_assert_int_eq(plan.value().planned.at(2).start_s, 300);
}
END_TEST

START_TEST(test_dependency_order_moves_a_job_after_the_jobs_it_waits_for)
{
	// 1 waits for 3, 2 is free, 3 waits for running 100, 4 waits for 1 and 2: 2 3 1 4.
	std::vector<PendingJob> queue{job_after(1, 1, 10, {3}), job(2, 1, 10),
	                              job_after(3, 1, 10, {100}), job_after(4, 1, 10, {1, 2})};
	DependencyOrder order = order_after_waited_for(queue, {100});
	ck_assert(order.order == (std::vector<size_t>{1, 2, 0, 3}));
	ck_assert(order.dropped.empty());
	// 1 waits for unknown 9, 2 for 1, 3 and 4 wait for each other, 5 is free: 5 only.
	std::vector<PendingJob> dropped{job_after(1, 1, 10, {9}), job_after(2, 1, 10, {1}),
	                                job_after(3, 1, 10, {4}), job_after(4, 1, 10, {3}),
	                                job(5, 1, 10)};
	order = order_after_waited_for(dropped, {});
	ck_assert(order.order == std::vector<size_t>{4});
	ck_assert(order.dropped == (std::vector<size_t>{0, 1, 2, 3}));
}
END_TEST

namespace
{

// Every placed job starts at or after its earliest start and the end of each job it waits for;
// one whose predecessor has no place has none either.
std::string wait_error(const std::vector<RunningJob> &running,
                       const std::vector<PendingJob> &pending, const Planner &planner)
{
	std::map<JobId, int64_t> end_of;
	for (const RunningJob &job : running)
		end_of[job.id] = std::max(job.expected_end_s, planner.now_s() + 1);
	std::map<JobId, PlannedJob> planned;
	for (const PlannedJob &queued : planner.queue()) {
		planned[queued.id] = queued;
		if (queued.start_s != never_s)
			end_of[queued.id] = queued.start_s + queued.limit_s;
	}
	for (const PendingJob &job : pending) {
		const PlannedJob &mine = planned.at(job.id);
		bool unplanned_before = false;
		int64_t bound_s = job.earliest_start_s;
		for (JobId id : job.after) {
			auto end = end_of.find(id);
			if (end == end_of.end())
				unplanned_before = true;
			else
				bound_s = std::max(bound_s, end->second);
		}
		const std::string who =
		    "job " + std::to_string(job.id) + " (" + to_string(mine.status) + ")";
		if (mine.start_s == never_s)
			continue;
		if (unplanned_before)
			return who + " placed though a job it waits for is not";
		if (mine.start_s < bound_s)
			return who + " starts at " + std::to_string(mine.start_s) + " before " +
			       std::to_string(bound_s);
	}
	return "";
}

// A random instance whose pending jobs wait now and then for a running job or one ranked above,
// or for a time up to 200 s ahead.
void add_waits(plan_random::Random &random, std::vector<PendingJob> &pending,
               const std::vector<RunningJob> &running, int64_t now_s)
{
	for (size_t i = 0; i < pending.size(); ++i) {
		if (random.chance(25))
			pending[i].earliest_start_s = now_s + random.between(0, 200);
		if (i > 0 && random.chance(35))
			pending[i].after.push_back(pending[random.between(0, i - 1)].id);
		if (!running.empty() && random.chance(20))
			pending[i].after.push_back(
			    running[random.between(0, running.size() - 1)].id);
	}
}

} // namespace

START_TEST(test_plan_random_waits_hold_through_rebuilds_and_events)
{
	// 2000 instances: after the rebuild and after each of 10 events (starts of the starts_now
	// jobs, an end on time or early, a refusal or cancel, a submission ranked last that waits
	// for a random pending job), no over-commitment and every wait kept.
	for (uint64_t seed = 1; seed <= 2000; ++seed) {
		plan_random::Random random(seed + 991);
		int64_t now_s = 1000;
		plan_random::Instance instance = plan_random::random_instance(seed, now_s);
		std::vector<RunningJob> running = instance.running;
		std::vector<PendingJob> pending = instance.pending;
		add_waits(random, pending, running, now_s);
		Planner planner(instance.config);
		ck_assert(planner.rebuild(instance.cluster, running, pending, now_s).ok());
		JobId next_id = 7000;
		for (int step = 0; step < 10; ++step) {
			std::string error =
			    plan_rules::resource_error(instance.cluster, running, pending, planner);
			if (error.empty())
				error = wait_error(running, pending, planner);
			ck_assert_msg(error.empty(), "seed %lu step %d (%s): %s", seed, step,
			              to_string(instance.config.mode), error.c_str());
			const Plan plan = planner.plan(now_s);
			bool refused = false;
			for (JobId id : plan.starts_now) {
				if (random.chance(10)) {
					ck_assert(planner.refused(id, now_s).ok());
					refused = true;
					break;
				}
				auto found = std::find_if(
				    pending.begin(), pending.end(),
				    [&](const PendingJob &job) { return job.id == id; });
				RunningJob started{id, plan.planned.at(id).allocations,
				                   now_s + plan.planned.at(id).limit_s};
				ck_assert(planner.job_started(started, now_s).ok());
				running.push_back(started);
				pending.erase(found);
			}
			if (refused)
				continue;
			const int64_t kind = random.between(0, 2);
			if (kind == 0 && !running.empty()) {
				const size_t which = random.between(0, running.size() - 1);
				now_s = std::max(now_s, std::min(running[which].expected_end_s,
				                                 now_s + random.between(0, 60)));
				ck_assert(planner.job_ended(running[which].id, now_s).ok());
				running.erase(running.begin() + static_cast<std::ptrdiff_t>(which));
			} else if (kind == 1 && !pending.empty()) {
				const size_t which = random.between(0, pending.size() - 1);
				ck_assert(planner.job_cancelled(pending[which].id, now_s).ok());
				pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(which));
			} else {
				PendingJob job = plan_random::random_pending(
				    random, next_id++, instance.cluster.nodes.size());
				if (!pending.empty() && random.chance(60))
					job.after.push_back(
					    pending[random.between(0, pending.size() - 1)].id);
				ck_assert(planner.job_submitted(job, now_s).ok());
				pending.push_back(job);
			}
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_dependencies");
	TCase *tc = tcase_create("waits");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_earliest_start_is_kept_on_an_idle_machine);
	tcase_add_test(tc, test_plan_dependent_of_a_running_job_starts_at_its_expected_end);
	tcase_add_test(tc, test_plan_chain_of_pending_dependents_follows_the_planned_ends);
	tcase_add_test(tc, test_plan_dependent_of_an_unplanned_job_is_blocked_and_blocks_no_one);
	tcase_add_test(tc, test_plan_dependent_leaves_the_reservation_slot_to_its_campaign);
	tcase_add_test(tc, test_plan_refused_predecessor_blocks_its_dependent_until_planned_again);
	tcase_add_test(tc, test_plan_rejects_a_job_waiting_for_itself_or_a_negative_earliest_start);
	tcase_add_test(tc, test_plan_keeper_plans_afresh_when_a_wait_changes);
	tcase_add_test(tc, test_dependency_order_moves_a_job_after_the_jobs_it_waits_for);
	tcase_add_test(tc, test_plan_random_waits_hold_through_rebuilds_and_events);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
