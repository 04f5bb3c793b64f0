// The freeze (PlannerConfig::freeze_slip_s): a reservation whose start slipped more than the
// bound past its first reserved start is kept there on later plans; higher-ranked arrivals
// are planned around it. Hand-worked on one node of 10 CPUs, through the planner's fresh plans
// and through the PlanKeeper's kept plan (submissions ranked above: Planner::job_submitted).
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_checker.h"
#include "plan_fixtures.h"
#include "plan_random.h"

#include <algorithm>
#include <cstdio>

using namespace plan_fixtures;

namespace
{

PlannerConfig freeze_config(int64_t slip_s, double wide = 0)
{
	PlannerConfig result = config(ReservationMode::conservative);
	result.freeze_slip_s = slip_s;
	result.freeze_wide = wide;
	return result;
}

void check_ok(const campaign::Status &status)
{
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
}

// Node n1 is busy past the horizon (R2), so every job runs on n0 and W is half the machine.
// Wide W (10 CPUs, 100 s) waits for R (ends at 100): reserved at 100. At t = 10, H1 (10 CPUs,
// 200 s) arrives ranked first: W slips to 300. At t = 20, H2 (10 CPUs, 200 s) arrives ranked
// first: unfrozen, W would slip again to 500 behind H2 (100-300) and H1 (300-500).
// Returns the last plan. keeper: through a PlanKeeper, else Planner::rebuild each time. W, H1
// and H2 are of campaigns 1, 2 and h2_campaign.
Plan plan_arrivals(const PlannerConfig &config, bool keeper, uint64_t h2_campaign = 3)
{
	const Cluster cluster = uniform_cluster(2, 10);
	const std::vector<RunningJob> busy = {running(100, 0, 10, 100),
	                                      running(101, 1, 10, 10'000'000)};
	const PendingJob w = job(1, 10, 100, 1), h1 = job(2, 10, 200, 2),
	                 h2 = job(3, 10, 200, h2_campaign);
	const std::vector<std::vector<PendingJob>> queues = {{w}, {h1, w}, {h2, h1, w}};
	const int64_t times[] = {0, 10, 20};
	PlanKeeper kept(config);
	Planner planner(config);
	Plan plan;
	for (size_t step = 0; step < queues.size(); ++step) {
		if (keeper) {
			auto updated = kept.update(cluster, busy, queues[step], times[step]);
			ck_assert_msg(updated.ok(), "%s",
			              updated.ok() ? "" : updated.error().c_str());
			plan = updated.value();
		} else {
			check_ok(planner.rebuild(cluster, busy, queues[step], times[step]));
			plan = planner.plan(times[step]);
		}
		if (step == 1)
			ck_assert_int_eq(plan.planned.at(1).start_s, 300); // slipped by 200 s
	}
	if (keeper) // the arrivals were applied to the kept plan, not planned afresh
		ck_assert_int_eq(kept.rebuilds(), 1);
	return plan;
}

} // namespace

// Slipped 200 s past its first start, over a bound of 100: W stays at 300 and H1, ranked above
// it, is planned around it (after it, at 400). W is half the machine: frozen also when only
// jobs of at least half are (freeze_wide).
START_TEST(test_freeze_keeps_a_slipped_reservation_from_a_higher_ranked_arrival)
{
	for (const double wide : {0.0, 0.5}) {
		const Plan plan = plan_arrivals(freeze_config(100, wide), _i == 1);
		ck_assert_int_eq(plan.planned.at(1).start_s, 300);
		ck_assert_int_eq(plan.planned.at(3).start_s, 100);
		ck_assert_int_eq(plan.planned.at(2).start_s, 400);
	}
}
END_TEST

// Slipped 200 s, under a bound of 1000 (or the freeze off, or W narrower than freeze_wide): W
// is still pushed back to 500.
START_TEST(test_freeze_leaves_a_reservation_that_did_not_slip_past_the_bound)
{
	for (const PlannerConfig &config :
	     {freeze_config(1000), freeze_config(0), freeze_config(100, 0.6)}) {
		const Plan plan = plan_arrivals(config, _i == 1);
		ck_assert_int_eq(plan.planned.at(3).start_s, 100);
		ck_assert_int_eq(plan.planned.at(2).start_s, 300);
		ck_assert_int_eq(plan.planned.at(1).start_s, 500);
	}
}
END_TEST

// freeze_skip_first: a job of one of the first K campaigns in rank order is not frozen. K = 1
// and H2 of another campaign: W's campaign ranks third, W stays frozen at 300. H2 of W's own
// campaign ranks it first: W is planned at its rank, behind H2 and H1, at 500. K = 2: at t = 10
// W's campaign ranked second, so W was never frozen, and slips to 500.
START_TEST(test_freeze_spares_the_first_ranked_campaigns)
{
	const bool keeper = _i == 1;
	PlannerConfig first = freeze_config(100);
	first.freeze_skip_first = 1;
	ck_assert_int_eq(plan_arrivals(first, keeper, 3).planned.at(1).start_s, 300);
	Plan plan = plan_arrivals(first, keeper, 1);
	ck_assert_int_eq(plan.planned.at(3).start_s, 100);
	ck_assert_int_eq(plan.planned.at(2).start_s, 300);
	ck_assert_int_eq(plan.planned.at(1).start_s, 500);
	PlannerConfig two = freeze_config(100);
	two.freeze_skip_first = 2;
	ck_assert_int_eq(plan_arrivals(two, keeper, 3).planned.at(1).start_s, 500);
}
END_TEST

// freeze_keeps_room: one node of 20 CPUs, a room of at most 2 CPUs (10 %), short: up to 50 s,
// sized by blocked short jobs (none here, so the adaptive room is 0). R1 (long, 10 CPUs) runs
// to 1000. W (10 CPUs) is frozen at 300 as in plan_arrivals. Booked against the room now (0),
// W holds every CPU with R1 from 300; against the room's cap, long jobs leave 2 CPUs, so W's
// frozen booking goes to 1000, after R1. With no room at all (short_room 0) both are 300.
START_TEST(test_freeze_keeps_the_room_at_its_cap)
{
	const Cluster cluster = uniform_cluster(1, 20);
	const std::vector<RunningJob> busy = {running(100, 0, 10, 100), running(101, 0, 10, 1000)};
	const PendingJob w = job(1, 10, 100), h1 = job(2, 10, 200);
	for (const bool keeps_room : {false, true})
		for (const double room : {0.0, 0.1}) {
			PlannerConfig config = freeze_config(100);
			config.short_room = room;
			config.short_limit_s = 50;
			config.short_room_recent_s = 1000;
			config.short_room_demand = ShortRoomDemand::blocked;
			config.freeze_keeps_room = keeps_room;
			Planner planner(config);
			check_ok(planner.rebuild(cluster, busy, {w}, 0));
			ck_assert_int_eq(planner.plan(0).planned.at(1).start_s, 100);
			check_ok(planner.rebuild(cluster, busy, {h1, w}, 10));
			ck_assert_int_eq(planner.plan(10).planned.at(1).start_s, 300); // frozen
			ck_assert_int_eq(planner.frozen_jobs(), 1);
			check_ok(planner.rebuild(cluster, busy, {h1, w}, 20));
			ck_assert_int_eq(planner.short_room_cpus(), 0);
			const Plan plan = planner.plan(20);
			ck_assert_int_eq(plan.planned.at(2).start_s, 100);
			ck_assert_int_eq(plan.planned.at(1).start_s,
			                 keeps_room && room > 0 ? 1000 : 300);
		}
}
END_TEST

// A frozen job is booked from its last start on; at its rank it moves earlier into room the
// jobs above left, before the jobs below are planned. R ends early (t = 30): H1 starts now
// (30-230) and W, frozen at 300, moves to 230; S (4 CPUs, 50 s, ranked last) follows at 330.
// H1 is refused: at t = 31 W moves from 230 to now, and S follows it at 131. Without the move,
// W would stay at 300 and 230, and S would start before it.
START_TEST(test_freeze_moves_a_frozen_job_earlier_at_its_rank)
{
	const Cluster cluster = uniform_cluster(1, 10);
	Planner planner(freeze_config(100));
	const PendingJob w = job(1, 10, 100), h1 = job(2, 10, 200), s = job(4, 4, 50);
	check_ok(planner.rebuild(cluster, {running(100, 0, 10, 100)}, {w}, 0));
	(void)planner.plan(0);
	check_ok(planner.rebuild(cluster, {running(100, 0, 10, 100)}, {h1, w}, 10));
	ck_assert_int_eq(planner.plan(10).planned.at(1).start_s, 300); // frozen at 300
	check_ok(planner.rebuild(cluster, {}, {h1, w, s}, 30));
	Plan plan = planner.plan(30);
	ck_assert(plan.starts_now == (std::vector<JobId>{2}));
	ck_assert_int_eq(plan.planned.at(1).start_s, 230);
	ck_assert_int_eq(plan.planned.at(4).start_s, 330);
	check_ok(planner.refused(2, 30));
	check_ok(planner.rebuild(cluster, {}, {h1, w, s}, 31));
	plan = planner.plan(31);
	ck_assert(plan.starts_now == (std::vector<JobId>{1}));
	ck_assert_int_eq(plan.planned.at(4).start_s, 131);
}
END_TEST

// Random instances, ranks shuffled at each plan so reservations slip and freeze (bound 1 s): no
// node is over-committed at any plan, and every frozen job keeps a place.
START_TEST(test_freeze_never_overcommits_random_instances)
{
	// The instances must freeze jobs, or the check says nothing about the freeze.
	int instances_with_frozen_jobs = 0;
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, 0);
		instance.config.freeze_slip_s = 1;
		instance.config.mode = ReservationMode::conservative;
		// The variants too: a room kept at its cap, the first campaigns spared.
		if (seed % 3 == 1) {
			instance.config.short_room = 0.25;
			instance.config.short_limit_s = 20;
			instance.config.short_room_recent_s = 10;
			instance.config.short_room_demand = ShortRoomDemand::blocked;
			instance.config.freeze_keeps_room = true;
		} else if (seed % 3 == 2)
			instance.config.freeze_skip_first = 1;
		Planner planner(instance.config);
		plan_random::Random random(seed * 7919);
		std::vector<PendingJob> queue = instance.pending;
		for (int64_t now_s = 0; now_s <= 20; now_s += 5) {
			for (size_t i = queue.size(); i > 1; --i)
				std::swap(queue[i - 1],
				          queue[random.between(0, static_cast<int64_t>(i) - 1)]);
			check_ok(planner.rebuild(instance.cluster, instance.running, queue, now_s));
			std::vector<plan_checker::Booking> bookings;
			for (const RunningJob &job : instance.running)
				bookings.push_back({now_s, std::max(job.expected_end_s, now_s + 1),
				                    job.allocations});
			for (const auto &[id, planned] : planner.plan(now_s).planned)
				bookings.push_back({planned.start_s,
				                    planned.start_s + planned.limit_s,
				                    planned.allocations});
			const std::string over =
			    plan_checker::overcommit(instance.cluster, bookings, now_s);
			ck_assert_msg(over.empty(), "seed %llu at %lld: %s",
			              (unsigned long long)seed, (long long)now_s, over.c_str());
		}
		instances_with_frozen_jobs += planner.frozen_jobs() > 0;
	}
	printf("random instances with frozen jobs: %d of 300\n", instances_with_frozen_jobs);
	ck_assert_int_ge(instances_with_frozen_jobs, 30);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_freeze");
	TCase *tc = tcase_create("hand_worked");
	tcase_add_loop_test(
	    tc, test_freeze_keeps_a_slipped_reservation_from_a_higher_ranked_arrival, 0, 2);
	tcase_add_loop_test(tc, test_freeze_leaves_a_reservation_that_did_not_slip_past_the_bound,
	                    0, 2);
	tcase_add_loop_test(tc, test_freeze_spares_the_first_ranked_campaigns, 0, 2);
	tcase_add_test(tc, test_freeze_keeps_the_room_at_its_cap);
	tcase_add_test(tc, test_freeze_moves_a_frozen_job_earlier_at_its_rank);
	tcase_add_test(tc, test_freeze_never_overcommits_random_instances);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
