// PlanKeeper over a simulated machine: jobs start as planned and end early or on time, new
// jobs arrive at random ranks, some are cancelled. Every kept plan is checked by the
// independent checker (no over-commitment), kept in place when only such events happened,
// and a reserved start never moves later across an in-place update unless a job was inserted
// ahead of it.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_checker.h"
#include "plan_random.h"

#include <map>

using namespace campaign::plan;
using plan_checker::Booking;

namespace
{

struct Machine {
	Cluster cluster;
	std::vector<RunningJob> running;
	std::map<JobId, int64_t> true_end_s; // running jobs end here (<= expected)
	std::vector<PendingJob> pending;     // rank order
};

std::string overcommit_of(const Machine &machine, const Plan &plan, int64_t now_s)
{
	std::vector<Booking> bookings;
	for (const RunningJob &job : machine.running)
		bookings.push_back(
		    {now_s, std::max(job.expected_end_s, now_s + 1), job.allocations});
	for (const auto &[id, planned] : plan.planned)
		for (const PendingJob &job : machine.pending)
			if (job.id == id)
				bookings.push_back({planned.start_s, planned.start_s + job.limit_s,
				                    planned.allocations});
	return plan_checker::overcommit(machine.cluster, bookings, now_s);
}

void run_machine(uint64_t seed)
{
	plan_random::Random random(seed);
	plan_random::Instance instance = plan_random::random_instance(seed, 0);
	PlannerConfig config = instance.config;
	if (config.mode == ReservationMode::per_campaign) // per_campaign always plans afresh
		config.mode = ReservationMode::conservative;
	if (config.mode == ReservationMode::per_campaign) // always afresh: nothing kept to check
		config.mode = ReservationMode::conservative;
	PlanKeeper keeper(config);
	Machine machine{instance.cluster, instance.running, {}, instance.pending};
	for (const RunningJob &job : machine.running)
		machine.true_end_s[job.id] = job.expected_end_s;
	JobId next_id = 5000;
	std::map<JobId, int64_t> reserved_at; // last in-place plan's reserved starts
	for (int64_t now_s = 0; now_s < 400; now_s += random.between(1, 20)) {
		// Ends (some early), cancels, arrivals at a random rank.
		std::erase_if(machine.running, [&](const RunningJob &job) {
			return machine.true_end_s[job.id] <= now_s;
		});
		if (!machine.pending.empty() && random.chance(10))
			machine.pending.erase(machine.pending.begin() +
			                      random.between(0, machine.pending.size() - 1));
		bool inserted_above_all = false;
		size_t inserted_at = machine.pending.size();
		if (random.chance(40)) {
			inserted_at =
			    static_cast<size_t>(random.between(0, machine.pending.size()));
			machine.pending.insert(
			    machine.pending.begin() + inserted_at,
			    plan_random::random_pending(random, next_id++,
			                                machine.cluster.nodes.size()));
			inserted_above_all = inserted_at == 0;
		}
		const uint64_t updates_before = keeper.updates();
		auto plan = keeper.update(machine.cluster, machine.running, machine.pending, now_s);
		ck_assert_msg(plan.ok(), "seed %lu: %s", static_cast<unsigned long>(seed),
		              plan.ok() ? "" : plan.error().c_str());
		const std::string overcommit = overcommit_of(machine, plan.value(), now_s);
		ck_assert_msg(overcommit.empty(), "seed %lu t=%ld: %s",
		              static_cast<unsigned long>(seed), static_cast<long>(now_s),
		              overcommit.c_str());
		const bool in_place = keeper.updates() > updates_before;
		// Reserved starts never move later in place, for jobs ranked above the inserted
		// one.
		if (in_place && !inserted_above_all)
			for (size_t rank = 0; rank < machine.pending.size() && rank < inserted_at;
			     ++rank) {
				const JobId id = machine.pending[rank].id;
				auto before = reserved_at.find(id);
				auto now_planned = plan.value().planned.find(id);
				if (before != reserved_at.end() &&
				    now_planned != plan.value().planned.end())
					ck_assert_msg(
					    now_planned->second.start_s <=
					        std::max(before->second, now_s), // time passes
					    "seed %lu: job %lu moved from %ld to %ld",
					    static_cast<unsigned long>(seed),
					    static_cast<unsigned long>(id),
					    static_cast<long>(before->second),
					    static_cast<long>(now_planned->second.start_s));
			}
		reserved_at.clear();
		for (const auto &[id, planned] : plan.value().planned)
			if (planned.status == JobStatus::reserved)
				reserved_at[id] = planned.start_s;
		// Start what the plan starts now; each ends at or before its estimate.
		for (JobId id : plan.value().starts_now) {
			auto job = std::find_if(machine.pending.begin(), machine.pending.end(),
			                        [id](const PendingJob &p) { return p.id == id; });
			const int64_t expected = now_s + job->limit_s;
			machine.running.push_back(
			    {id, plan.value().planned.at(id).allocations, expected});
			ck_assert(keeper.started(machine.running.back(), now_s).ok());
			machine.true_end_s[id] = now_s + random.between(1, job->limit_s);
			machine.pending.erase(job);
		}
	}
	ck_assert_msg(keeper.updates() > 0, "seed %lu: never kept a plan",
	              static_cast<unsigned long>(seed));
}

} // namespace

START_TEST(test_plan_keeper_random_machines_stay_valid_and_keep_reservations)
{
	for (uint64_t seed = 1; seed <= 300; ++seed)
		run_machine(seed);
}
END_TEST

// A rank change among kept jobs plans afresh.
START_TEST(test_plan_keeper_plans_afresh_when_ranks_change)
{
	Cluster cluster;
	cluster.nodes.push_back({"n1", 4, 0, NodeState::up});
	std::vector<RunningJob> running = {{1, {{0, 4, 0}}, 100}};
	PendingJob a{.id = 2, .cpus = 4, .limit_s = 50};
	PendingJob b{.id = 3, .cpus = 4, .limit_s = 50};
	PlanKeeper keeper;
	ck_assert(keeper.update(cluster, running, {a, b}, 0).ok());
	ck_assert(keeper.update(cluster, running, {a, b}, 10).ok());
	ck_assert_int_eq(keeper.rebuilds(), 1);
	ck_assert_int_eq(keeper.updates(), 1);
	auto swapped = keeper.update(cluster, running, {b, a}, 20);
	ck_assert(swapped.ok());
	ck_assert_int_eq(keeper.rebuilds(), 2);
	ck_assert_int_eq(swapped.value().planned.at(3).start_s, 100);
	ck_assert_int_eq(swapped.value().planned.at(2).start_s, 150);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_keeper");
	TCase *tc = tcase_create("keeper");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_keeper_random_machines_stay_valid_and_keep_reservations);
	tcase_add_test(tc, test_plan_keeper_plans_afresh_when_ranks_change);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
