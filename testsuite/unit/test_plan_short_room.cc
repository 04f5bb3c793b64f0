// The room kept for short jobs (PlannerConfig::short_room): long jobs (limit, or time left, over
// short_limit_s) start, are reserved and move earlier only where their CPUs together stay out of
// that part of the machine; shorter jobs use the room; a long job wider than the rest may still
// run. Hand-worked on one node.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_checker.h"
#include "plan_fixtures.h"
#include "plan_random.h"

#include <cmath>

using namespace plan_fixtures;

namespace
{

// 10 CPUs, room 0.2 (2 CPUs) for jobs of at most 100 s.
PlannerConfig room_config(ReservationMode mode)
{
	PlannerConfig result = config(mode);
	result.short_room = 0.2;
	result.short_limit_s = 100;
	return result;
}

void check_ok(const campaign::Status &status)
{
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
}

} // namespace

// Long A (8 CPUs) starts and leaves the 2 CPUs of room; long B (1 CPU) would eat into it, so it is
// reserved after A; short C (2 CPUs, 50 s) takes the room now. Without the room B starts now and
// C waits for it.
START_TEST(test_short_room_keeps_cpus_from_long_jobs_for_short_ones)
{
	const std::vector<PendingJob> queue = {job(1, 8, 1000), job(2, 1, 1000), job(3, 2, 50)};
	Planner planner(room_config(ReservationMode::conservative));
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{1, 3}));
	ck_assert_int_eq(plan.planned.at(2).start_s, 1000);

	Planner without(config(ReservationMode::conservative));
	check_ok(without.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	ck_assert(without.plan(0).starts_now == (std::vector<JobId>{1, 2}));
}
END_TEST

// short_by_expected: a job is short by the run time its user's recent runs predict, where known.
// Long A (8 CPUs) runs; B (1 CPU, 1000 s limit) expects a 20 s run, so it is short: it may use the
// room and starts now beside short C (1 CPU). By its limit it would be long and wait for A. D (1
// CPU, 1000 s limit, expects 500 s) stays long; E (no expectation) is judged by its limit.
START_TEST(test_short_room_by_expected_run_time)
{
	PendingJob b = job(2, 1, 1000), d = job(4, 1, 1000), e = job(5, 1, 1000);
	b.expected_run_s = 20;
	d.expected_run_s = 500;
	const std::vector<PendingJob> queue = {job(1, 8, 1000), b, job(3, 1, 50), d, e};
	PlannerConfig by_expected = room_config(ReservationMode::conservative);
	by_expected.short_by_expected = true;
	Planner planner(by_expected);
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{1, 2, 3}));
	ck_assert_int_eq(plan.planned.at(4).start_s, 1000);
	ck_assert_int_eq(plan.planned.at(5).start_s, 1000);
	// By limit (the default), B is long: only A and C start now.
	Planner by_limit(room_config(ReservationMode::conservative));
	check_ok(by_limit.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	ck_assert(by_limit.plan(0).starts_now == (std::vector<JobId>{1, 3}));
}
END_TEST

// The search memo shares a bound only between jobs of one bound on long jobs' CPUs: long D,
// reserved at 1000, must not pass its bound to B of the same shape, which expects a short run and
// may start in the room now.
START_TEST(test_short_room_by_expected_memo_keeps_long_and_short_apart)
{
	PendingJob d = job(2, 1, 1000), b = job(3, 1, 1000);
	b.expected_run_s = 20;
	PlannerConfig by_expected = room_config(ReservationMode::conservative);
	by_expected.short_by_expected = true;
	Planner planner(by_expected);
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, {job(1, 8, 1000), d, b}, 0));
	Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == (std::vector<JobId>{1, 3}));
	ck_assert_int_eq(plan.planned.at(2).start_s, 1000);
}
END_TEST

// A kept plan whose job turns short (its expected run time arrives after it was planned, as
// priority/campaign publishes it a ranking later) is planned again: B, reserved after A by its
// limit, starts in the room once its expected run time is known.
START_TEST(test_short_room_kept_plan_follows_a_job_turning_short)
{
	PlannerConfig by_expected = room_config(ReservationMode::conservative);
	by_expected.short_by_expected = true;
	campaign::plan::PlanKeeper keeper(by_expected);
	const Cluster cluster = uniform_cluster(1, 10);
	const std::vector<RunningJob> running_a = {running(1, 0, 8, 1000)};
	PendingJob b = job(2, 1, 1000);
	auto first = keeper.update(cluster, running_a, {b, job(3, 1, 50)}, 10);
	check_ok(first.ok() ? campaign::ok_status()
	                    : campaign::Status(campaign::Error{first.error()}));
	ck_assert(first.value().starts_now == std::vector<JobId>{3});
	b.expected_run_s = 20;
	auto second = keeper.update(cluster, running_a, {b}, 11);
	ck_assert(second.ok());
	ck_assert(second.value().starts_now == std::vector<JobId>{2});
}
END_TEST

// A long job of the whole machine leaves what it can (nothing) and is not shut out for ever.
START_TEST(test_short_room_lets_a_job_wider_than_the_rest_run)
{
	Planner planner(room_config(ReservationMode::conservative));
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, {job(1, 10, 1000)}, 0));
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{1});
}
END_TEST

// fitting: a blocked short job wider than the room does not open it. Long A (8 CPUs) runs,
// short C (3 CPUs, more than the room of 2) ranks first and cannot start; long B (1 CPU)
// starts in an idle CPU. At 300, with A alone running, long D (1 CPU) starts too. Under
// blocked, C keeps the room for the window (the CTC-SP2 case of doc/fairness-results.md):
// B and D wait for A.
START_TEST(test_short_room_fitting_ignores_short_jobs_wider_than_the_room)
{
	PlannerConfig fitting = room_config(ReservationMode::conservative);
	fitting.short_room_recent_s = 600;
	fitting.short_room_demand = ShortRoomDemand::fitting;
	const std::vector<RunningJob> a = {running(1, 0, 8, 5000)};
	Planner planner(fitting);
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(3, 3, 50), job(2, 1, 1000)}, 0));
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(4, 1, 1000)}, 300));
	ck_assert(planner.plan(300).starts_now == std::vector<JobId>{4});

	PlannerConfig blocked = fitting;
	blocked.short_room_demand = ShortRoomDemand::blocked;
	Planner wide(blocked);
	check_ok(wide.rebuild(uniform_cluster(1, 10), a, {job(3, 3, 50), job(2, 1, 1000)}, 0));
	ck_assert(wide.plan(0).starts_now.empty());
	check_ok(wide.rebuild(uniform_cluster(1, 10), a, {job(4, 1, 1000)}, 300));
	ck_assert(wide.plan(300).starts_now.empty());
}
END_TEST

// The room is whole CPUs rounded down: 5 % of 8 CPUs is no room (long B starts beside long A
// and short C waits), 5 % of 20 CPUs is one (B is reserved after A, C takes the CPU).
START_TEST(test_short_room_rounds_down_to_whole_cpus)
{
	PlannerConfig five_percent = config(ReservationMode::conservative);
	five_percent.short_room = 0.05;
	five_percent.short_limit_s = 100;
	Planner small(five_percent);
	check_ok(small.rebuild(uniform_cluster(1, 8), {},
	                       {job(1, 7, 1000), job(2, 1, 1000), job(3, 1, 50)}, 0));
	ck_assert(small.plan(0).starts_now == (std::vector<JobId>{1, 2}));

	Planner twenty(five_percent);
	check_ok(twenty.rebuild(uniform_cluster(1, 20), {},
	                        {job(1, 19, 1000), job(2, 1, 1000), job(3, 1, 50)}, 0));
	ck_assert(twenty.plan(0).starts_now == (std::vector<JobId>{1, 3}));
}
END_TEST

// The kept plan moves a long job earlier only where the room stays free: R1 (5 CPUs) runs to 500,
// R2 (3 CPUs) to 1000; long L (4 CPUs) needs 6 free, first at 500. R2 ending at 100 leaves 5 free:
// L stays at 500 (without the room it would start at 100); R1 ending at 200 frees the machine.
// Twice: L may move to any node (the first compress_search_depth reserved jobs), then in place.
START_TEST(test_short_room_holds_when_the_kept_plan_is_compressed)
{
	PlannerConfig room = room_config(ReservationMode::conservative);
	room.compress_search_depth = _i == 0 ? 16 : 0;
	Planner planner(room);
	check_ok(planner.rebuild(uniform_cluster(1, 10),
	                         {running(11, 0, 5, 500), running(12, 0, 3, 1000)},
	                         {job(1, 4, 1000)}, 0));
	ck_assert_int_eq(planner.plan(0).planned.at(1).start_s, 500);
	check_ok(planner.job_ended(12, 100));
	ck_assert_int_eq(planner.plan(100).planned.at(1).start_s, 500);
	check_ok(planner.job_ended(11, 200));
	ck_assert(planner.plan(200).starts_now == std::vector<JobId>{1});
}
END_TEST

// Short jobs in the room do not hold long ones back: S (2 CPUs, 50 s left) runs in the room, and
// long L (8 CPUs) starts beside it at once (the room bounds long jobs' CPUs, not the free CPUs).
START_TEST(test_short_room_is_a_bound_on_long_jobs_not_on_free_cpus)
{
	Planner planner(room_config(ReservationMode::conservative));
	check_ok(
	    planner.rebuild(uniform_cluster(1, 10), {running(11, 0, 2, 50)}, {job(1, 8, 1000)}, 0));
	ck_assert(planner.plan(0).starts_now == std::vector<JobId>{1});
}
END_TEST

// Two long half-machine jobs: kept out of the room, the second waits for the first; with
// short_room_wide 0.5 both are wide enough to use the room and run side by side.
START_TEST(test_short_room_wide_jobs_may_use_the_room)
{
	const std::vector<PendingJob> queue = {job(1, 5, 1000), job(2, 5, 1000)};
	Planner narrow(room_config(ReservationMode::conservative));
	check_ok(narrow.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	ck_assert(narrow.plan(0).starts_now == std::vector<JobId>{1});
	PlannerConfig wide_config = room_config(ReservationMode::conservative);
	wide_config.short_room_wide = 0.5;
	Planner wide(wide_config);
	check_ok(wide.rebuild(uniform_cluster(1, 10), {}, queue, 0));
	ck_assert(wide.plan(0).starts_now == (std::vector<JobId>{1, 2}));
}
END_TEST

// The adaptive room (short_room_recent_s): no short job pending in the window, no room: long B
// starts beside long A as without a room. A short job of 1 CPU pending: a room of 1 CPU, B (1
// CPU) still fits in the other 9 with A; a short job of 2 CPUs: the whole room of 2, B waits.
// Short jobs of more CPUs: still the room of 2 (the cap).
START_TEST(test_short_room_recent_follows_the_short_demand)
{
	PlannerConfig adaptive = room_config(ReservationMode::conservative);
	adaptive.short_room_recent_s = 600;
	auto starts = [&](std::vector<PendingJob> queue) {
		Planner planner(adaptive);
		check_ok(planner.rebuild(uniform_cluster(1, 10), {}, queue, 0));
		return planner.plan(0).starts_now;
	};
	ck_assert(starts({job(1, 8, 1000), job(2, 1, 1000)}) == (std::vector<JobId>{1, 2}));
	ck_assert(starts({job(1, 8, 1000), job(2, 1, 1000), job(3, 1, 50)}) ==
	          (std::vector<JobId>{1, 2, 3}));
	ck_assert(starts({job(1, 8, 1000), job(2, 1, 1000), job(3, 2, 50)}) ==
	          (std::vector<JobId>{1, 3}));
	// 5 short CPUs ask for more than the cap of 2: long A and B (4 CPUs each) still hold 8
	// (a room of 5 would keep B back).
	ck_assert(starts({job(1, 4, 1000), job(2, 4, 1000), job(3, 5, 50)}) ==
	          (std::vector<JobId>{1, 2}));
}
END_TEST

// The room outlives the short jobs by the window: a short job pending at 0 keeps 2 CPUs from
// long jobs until 600 s later. Long A (8 CPUs) runs; long B (1 CPU) is kept out of the room at
// 300 s (no short job pending then) and starts at 700 s, when the window has passed.
START_TEST(test_short_room_recent_keeps_the_room_for_the_window)
{
	PlannerConfig adaptive = room_config(ReservationMode::conservative);
	adaptive.short_room_recent_s = 600;
	Planner planner(adaptive);
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, {job(1, 8, 5000), job(3, 2, 50)}, 0));
	ck_assert(planner.plan(0).starts_now == (std::vector<JobId>{1, 3}));
	const std::vector<RunningJob> a = {running(1, 0, 8, 5000)};
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000)}, 300));
	ck_assert(planner.plan(300).starts_now.empty());
	check_ok(planner.replan(a, {job(2, 1, 1000)}, 700));
	ck_assert(planner.plan(700).starts_now == std::vector<JobId>{2});
}
END_TEST

// The room sized by blocked demand (short_room_demand blocked): short C (2 CPUs) starts at 0
// beside long A (8 CPUs), so no short job was blocked and no room is kept: long B (1 CPU) starts
// at 300 in C's CPUs. Sized by all pending short jobs, C would keep 2 CPUs from long jobs until
// 600 and B would wait (test_short_room_recent_keeps_the_room_for_the_window).
START_TEST(test_short_room_blocked_stays_off_where_short_jobs_start)
{
	PlannerConfig blocked = room_config(ReservationMode::conservative);
	blocked.short_room_recent_s = 600;
	blocked.short_room_demand = ShortRoomDemand::blocked;
	Planner planner(blocked);
	check_ok(planner.rebuild(uniform_cluster(1, 10), {}, {job(1, 8, 5000), job(3, 2, 50)}, 0));
	ck_assert(planner.plan(0).starts_now == (std::vector<JobId>{1, 3}));
	const std::vector<RunningJob> a = {running(1, 0, 8, 5000)};
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000)}, 300));
	ck_assert(planner.plan(300).starts_now == std::vector<JobId>{2});
}
END_TEST

// A blocked short job opens the room in the same plan: long A (8 CPUs) runs; long B (1 CPU)
// ranks before short C (2 CPUs). Without a room B starts and C cannot; C's 2 blocked CPUs size
// the room to 2 (the cap), the plan is made again, B is kept out of the room and C starts. At
// 500, with no short job pending, the room is kept for the window (C was blocked at 0) and B
// still waits; at 700 the window has passed and B starts.
START_TEST(test_short_room_blocked_opens_the_room_for_a_blocked_short_job)
{
	PlannerConfig blocked = room_config(ReservationMode::conservative);
	blocked.short_room_recent_s = 600;
	blocked.short_room_demand = ShortRoomDemand::blocked;
	const std::vector<RunningJob> a = {running(1, 0, 8, 5000)};
	Planner planner(blocked);
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000), job(3, 2, 50)}, 0));
	Plan plan = planner.plan(0);
	ck_assert(plan.starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(plan.planned.at(2).start_s, 5000);
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000)}, 500));
	ck_assert(planner.plan(500).starts_now.empty());
	check_ok(planner.replan(a, {job(2, 1, 1000)}, 700));
	ck_assert(planner.plan(700).starts_now == std::vector<JobId>{2});

	Planner pending(room_config(ReservationMode::conservative));
	check_ok(pending.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000), job(3, 2, 50)}, 0));
	ck_assert(pending.plan(0).starts_now == std::vector<JobId>{3}); // the fixed room alike
}
END_TEST

// starts_only (campsim's per_campaign) plans only the head of the queue: on a full machine it
// lists no job, so the room sized by blocked demand counted none and closed while short jobs
// waited (SDSC-SP2, doc/fairness-results.md). Long A holds all 10 CPUs and short C (2 CPUs)
// waits: told the short CPUs of the whole queue, the plan counts C, unlisted, as blocked and
// keeps the room (2 CPUs); not told, none. Listed short jobs are not counted twice: with A on 8
// CPUs, C is listed and starts now, and no room is kept.
START_TEST(test_short_room_blocked_counts_the_queue_below_a_head)
{
	PlannerConfig head = room_config(ReservationMode::per_campaign);
	head.starts_only = true;
	head.short_room_recent_s = 600;
	head.short_room_demand = ShortRoomDemand::blocked;
	const std::vector<PendingJob> queue = {job(3, 2, 50)};
	const std::vector<RunningJob> full = {running(1, 0, 10, 5000)};
	Planner unknown(head);
	check_ok(unknown.rebuild(uniform_cluster(1, 10), full, queue, 0));
	ck_assert_int_eq(unknown.short_room_cpus(), 0);
	Planner told(head);
	told.set_short_pending_cpus(2);
	check_ok(told.rebuild(uniform_cluster(1, 10), full, queue, 0));
	ck_assert(told.plan(0).starts_now.empty());
	ck_assert_int_eq(told.short_room_cpus(), 2);
	Planner listed(head);
	listed.set_short_pending_cpus(2);
	check_ok(listed.rebuild(uniform_cluster(1, 10), {running(1, 0, 8, 5000)}, queue, 0));
	ck_assert(listed.plan(0).starts_now == std::vector<JobId>{3});
	ck_assert_int_eq(listed.short_room_cpus(), 0);
}
END_TEST

// A short job that cannot start now whatever the room asks for none: its begin time is ahead
// (sched/campaign plans jobs submitted with --begin at their begin time; the replays submit every
// job two minutes early so) or it waits for another job. Long A (8 CPUs) runs; long B (1 CPU)
// and short C (2 CPUs), C beginning at 400, or after A: B starts now. Counted as blocked, C kept
// the room at its cap and B out of it until A's end (the egee replay's 25 CPUs of room against
// campsim's 4, doc/replay-results.md).
START_TEST(test_short_room_blocked_ignores_jobs_that_cannot_start_yet)
{
	PlannerConfig blocked = room_config(ReservationMode::conservative);
	blocked.short_room_recent_s = 600;
	blocked.short_room_demand = ShortRoomDemand::blocked;
	const std::vector<RunningJob> a = {running(1, 0, 8, 5000)};
	PendingJob begins_later = job(3, 2, 50);
	begins_later.earliest_start_s = 400;
	PendingJob after_a = job(3, 2, 50);
	after_a.after = {1};
	for (const PendingJob &c : {begins_later, after_a}) {
		Planner planner(blocked);
		check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000), c}, 0));
		ck_assert(planner.plan(0).starts_now == std::vector<JobId>{2});
	}
	// Once C may start and cannot, it opens the room as before (B ranked first keeps out).
	Planner planner(blocked);
	check_ok(planner.rebuild(uniform_cluster(1, 10), a, {job(2, 1, 1000), begins_later}, 400));
	ck_assert(planner.plan(400).starts_now == std::vector<JobId>{3});
}
END_TEST

// Random instances, rebuilt with a room of a quarter of the machine: nothing is over-committed,
// and wherever a planned long job runs (none as wide as the usable machine, which may use the
// room), long jobs together hold at most the rest of the machine, or the widest planned one.
START_TEST(test_short_room_bound_holds_on_random_instances)
{
	for (uint64_t seed = 1; seed <= 800; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, 0);
		instance.config.short_room = 0.25;
		instance.config.short_limit_s = 30;
		Planner planner(instance.config);
		if (!planner.rebuild(instance.cluster, instance.running, instance.pending, 0).ok())
			continue;
		int64_t usable = 0;
		for (const NodeSpec &node : instance.cluster.nodes)
			if (node.state == NodeState::up)
				usable += node.cpus;
		const int64_t room = static_cast<int64_t>(std::floor(0.25 * usable));
		if (room == 0)
			continue; // under 4 usable CPUs no room is kept, so no bound holds
		const int64_t cap = usable - room;
		std::vector<plan_checker::Booking> bookings;
		struct Long {
			int64_t start_s, end_s, cpus;
			bool planned;
			bool exempt; // as wide as the usable machine (short_room_wide 1)
		};
		std::vector<Long> longs;
		auto cpus_of = [](const std::vector<NodeAllocation> &allocations) {
			int64_t cpus = 0;
			for (const NodeAllocation &allocation : allocations)
				cpus += allocation.cpus;
			return cpus;
		};
		for (const RunningJob &job : instance.running) {
			const int64_t end_s = std::max<int64_t>(job.expected_end_s, 1);
			bookings.push_back({0, end_s, job.allocations});
			if (end_s > 30)
				longs.push_back({0, end_s, cpus_of(job.allocations), false, false});
		}
		for (const auto &[id, planned] : planner.plan(0).planned)
			for (const PendingJob &job : instance.pending)
				if (job.id == id) {
					const int64_t end_s = planned.start_s + job.limit_s;
					bookings.push_back(
					    {planned.start_s, end_s, planned.allocations});
					if (job.limit_s > 30)
						longs.push_back(
						    {planned.start_s, end_s,
						     cpus_of(planned.allocations), true,
						     std::max(job.cpus, job.nodes_min) >= usable});
				}
		const std::string over = plan_checker::overcommit(instance.cluster, bookings, 0);
		ck_assert_msg(over.empty(), "seed %llu: %s", (unsigned long long)seed,
		              over.c_str());
		for (const Long &at : longs) {
			const int64_t t = at.start_s;
			int64_t held = 0, widest_planned = -1;
			bool exempt = false;
			for (const Long &other : longs)
				if (other.start_s <= t && t < other.end_s) {
					held += other.cpus;
					exempt = exempt || other.exempt;
					if (other.planned)
						widest_planned =
						    std::max(widest_planned, other.cpus);
				}
			if (widest_planned >= 0 && !exempt)
				ck_assert_msg(
				    held <= std::max(cap, widest_planned),
				    "seed %llu: long jobs hold %lld CPUs at %lld, bound %lld",
				    (unsigned long long)seed, (long long)held, (long long)t,
				    (long long)std::max(cap, widest_planned));
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_short_room");
	TCase *tc = tcase_create("hand_worked");
	tcase_add_test(tc, test_short_room_keeps_cpus_from_long_jobs_for_short_ones);
	tcase_add_test(tc, test_short_room_lets_a_job_wider_than_the_rest_run);
	tcase_add_test(tc, test_short_room_by_expected_run_time);
	tcase_add_test(tc, test_short_room_kept_plan_follows_a_job_turning_short);
	tcase_add_test(tc, test_short_room_by_expected_memo_keeps_long_and_short_apart);
	tcase_add_test(tc, test_short_room_is_a_bound_on_long_jobs_not_on_free_cpus);
	tcase_add_test(tc, test_short_room_wide_jobs_may_use_the_room);
	tcase_add_test(tc, test_short_room_bound_holds_on_random_instances);
	tcase_add_test(tc, test_short_room_recent_follows_the_short_demand);
	tcase_add_test(tc, test_short_room_recent_keeps_the_room_for_the_window);
	tcase_add_test(tc, test_short_room_rounds_down_to_whole_cpus);
	tcase_add_test(tc, test_short_room_fitting_ignores_short_jobs_wider_than_the_room);
	tcase_add_test(tc, test_short_room_blocked_stays_off_where_short_jobs_start);
	tcase_add_test(tc, test_short_room_blocked_opens_the_room_for_a_blocked_short_job);
	tcase_add_test(tc, test_short_room_blocked_ignores_jobs_that_cannot_start_yet);
	tcase_add_test(tc, test_short_room_blocked_counts_the_queue_below_a_head);
	tcase_add_loop_test(tc, test_short_room_holds_when_the_kept_plan_is_compressed, 0, 2);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
