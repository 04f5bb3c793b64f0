// Unit tests of the jobs of a reservation that starts later (PendingJob::window_id): planned only
// inside their window (its nodes, from its start, ending by its end), packed there as on the
// machine, around running jobs that run into it; jobs not in it stay off it; they take no slot
// of the reservation depth; compression keeps them inside; bad ids and nodes are named. Running
// jobs of a reservation end by its end plus ResvOverRun (end_with_windows).
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan/window_ends.h"
#include "plan_checker.h"
#include "plan_fixtures.h"

using namespace plan_fixtures;

namespace
{

constexpr uint32_t kWindow = 7;

// Four nodes of 8 CPUs; n2 and n3 are reservation 7's over [100, 400).
Cluster cluster_with_reservation()
{
	Cluster cluster = uniform_cluster(4, 8);
	cluster.unavailable.push_back(
	    {.nodes = {2, 3}, .start_s = 100, .end_s = 400, .id = kWindow});
	return cluster;
}

PendingJob member(JobId id, int32_t cpus, int64_t limit_s)
{
	PendingJob pending = job(id, cpus, limit_s);
	pending.window_id = kWindow;
	return pending;
}

PendingJob on_nodes(PendingJob pending, std::vector<NodeIndex> nodes)
{
	pending.allowed_nodes = std::move(nodes);
	return pending;
}

bool on_reserved_nodes(const PlannedJob &planned)
{
	for (const NodeAllocation &allocation : planned.allocations)
		if (allocation.node != 2 && allocation.node != 3)
			return false;
	return !planned.allocations.empty();
}

// Every placed job of the window: on its nodes, from its start, ending by its end; the
// window's jobs and the running jobs never hold more than a node has (brute force).
void check_inside_window(const Planner &planner, const std::vector<RunningJob> &running,
                         const std::vector<JobId> &members)
{
	std::vector<plan_checker::Booking> bookings;
	for (const RunningJob &job : running)
		bookings.push_back({0, job.expected_end_s, job.allocations});
	for (const JobId id : members) {
		const PlannedJob planned = status_of(planner, id);
		if (planned.start_s == never_s)
			continue;
		ck_assert_msg(on_reserved_nodes(planned), "job %llu off the reservation's nodes",
		              static_cast<unsigned long long>(id));
		ck_assert_int_ge(planned.start_s, 100);
		ck_assert_int_le(planned.start_s + planned.limit_s, 400);
		bookings.push_back(
		    {planned.start_s, planned.start_s + planned.limit_s, planned.allocations});
	}
	const std::string overcommit =
	    plan_checker::overcommit(cluster_with_reservation(), bookings, planner.now_s());
	ck_assert_msg(overcommit.empty(), "%s", overcommit.c_str());
}

} // namespace

// The reservation's jobs start at its start on its nodes, packed there as on the machine: a
// 16-CPU job takes both nodes first, the next ones follow it; one that would run past the end
// gets no place; the 4-CPU job fills the half node left beside the 8-CPU one.
START_TEST(test_plan_window_jobs_are_packed_inside_their_reservation)
{
	const std::vector<PendingJob> queue{member(1, 16, 200), member(2, 8, 100),
	                                    member(3, 8, 150), member(4, 4, 100)};
	Planner planner = planned(cluster_with_reservation(), {}, queue);
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now.empty());
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert_int_eq(status_of(planner, 2).start_s, 300);
	ck_assert(status_of(planner, 3).status == JobStatus::beyond_horizon); // 300 + 150 > 400
	ck_assert_int_eq(status_of(planner, 4).start_s, 300);
	ck_assert_int_ne(status_of(planner, 4).allocations[0].node,
	                 status_of(planner, 2).allocations[0].node);
	check_inside_window(planner, {}, {1, 2, 3, 4});
}
END_TEST

// Jobs not in the reservation: one that ends before it starts now on its nodes, one that would
// run into it waits for its end, one free to go elsewhere starts now on n0 or n1; none of the
// reservation's jobs starts before it, though its nodes are free now.
START_TEST(test_plan_jobs_outside_the_reservation_stay_off_it)
{
	const std::vector<PendingJob> queue{member(1, 8, 100), on_nodes(job(2, 8, 101), {2, 3}),
	                                    on_nodes(job(3, 16, 50), {2, 3}), job(4, 8, 200)};
	Planner planner = planned(cluster_with_reservation(), {}, queue);
	const Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{3, 4}));
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert_int_eq(status_of(planner, 2).start_s, 400);
	ck_assert(!on_reserved_nodes(status_of(planner, 4)));
	check_inside_window(planner, {}, {1});
}
END_TEST

// A running job holds n2 until 250: the whole-reservation job starts when it ends, an 8-CPU one
// at the reservation's start on n3. A job longer than the reservation is planned for its
// length from a start where it is free (Slurm ends the job at the reservation's end).
START_TEST(test_plan_window_jobs_wait_for_running_jobs_and_are_cut_at_its_end)
{
	const std::vector<RunningJob> busy{running(100, 2, 8, 250)};
	const std::vector<PendingJob> queue{member(1, 16, 100), member(2, 8, 100),
	                                    member(3, 8, 1000)};
	Planner planner = planned(cluster_with_reservation(), busy, queue);
	ck_assert_int_eq(status_of(planner, 1).start_s, 250);
	ck_assert_int_eq(status_of(planner, 2).start_s, 100);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 3);
	ck_assert(status_of(planner, 3).status == JobStatus::beyond_horizon); // never free 300 s
	check_inside_window(planner, busy, {1, 2, 3});
	Planner alone = planned(cluster_with_reservation(), {}, {member(3, 8, 1000)});
	ck_assert_int_eq(status_of(alone, 3).start_s, 100);
	ck_assert_int_eq(status_of(alone, 3).limit_s, 300);
}
END_TEST

// ResvOverRun: Slurm ends a job of the reservation only overrun_s after its end. The job longer
// than the reservation is planned for 300 s + 60 s, a job not in it that needs both nodes
// starts at that job's end (460), not at the reservation's (400); with the reservation started
// (now 350) the job has 110 s left. A negative overrun is named.
START_TEST(test_plan_window_jobs_may_overrun_the_reservation_by_resv_over_run)
{
	Cluster cluster = cluster_with_reservation();
	cluster.unavailable[0].overrun_s = 60;
	const std::vector<PendingJob> queue{member(3, 8, 1000), on_nodes(job(4, 16, 150), {2, 3})};
	Planner planner = planned(cluster, {}, queue);
	ck_assert_int_eq(status_of(planner, 3).start_s, 100);
	ck_assert_int_eq(status_of(planner, 3).limit_s, 360);
	ck_assert_int_eq(status_of(planner, 4).start_s, 460);
	Planner started(config(ReservationMode::conservative));
	ck_assert(started.rebuild(cluster, {}, {member(3, 8, 1000)}, 350).ok());
	ck_assert(status_of(started, 3).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(started, 3).limit_s, 110);
	cluster.unavailable[0].overrun_s = -5;
	auto status = started.rebuild(cluster, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("window 7: negative overrun -5 s") != std::string::npos,
	              "%s", status.error().c_str());
}
END_TEST

// A running job of the reservation ends at its end plus ResvOverRun when its limit runs on
// longer (Slurm's job_time_limit ends it then): the 2,000 s job of window 7 on n2 is planned to
// end at 460, so a job needing n2 after the window starts then, not at 2,000; one whose limit
// ends sooner (300) keeps it; jobs of no window or of a window not listed keep their ends; past
// the window's end plus overrun the end is now + 1.
START_TEST(test_plan_running_window_jobs_end_at_the_reservation_end_plus_overrun)
{
	Cluster cluster = cluster_with_reservation();
	cluster.unavailable[0].overrun_s = 60;
	std::vector<RunningJob> busy{running(10, 2, 8, 2000), running(11, 3, 4, 300),
	                             running(12, 0, 8, 2000), running(13, 1, 8, 2000)};
	busy[0].window_id = kWindow;
	busy[1].window_id = kWindow;
	busy[3].window_id = kWindow + 1; // not listed: ended
	end_with_windows(busy, cluster.unavailable, 200);
	ck_assert_int_eq(busy[0].expected_end_s, 460);
	ck_assert_int_eq(busy[1].expected_end_s, 300);
	ck_assert_int_eq(busy[2].expected_end_s, 2000);
	ck_assert_int_eq(busy[3].expected_end_s, 2000);
	Planner planner = planned(cluster, busy, {on_nodes(job(4, 8, 100), {2})});
	ck_assert_int_eq(status_of(planner, 4).start_s, 460);
	std::vector<RunningJob> late{running(10, 2, 8, 2000)};
	late[0].window_id = kWindow;
	end_with_windows(late, cluster.unavailable, 500);
	ck_assert_int_eq(late[0].expected_end_s, 501);
}
END_TEST

// EASY (one reservation): the reservation's job ranked first takes no slot, so the blocked
// whole-machine job below it still gets the one reservation.
START_TEST(test_plan_window_jobs_take_no_slot_of_the_depth)
{
	const std::vector<PendingJob> queue{member(1, 8, 100), job(2, 32, 200), job(3, 32, 200)};
	Planner planner = planned(cluster_with_reservation(), {}, queue, ReservationMode::easy);
	ck_assert(status_of(planner, 1).status == JobStatus::reserved);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 400);
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
}
END_TEST

// A running job on n2 and n3 ends early: the reservation's job moves earlier to the
// reservation's start, never before it.
START_TEST(test_plan_window_job_moves_earlier_within_its_reservation)
{
	const std::vector<RunningJob> busy{running(100, 2, 8, 300), running(101, 3, 8, 300)};
	Planner planner = planned(cluster_with_reservation(), busy, {member(1, 16, 100)});
	ck_assert_int_eq(status_of(planner, 1).start_s, 300);
	ck_assert(planner.job_ended(100, 10).ok());
	ck_assert(planner.job_ended(101, 20).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	check_inside_window(planner, {}, {1});
	// A job of the reservation submitted later is placed beside it, inside.
	ck_assert(planner.job_submitted(member(2, 16, 100), 30).ok());
	ck_assert_int_eq(status_of(planner, 2).start_s, 200);
	check_inside_window(planner, {}, {1, 2});
}
END_TEST

// sched/campaign's PlanKeeper, pass after pass on the same windows: a job of the reservation
// submitted since is added to the kept plan (no rebuild) inside the reservation, beside the
// first; a job not in it is kept off the reservation's nodes.
START_TEST(test_plan_keeper_adds_a_window_job_to_the_kept_plan_inside_its_reservation)
{
	PlanKeeper keeper(config(ReservationMode::conservative));
	std::vector<PendingJob> queue{member(1, 16, 100)};
	auto first = keeper.update(cluster_with_reservation(), {}, queue, 0);
	ck_assert(first.ok());
	ck_assert_int_eq(first.value().planned.at(1).start_s, 100);
	queue.push_back(member(2, 8, 150));
	queue.push_back(on_nodes(job(3, 8, 150), {2, 3}));
	auto second = keeper.update(cluster_with_reservation(), {}, queue, 10);
	ck_assert(second.ok());
	ck_assert_int_eq(keeper.updates(), 1);
	ck_assert_int_eq(second.value().planned.at(2).start_s, 200);
	ck_assert(on_reserved_nodes(second.value().planned.at(2)));
	ck_assert_int_eq(second.value().planned.at(3).start_s, 400);
}
END_TEST

// The reservation started (now 250, within [100, 400)): its job longer than what is left starts
// now on n3 for the rest (150 s: Slurm ends it at the end), one ranked below waits for n2's
// running job inside it; a job not in it that needs n2 or n3 is planned at the reservation's
// end, not off them for all time, and one free to go elsewhere starts now on n0 and n1.
START_TEST(test_plan_started_reservation_keeps_others_off_only_until_its_end)
{
	const std::vector<RunningJob> busy{running(100, 2, 8, 300)};
	const std::vector<PendingJob> queue{member(1, 8, 1000), member(2, 4, 100),
	                                    on_nodes(job(3, 8, 100), {2, 3}), job(4, 16, 100)};
	Planner planner(config(ReservationMode::conservative));
	ck_assert(planner.rebuild(cluster_with_reservation(), busy, queue, 250).ok());
	const Plan plan = planner.plan(250);
	ck_assert(plan.starts_now == (std::vector<JobId>{1, 4}));
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 3);
	ck_assert_int_eq(status_of(planner, 1).limit_s, 150);
	ck_assert_int_eq(status_of(planner, 2).start_s, 300);
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 2);
	ck_assert_int_eq(status_of(planner, 3).start_s, 400);
	ck_assert(!on_reserved_nodes(status_of(planner, 4)));
	check_inside_window(planner, busy, {1, 2});
	// Later updates cut to the rest of that time: the running job ends at 260, job 2 moves
	// there, and a job of the reservation submitted then starts beside it for the 140 s left.
	for (const JobId id : plan.starts_now)
		ck_assert(planner
		              .job_started({id, plan.planned.at(id).allocations,
		                            250 + plan.planned.at(id).limit_s},
		                           250)
		              .ok());
	ck_assert(planner.job_ended(100, 260).ok());
	ck_assert_int_eq(status_of(planner, 2).start_s, 260);
	ck_assert(planner.job_submitted(member(5, 4, 1000), 260).ok());
	ck_assert(planner.plan(260).starts_now == (std::vector<JobId>{2, 5}));
	ck_assert_int_eq(status_of(planner, 5).allocations[0].node, 2);
	ck_assert_int_eq(status_of(planner, 5).limit_s, 140);
	ck_assert_int_eq(status_of(planner, 3).start_s, 400);
}
END_TEST

// A reservation with no end (Slurm gives an infinite one a year): a job not in it that needs
// its nodes gets no place within the horizon, its own job keeps its whole limit.
START_TEST(test_plan_reservation_with_no_end_keeps_others_off_beyond_the_horizon)
{
	Cluster cluster = uniform_cluster(4, 8);
	cluster.unavailable.push_back(
	    {.nodes = {2, 3}, .start_s = 0, .end_s = 365 * 86400, .id = kWindow});
	Planner planner(config(ReservationMode::conservative));
	ck_assert(
	    planner
	        .rebuild(cluster, {}, {member(1, 8, 3600), on_nodes(job(2, 8, 100), {2, 3})}, 100)
	        .ok());
	ck_assert(planner.plan(100).starts_now == (std::vector<JobId>{1}));
	ck_assert_int_eq(status_of(planner, 1).limit_s, 3600);
	ck_assert(status_of(planner, 2).status == JobStatus::beyond_horizon);
}
END_TEST

START_TEST(test_plan_rejects_bad_window_jobs_saying_what_is_wrong)
{
	Planner planner(config(ReservationMode::conservative));
	PendingJob unknown = member(5, 8, 100);
	unknown.window_id = 9;
	auto status = planner.rebuild(cluster_with_reservation(), {}, {unknown}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 5: its window 9 is not among") != std::string::npos,
	              "%s", status.error().c_str());
	status = planner.rebuild(cluster_with_reservation(), {},
	                         {on_nodes(member(6, 8, 100), {1, 2})}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("job 6: node index 1 is outside its window 7") !=
	                  std::string::npos,
	              "%s", status.error().c_str());
	Cluster twice = cluster_with_reservation();
	twice.unavailable.push_back(twice.unavailable.front());
	status = planner.rebuild(twice, {}, {}, 0);
	ck_assert(!status.ok());
	ck_assert_msg(status.error().find("two unavailable windows have id 7") != std::string::npos,
	              "%s", status.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_window_jobs");
	TCase *tc = tcase_create("window_jobs");
	tcase_add_test(tc, test_plan_window_jobs_are_packed_inside_their_reservation);
	tcase_add_test(tc, test_plan_jobs_outside_the_reservation_stay_off_it);
	tcase_add_test(tc, test_plan_window_jobs_wait_for_running_jobs_and_are_cut_at_its_end);
	tcase_add_test(tc, test_plan_window_jobs_may_overrun_the_reservation_by_resv_over_run);
	tcase_add_test(tc, test_plan_running_window_jobs_end_at_the_reservation_end_plus_overrun);
	tcase_add_test(tc, test_plan_window_jobs_take_no_slot_of_the_depth);
	tcase_add_test(tc, test_plan_window_job_moves_earlier_within_its_reservation);
	tcase_add_test(tc,
	               test_plan_keeper_adds_a_window_job_to_the_kept_plan_inside_its_reservation);
	tcase_add_test(tc, test_plan_started_reservation_keeps_others_off_only_until_its_end);
	tcase_add_test(tc, test_plan_reservation_with_no_end_keeps_others_off_beyond_the_horizon);
	tcase_add_test(tc, test_plan_rejects_bad_window_jobs_saying_what_is_wrong);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
