// A replan, and a plan from a rank down (a job inserted above kept ones), give their bookings back
// one by one where few are given back, and otherwise make the profile again from what stays booked
// (the running jobs, the unavailable windows, the entries above). Either way the plan and the
// profile must be a rebuild's of the same machine and queue, over random machines where both ways
// are taken: a profile made again without a window, a running job, an entry above or the long
// jobs' CPUs would differ from the rebuild's.
#include "check_main.h"
#include "plan_fixtures.h"
#include "plan_random.h"
#include "profile_compare.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace plan_fixtures;

namespace
{
constexpr int kNodes = 6;
constexpr int32_t kCpus = 8;
constexpr int64_t kShortLimit = 1000;

struct Machine {
	Cluster cluster;
	std::vector<RunningJob> running;
	std::vector<PendingJob> pending;
};

Machine random_machine(plan_random::Random &random, JobId &next_id)
{
	Machine machine;
	machine.cluster = uniform_cluster(kNodes, kCpus);
	if (random.chance(30))
		machine.cluster.nodes[kNodes - 1].state = NodeState::drain;
	if (random.chance(60)) { // a maintenance window on two nodes
		const int64_t start_s = random.between(0, 3000);
		machine.cluster.unavailable.push_back(
		    {{1, 3}, start_s, start_s + random.between(100, 3000), 0, 0});
	}
	std::vector<int32_t> free(kNodes, kCpus);
	const int running_count = static_cast<int>(random.between(0, 10));
	for (int i = 0; i < running_count; ++i) {
		const auto node = static_cast<NodeIndex>(random.between(0, kNodes - 1));
		if (free[node] == 0)
			continue;
		const auto cpus = static_cast<int32_t>(random.between(1, free[node]));
		free[node] -= cpus;
		// Short or long on both sides of the replan (at 0 and at 100 at most): a running
		// job keeps the long flag it was booked with.
		const int64_t end_s =
		    random.chance(50) ? random.between(1, 900) : random.between(1200, 5000);
		machine.running.push_back(running(next_id++, node, cpus, end_s));
	}
	const int pending_count = static_cast<int>(random.between(1, 50));
	for (int i = 0; i < pending_count; ++i)
		machine.pending.push_back(job(next_id++,
		                              static_cast<int32_t>(random.between(1, 12)),
		                              random.between(10, 3000), random.between(1, 4)));
	return machine;
}

PlannerConfig remade_config(plan_random::Random &random)
{
	PlannerConfig result = config(ReservationMode::conservative);
	if (random.chance(50)) { // the room for short jobs: long jobs' CPUs counted per slot
		result.short_room = 0.25;
		result.short_limit_s = kShortLimit;
	}
	result.whole_node_reservations = random.chance(25);
	return result;
}

void check_same(const Planner &kept, const Planner &rebuilt, uint64_t seed, const char *what)
{
	const std::vector<PlannedJob> a = kept.queue(), b = rebuilt.queue();
	ck_assert_msg(a.size() == b.size(), "seed %lu %s: %zu jobs against %zu",
	              static_cast<unsigned long>(seed), what, a.size(), b.size());
	for (size_t i = 0; i < a.size(); ++i)
		ck_assert_msg(
		    a[i].id == b[i].id && a[i].status == b[i].status &&
		        a[i].start_s == b[i].start_s && a[i].allocations == b[i].allocations,
		    "seed %lu %s: job %lu planned at %ld, the rebuild's at %ld (or elsewhere)",
		    static_cast<unsigned long>(seed), what, static_cast<unsigned long>(a[i].id),
		    static_cast<long>(a[i].start_s), static_cast<long>(b[i].start_s));
	profile_compare::check_same_profiles(kept.profile(), rebuilt.profile(),
	                                     "seed " + std::to_string(seed) + " " + what +
	                                         " (kept / rebuilt)");
}

Planner rebuilt_at(const PlannerConfig &config, const Cluster &cluster,
                   const std::vector<RunningJob> &running, const std::vector<PendingJob> &pending,
                   int64_t now_s)
{
	Planner planner(config);
	ck_assert(planner.rebuild(cluster, running, pending, now_s).ok());
	return planner;
}
} // namespace

START_TEST(test_replan_gives_a_rebuilds_plan_and_profile)
{
	// A replan at 100 of a planner built at 0: the jobs ended by then gone, one more started,
	// the queue reordered and grown.
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		plan_random::Random random(seed);
		JobId next_id = 1;
		Machine machine = random_machine(random, next_id);
		const PlannerConfig config = remade_config(random);
		Planner kept =
		    rebuilt_at(config, machine.cluster, machine.running, machine.pending, 0);
		const int64_t now_s = random.between(1, 100);
		std::erase_if(machine.running, [now_s](const RunningJob &job) {
			return job.expected_end_s <= now_s;
		});
		if (random.chance(50) && !machine.pending.empty()) { // started now, on node 0
			const PendingJob started = machine.pending.front();
			machine.pending.erase(machine.pending.begin());
			machine.running.push_back(
			    running(started.id, 0, 1, now_s + started.limit_s));
		}
		for (size_t i = machine.pending.size(); i > 1; --i)
			std::swap(machine.pending[i - 1],
			          machine.pending[static_cast<size_t>(
			              random.between(0, static_cast<int64_t>(i) - 1))]);
		const int more = static_cast<int>(random.between(0, 20));
		for (int i = 0; i < more; ++i)
			machine.pending.push_back(job(next_id++, 2, random.between(10, 2000)));
		ck_assert(kept.replan(machine.running, machine.pending, now_s).ok());
		check_same(
		    kept,
		    rebuilt_at(config, machine.cluster, machine.running, machine.pending, now_s),
		    seed, "replan");
	}
}
END_TEST

START_TEST(test_insert_above_kept_jobs_gives_a_rebuilds_plan_and_profile)
{
	// A job ranked at a random place of a kept queue, at the time of its plan: the kept jobs
	// above keep their bookings, those below are planned again, as a rebuild plans them.
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		plan_random::Random random(seed + 1000);
		JobId next_id = 1;
		Machine machine = random_machine(random, next_id);
		const PlannerConfig config = remade_config(random);
		Planner kept =
		    rebuilt_at(config, machine.cluster, machine.running, machine.pending, 0);
		const auto at = static_cast<size_t>(
		    random.between(0, static_cast<int64_t>(machine.pending.size()) - 1));
		const PendingJob inserted =
		    job(next_id++, static_cast<int32_t>(random.between(1, 8)),
		        random.between(10, 3000));
		ck_assert(kept.jobs_inserted({{&inserted, machine.pending[at].id}}, 0).ok());
		machine.pending.insert(machine.pending.begin() + static_cast<std::ptrdiff_t>(at),
		                       inserted);
		check_same(kept,
		           rebuilt_at(config, machine.cluster, machine.running, machine.pending, 0),
		           seed, "insert");
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_profile_remade");
	TCase *tc = tcase_create("remade");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_replan_gives_a_rebuilds_plan_and_profile);
	tcase_add_test(tc, test_insert_above_kept_jobs_gives_a_rebuilds_plan_and_profile);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
