// PlanKeeper over a simulated machine: jobs start as planned and end early or on time, new
// jobs arrive at random ranks, some are cancelled. Every kept plan is checked by the
// independent checker (no over-commitment), kept in place when only such events happened,
// and a reserved start never moves later across an in-place update unless a job was inserted
// ahead of it. A keeper told that shapes are fixed (set_shape_changes) plans the same, and one
// told that only campaigns move plans the same while they do.
#include "check_main.h"
#include "plan/plan_keeper.h"
#include "plan_checker.h"
#include "plan_fixtures.h"
#include "plan_random.h"

#include <limits>
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

bool same_plan(const Plan &a, const Plan &b)
{
	if (a.starts_now != b.starts_now || a.planned.size() != b.planned.size())
		return false;
	for (const auto &[id, planned] : a.planned) {
		auto other = b.planned.find(id);
		if (other == b.planned.end() || other->second.start_s != planned.start_s ||
		    other->second.status != planned.status ||
		    other->second.allocations != planned.allocations)
			return false;
	}
	return true;
}

int64_t pending_limit_s(const Machine &machine, JobId id)
{
	for (const PendingJob &job : machine.pending)
		if (job.id == id)
			return job.limit_s;
	return 0;
}

// Ends (some early), cancels, an arrival at a random rank. Returns the arrival's rank
// (the queue's length if none).
size_t step_machine(Machine &machine, plan_random::Random &random, int64_t now_s, JobId &next_id)
{
	std::erase_if(machine.running,
	              [&](const RunningJob &job) { return machine.true_end_s[job.id] <= now_s; });
	if (!machine.pending.empty() && random.chance(10))
		machine.pending.erase(machine.pending.begin() +
		                      random.between(0, machine.pending.size() - 1));
	size_t inserted_at = machine.pending.size();
	if (random.chance(40)) {
		inserted_at = static_cast<size_t>(random.between(0, machine.pending.size()));
		machine.pending.insert(
		    machine.pending.begin() + inserted_at,
		    plan_random::random_pending(random, next_id++, machine.cluster.nodes.size()));
	}
	return inserted_at;
}

// Starts what the plan starts now; each ends at or before its estimate.
void start_planned(Machine &machine, PlanKeeper &keeper, const Plan &plan,
                   plan_random::Random &random, int64_t now_s)
{
	for (JobId id : plan.starts_now) {
		auto job = std::find_if(machine.pending.begin(), machine.pending.end(),
		                        [id](const PendingJob &p) { return p.id == id; });
		const int64_t expected = now_s + job->limit_s;
		machine.running.push_back({id, plan.planned.at(id).allocations, expected});
		ck_assert(keeper.started(machine.running.back(), now_s).ok());
		machine.true_end_s[id] = now_s + random.between(1, job->limit_s);
		machine.pending.erase(job);
	}
}

// move_campaigns: now and then a pending job's campaign changes (campsim's online campaigns),
// the one change a ShapeChanges::campaign_only keeper is told to expect.
void run_machine(uint64_t seed, bool move_campaigns)
{
	plan_random::Random random(seed);
	plan_random::Instance instance = plan_random::random_instance(seed, 0);
	PlannerConfig config = instance.config;
	if (config.mode == ReservationMode::per_campaign) // always afresh: nothing kept to check
		config.mode = ReservationMode::conservative;
	PlanKeeper keeper(config), twin(config), fixed(config), campaigned(config);
	// The jobs here keep their shapes (but for their campaigns with move_campaigns): the
	// promises hold.
	fixed.set_shape_changes(PlanKeeper::ShapeChanges::none);
	campaigned.set_shape_changes(PlanKeeper::ShapeChanges::campaign_only);
	Machine machine{instance.cluster, instance.running, {}, instance.pending};
	for (const RunningJob &job : machine.running)
		machine.true_end_s[job.id] = job.expected_end_s;
	JobId next_id = 5000;
	std::map<JobId, int64_t> reserved_at; // last in-place plan's reserved starts
	for (int64_t now_s = 0; now_s < 400; now_s += random.between(1, 20)) {
		const size_t inserted_at = step_machine(machine, random, now_s, next_id);
		if (move_campaigns && !machine.pending.empty() && random.chance(30))
			machine.pending[random.between(0, machine.pending.size() - 1)].campaign_id =
			    static_cast<uint64_t>(random.between(1, 4));
		const bool inserted_above_all = inserted_at == 0;
		const uint64_t updates_before = keeper.updates();
		auto plan = keeper.update(machine.cluster, machine.running, machine.pending, now_s);
		ck_assert_msg(plan.ok(), "seed %lu: %s", static_cast<unsigned long>(seed),
		              plan.ok() ? "" : plan.error().c_str());
		// The same snapshots with the running jobs listed the other way round: same plan.
		const std::vector<RunningJob> reversed(machine.running.rbegin(),
		                                       machine.running.rend());
		auto twin_plan = twin.update(machine.cluster, reversed, machine.pending, now_s);
		ck_assert(twin_plan.ok());
		ck_assert_msg(same_plan(twin_plan.value(), plan.value()),
		              "seed %lu t=%ld: the plan depends on the running jobs' order",
		              static_cast<unsigned long>(seed), static_cast<long>(now_s));
		// Told what of the shapes may change, a keeper compares only that, nothing else:
		// the same plans and the same fresh plans. ShapeChanges::none only where nothing
		// moves.
		auto same_as_comparing = [&](PlanKeeper &told, const char *promise) {
			auto told_plan =
			    told.update(machine.cluster, machine.running, machine.pending, now_s);
			ck_assert(told_plan.ok());
			ck_assert_msg(same_plan(told_plan.value(), plan.value()),
			              "seed %lu t=%ld: %s changed the plan",
			              static_cast<unsigned long>(seed), static_cast<long>(now_s),
			              promise);
			ck_assert_msg(told.rebuilds() == keeper.rebuilds(),
			              "seed %lu t=%ld: %s planned afresh %lu times, any %lu",
			              static_cast<unsigned long>(seed), static_cast<long>(now_s),
			              promise, static_cast<unsigned long>(told.rebuilds()),
			              static_cast<unsigned long>(keeper.rebuilds()));
		};
		if (!move_campaigns)
			same_as_comparing(fixed, "ShapeChanges::none");
		same_as_comparing(campaigned, "ShapeChanges::campaign_only");
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
		for (JobId id : plan.value().starts_now) {
			const RunningJob started{id, plan.value().planned.at(id).allocations,
			                         now_s + pending_limit_s(machine, id)};
			ck_assert(twin.started(started, now_s).ok());
			ck_assert(fixed.started(started, now_s).ok());
			ck_assert(campaigned.started(started, now_s).ok());
		}
		start_planned(machine, keeper, plan.value(), random, now_s);
	}
	ck_assert_msg(keeper.updates() > 0, "seed %lu: never kept a plan",
	              static_cast<unsigned long>(seed));
}

// Modes that plan afresh at every snapshot (per_campaign; starts_only) replan on the kept
// running jobs: the plan must be the one a new planner makes of the same snapshot, and with
// starts_only the same starts. Running jobs here also overrun and have their limits raised.
void run_afresh_machine(uint64_t seed, bool starts_only)
{
	plan_random::Random random(seed);
	plan_random::Instance instance = plan_random::random_instance(seed, 0);
	PlannerConfig config = instance.config;
	config.starts_only = starts_only;
	if (!starts_only) // other modes keep plans: not this test
		config.mode = ReservationMode::per_campaign;
	PlannerConfig full = config;
	full.starts_only = false;
	PlanKeeper keeper(config);
	Machine machine{instance.cluster, instance.running, {}, instance.pending};
	for (const RunningJob &job : machine.running)
		machine.true_end_s[job.id] = job.expected_end_s + (random.chance(20) ? 15 : 0);
	JobId next_id = 5000;
	for (int64_t now_s = 0; now_s < 400; now_s += random.between(1, 20)) {
		step_machine(machine, random, now_s, next_id);
		if (!machine.running.empty() && random.chance(15)) // a raised limit
			machine.running[random.between(0, machine.running.size() - 1)]
			    .expected_end_s += random.between(1, 30);
		auto kept = keeper.update(machine.cluster, machine.running, machine.pending, now_s);
		Planner fresh(full);
		ck_assert(
		    fresh.rebuild(machine.cluster, machine.running, machine.pending, now_s).ok());
		const Plan expected = fresh.plan(now_s);
		ck_assert_msg(kept.ok(), "seed %lu: %s", static_cast<unsigned long>(seed),
		              kept.ok() ? "" : kept.error().c_str());
		const Plan &plan = kept.value();
		ck_assert_msg(plan.starts_now == expected.starts_now,
		              "seed %lu t=%ld: %zu starts, a new planner %zu",
		              static_cast<unsigned long>(seed), static_cast<long>(now_s),
		              plan.starts_now.size(), expected.starts_now.size());
		for (JobId id : expected.starts_now)
			ck_assert(plan.planned.at(id).allocations ==
			          expected.planned.at(id).allocations);
		if (!starts_only)
			for (const auto &[id, planned] : expected.planned) {
				auto same = plan.planned.find(id);
				ck_assert_msg(same != plan.planned.end() &&
				                  same->second.start_s == planned.start_s &&
				                  same->second.status == planned.status &&
				                  same->second.allocations == planned.allocations,
				              "seed %lu t=%ld: job %lu planned differently",
				              static_cast<unsigned long>(seed),
				              static_cast<long>(now_s),
				              static_cast<unsigned long>(id));
			}
		start_planned(machine, keeper, plan, random, now_s);
	}
}

// A queue that passes over every job PendingSource allows, judged on the planner at each call
// (campsim's walk does the same through the core's index).
class PassingSource final : public PendingSource
{
public:
	explicit PassingSource(const std::vector<PendingJob> &queue) : queue_(queue) {}
	const PendingJob *next(const Planner &planner) override
	{
		for (++at_; at_ < queue_.size(); ++at_) {
			const PendingJob &job = queue_[at_];
			const int32_t cpus = std::max(job.cpus, job.nodes_min);
			if (planner.reserves_for(job.campaign_id) ||
			    job.limit_s <= planner.longest_limit_now_s(cpus))
				return &job;
			++passed_over;
		}
		return nullptr;
	}
	RestBound rest() const override
	{
		RestBound least{std::numeric_limits<int32_t>::max(),
		                std::numeric_limits<int64_t>::max()};
		for (size_t below = at_; below < queue_.size(); ++below) {
			least.cpus = std::min(
			    least.cpus, std::max(queue_[below].cpus, queue_[below].nodes_min));
			least.limit_s =
			    std::min(least.limit_s, std::max<int64_t>(queue_[below].limit_s, 1));
		}
		return least;
	}
	void restart() override { at_ = static_cast<size_t>(-1); }
	size_t passed_over = 0;

private:
	const std::vector<PendingJob> &queue_;
	size_t at_ = static_cast<size_t>(-1);
};

void expect_same_plan(const Plan &walked, const Plan &whole, uint64_t seed, const char *when)
{
	ck_assert_msg(walked.starts_now == whole.starts_now, "seed %lu %s: %zu starts, whole %zu",
	              static_cast<unsigned long>(seed), when, walked.starts_now.size(),
	              whole.starts_now.size());
	ck_assert_msg(walked.planned.size() == whole.planned.size(),
	              "seed %lu %s: %zu placed, whole %zu", static_cast<unsigned long>(seed), when,
	              walked.planned.size(), whole.planned.size());
	for (const auto &[id, planned] : whole.planned) {
		auto same = walked.planned.find(id);
		ck_assert_msg(
		    same != walked.planned.end() && same->second.status == planned.status &&
		        same->second.start_s == planned.start_s &&
		        same->second.allocations == planned.allocations,
		    "seed %lu %s: job %lu placed differently", static_cast<unsigned long>(seed),
		    when, static_cast<unsigned long>(id));
	}
}

} // namespace

// A walked queue that passes over every job it may gives the starts and the reservations of
// the whole queue (campsim's wake-ups come from the reservations): a source that passed over
// a job that could start or reserve fails here.
// With a room for short jobs, longest_limit_now_s also passes over the long jobs the room keeps
// out (long jobs' CPUs now plus theirs over the usable CPUs less the room): the same plans. Returns
// how many jobs were passed over.
static size_t check_walk_passing_over(bool room)
{
	size_t passed_over = 0;
	for (uint64_t seed = 1; seed <= 1500; ++seed) {
		plan_random::Instance instance = plan_random::random_instance(seed, 0);
		plan_random::Random random(seed + 7);
		for (JobId id = 100; id < static_cast<JobId>(100 + random.between(0, 40)); id++)
			instance.pending.push_back(
			    plan_random::random_pending(random, id, instance.cluster.nodes.size()));
		PlannerConfig config = instance.config;
		config.starts_only = true;
		if (room) { // a quarter of the machine for jobs of at most 40 s (limits: 5-80 s)
			config.short_room = 0.25;
			config.short_limit_s = 40;
		}
		Planner whole(config), walked(config);
		PassingSource source(instance.pending);
		ck_assert(
		    whole.rebuild(instance.cluster, instance.running, instance.pending, 0).ok());
		ck_assert(walked.rebuild_walk(instance.cluster, instance.running, source, 0).ok());
		expect_same_plan(walked.plan(0), whole.plan(0), seed, "rebuild");
		passed_over += source.passed_over;
		// Later, on the kept machine, with one running job gone.
		std::vector<RunningJob> running = instance.running;
		if (!running.empty())
			running.erase(running.begin());
		source.restart();
		ck_assert(whole.replan(running, instance.pending, 7).ok());
		ck_assert(walked.replan_walk(running, source, 7).ok());
		expect_same_plan(walked.plan(7), whole.plan(7), seed, "replan");
	}
	ck_assert_msg(passed_over > 1000, "only %zu jobs passed over: the test does not bite",
	              passed_over);
	return passed_over;
}

START_TEST(test_plan_walk_passing_over_gives_the_whole_queue_plan)
{
	const size_t plain = check_walk_passing_over(false);
	const size_t room = check_walk_passing_over(true); // the room's long jobs passed over too
	ck_assert_msg(room > plain, "room %zu, plain %zu passed over", room, plain);
}
END_TEST

START_TEST(test_plan_keeper_replans_per_campaign_as_a_new_planner_would)
{
	for (uint64_t seed = 1; seed <= 200; ++seed)
		run_afresh_machine(seed, false);
}
END_TEST

START_TEST(test_plan_keeper_starts_only_starts_what_a_whole_plan_starts)
{
	for (uint64_t seed = 1; seed <= 200; ++seed)
		run_afresh_machine(seed, true);
}
END_TEST

START_TEST(test_plan_keeper_random_machines_stay_valid_and_keep_reservations)
{
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		run_machine(seed, false);
		run_machine(seed, true);
	}
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

// A job that leaves the snapshot (cancelled) and is listed again under its id is a new job to
// the kept plan: it is planned again in place, behind the one kept, and a job inserted above
// a kept one in the same snapshot moves it back.
START_TEST(test_plan_keeper_in_place_forgets_a_job_gone_from_the_snapshot)
{
	Cluster cluster;
	cluster.nodes.push_back({"n1", 4, 0, NodeState::up});
	std::vector<RunningJob> running = {{1, {{0, 4, 0}}, 100}};
	PendingJob a{.id = 2, .cpus = 4, .limit_s = 50};
	PendingJob b{.id = 3, .cpus = 4, .limit_s = 50};
	PendingJob c{.id = 4, .cpus = 4, .limit_s = 20};
	PlanKeeper keeper;
	ck_assert(keeper.update(cluster, running, {a, b}, 0).ok());
	auto without_b = keeper.update(cluster, running, {a}, 1);
	ck_assert(without_b.ok());
	ck_assert(!without_b.value().planned.contains(3));
	auto b_again = keeper.update(cluster, running, {a, b}, 2);
	ck_assert(b_again.ok());
	ck_assert_int_eq(keeper.rebuilds(), 1); // both in place
	ck_assert_int_eq(keeper.updates(), 2);
	ck_assert(b_again.value().planned.contains(3));
	ck_assert_int_eq(b_again.value().planned.at(3).start_s, 150);
	auto c_above = keeper.update(cluster, running, {a, c, b}, 3);
	ck_assert(c_above.ok());
	ck_assert_int_eq(keeper.updates(), 3);
	ck_assert_int_eq(c_above.value().planned.at(4).start_s, 150);
	ck_assert_int_eq(c_above.value().planned.at(3).start_s, 170);
}
END_TEST

namespace
{

// One node of 8 CPUs, 6 of them held by job 1 until 100; one campaign's queue: the head (job 2,
// all 8 CPUs for 50 s, reserved at 100) and jobs 3-39 of `cpus` CPUs for 150 s; per_campaign
// planning of the head of the queue only (starts_only).
struct HeadOnlyQueue {
	Cluster cluster{{{"n1", 8, 0, NodeState::up}}};
	std::vector<RunningJob> running{{1, {{0, 6, 0}}, 100}};
	std::vector<PendingJob> pending;
	Planner planner;

	explicit HeadOnlyQueue(int32_t cpus) : planner(head_only_config())
	{
		pending.push_back({.id = 2, .cpus = 8, .limit_s = 50, .campaign_id = 1});
		for (JobId id = 3; id < 40; id++)
			pending.push_back(
			    {.id = id, .cpus = cpus, .limit_s = 150, .campaign_id = 1});
	}
	bool rebuild() { return planner.rebuild(cluster, running, pending, 0).ok(); }
	static PlannerConfig head_only_config()
	{
		PlannerConfig config;
		config.mode = ReservationMode::per_campaign;
		config.starts_only = true;
		return config;
	}
};

} // namespace

// starts_only stops at the first rank below which no job could start now: here 2 CPUs are free
// only until the head's reservation at 100, so 60 s jobs below it fit and 150 s ones do not.
// could_start_now bounds the rest of a queue the same way.
START_TEST(test_plan_starts_only_stops_where_no_job_below_fits_the_free_window)
{
	HeadOnlyQueue queue(1);
	Planner &planner = queue.planner;
	std::vector<PendingJob> &pending = queue.pending;
	ck_assert(queue.rebuild());
	ck_assert(planner.plan(0).starts_now.empty());
	ck_assert_uint_eq(planner.pending_count(), 1); // only the head was placed
	ck_assert(planner.could_start_now(2, 99));
	ck_assert(planner.could_start_now(2, 100));
	ck_assert(!planner.could_start_now(2, 101)); // the head takes all 8 CPUs at 100
	ck_assert(!planner.could_start_now(3, 10));
	pending.push_back({.id = 40, .cpus = 1, .limit_s = 60, .campaign_id = 1});
	ck_assert(queue.rebuild());
	ck_assert(planner.plan(0).starts_now == (std::vector<JobId>{40}));
}
END_TEST

// The same stop must not pass over a job that may preempt: it could start on no free CPU. Here
// no job could start on the 2 free CPUs (3 at least), but job 40 may preempt job 1 and fits
// then, as a plan without the stop finds.
START_TEST(test_plan_starts_only_keeps_a_preemptor_below_the_stop)
{
	HeadOnlyQueue queue(3);
	queue.pending.push_back({.id = 40, .cpus = 4, .limit_s = 50, .campaign_id = 1});
	ck_assert(queue.rebuild());
	ck_assert(queue.planner.plan(0).starts_now.empty()); // nothing fits the 2 free CPUs
	queue.pending.back().preemptable = {1};
	ck_assert(queue.rebuild());
	ck_assert(queue.planner.plan(0).starts_now == (std::vector<JobId>{40}));
}
END_TEST

// The keeper's plan of this snapshot, checked to be kept in place (its updates() count is
// `kept_updates` after it), and a new keeper's plan of the same snapshot.
std::pair<Plan, Plan> kept_and_fresh(PlanKeeper &keeper, uint64_t kept_updates,
                                     const PlannerConfig &config, const Cluster &cluster,
                                     const std::vector<RunningJob> &running,
                                     const std::vector<PendingJob> &pending, int64_t now_s)
{
	auto kept = keeper.update(cluster, running, pending, now_s);
	ck_assert(kept.ok());
	ck_assert_uint_eq(keeper.updates(), kept_updates); // kept, not planned afresh
	PlanKeeper fresh_keeper(config);
	auto fresh = fresh_keeper.update(cluster, running, pending, now_s);
	ck_assert(fresh.ok());
	return {kept.value(), fresh.value()};
}

// Issue 17: an early end frees CPUs on a node no reservation ahead of a job needs before that
// job would end; the kept plan must start it now, as a plan made afresh does, although more
// than compress_search_depth reservations rank above it (those beyond the depth used to move
// only on their own nodes, so the job stayed reserved on the other node).
START_TEST(test_plan_keeper_starts_what_an_early_end_freed_beyond_the_search_depth)
{
	const Cluster cluster = plan_fixtures::uniform_cluster(2, 4);
	const PlannerConfig config = plan_fixtures::config(ReservationMode::conservative);
	std::vector<RunningJob> running{plan_fixtures::running(1, 0, 4, 10000),
	                                plan_fixtures::running(2, 1, 4, 1000)};
	std::vector<PendingJob> pending;
	JobId id = 10;
	for (int32_t k = 0; k <= config.compress_search_depth; ++k)
		pending.push_back(
		    plan_fixtures::job(id++, 8, 100)); // both nodes, one after another
	const JobId narrow = id;
	pending.push_back(plan_fixtures::job(narrow, 4, 100)); // fits node 1 at 1000
	PlanKeeper keeper(config);
	auto before = keeper.update(cluster, running, pending, 0);
	ck_assert(before.ok());
	ck_assert_int_eq(before.value().planned.at(narrow).start_s, 1000);
	running.erase(running.begin()); // job 1 ends at 100, not 10000: node 0 is free
	const auto [kept, fresh] =
	    kept_and_fresh(keeper, 1, config, cluster, running, pending, 100);
	ck_assert(fresh.starts_now == std::vector<JobId>{narrow});
	ck_assert_msg(kept.starts_now == fresh.starts_now,
	              "the kept plan starts %zu jobs now, a fresh plan starts job %u",
	              kept.starts_now.size(), static_cast<unsigned>(narrow));
	// No reservation starts later than before the end.
	for (const auto &[job_id, planned] : before.value().planned)
		ck_assert_int_le(kept.planned.at(job_id).start_s, planned.start_s);
}
END_TEST

// Two jobs end in one snapshot, each giving back 2 of the 4 CPUs the second-ranked job needs.
// Given back one at a time, the first end's compression started the third-ranked 2-CPU job
// there, and the second's CPUs alone were too few for the 4-CPU one: a fresh plan of the same
// snapshot starts the 4-CPU job (KTH-SP2 at 0.95 under fair-share EASY: 65 of 28,279 kept
// plans started a lower-ranked job that way).
void check_ends_given_back_at_once(ReservationMode mode)
{
	const Cluster cluster = plan_fixtures::uniform_cluster(1, 8);
	const PlannerConfig config = plan_fixtures::config(mode);
	std::vector<RunningJob> running{plan_fixtures::running(1, 0, 2, 1000),
	                                plan_fixtures::running(2, 0, 2, 1000),
	                                plan_fixtures::running(3, 0, 4, 5000)};
	const std::vector<PendingJob> pending{plan_fixtures::job(10, 8, 100),
	                                      plan_fixtures::job(11, 4, 100),
	                                      plan_fixtures::job(12, 2, 100)};
	PlanKeeper keeper(config);
	auto before = keeper.update(cluster, running, pending, 0);
	ck_assert(before.ok());
	ck_assert(before.value().starts_now.empty());
	running.resize(1); // jobs 1 and 2 end at 50, both
	running.front() = plan_fixtures::running(3, 0, 4, 5000);
	const auto [kept, fresh] = kept_and_fresh(keeper, 1, config, cluster, running, pending, 50);
	ck_assert(fresh.starts_now == std::vector<JobId>{11});
	ck_assert_msg(kept.starts_now == fresh.starts_now,
	              "the kept plan starts %zu job(s) now, first %u; a fresh plan starts job 11",
	              kept.starts_now.size(),
	              kept.starts_now.empty() ? 0u
	                                      : static_cast<unsigned>(kept.starts_now.front()));
}

START_TEST(test_plan_keeper_gives_back_a_snapshots_ends_at_once)
{
	check_ends_given_back_at_once(ReservationMode::easy);
	check_ends_given_back_at_once(ReservationMode::conservative);
}
END_TEST

// EASY's kept plan is its fresh plan: one reservation, compressed earlier, and every other job
// started now in rank order where it fits, as a fresh plan does. Checked at every in-place
// update of random machines (ends, several at once, cancels and arrivals at random ranks).
START_TEST(test_plan_keeper_easy_kept_plan_starts_what_a_fresh_plan_starts)
{
	size_t compared = 0;
	for (uint64_t seed = 1; seed <= 150; ++seed) {
		plan_random::Random random(seed);
		plan_random::Instance instance = plan_random::random_instance(seed, 0);
		PlannerConfig config = instance.config;
		config.mode = ReservationMode::easy;
		config.depth = 1;
		// Searched anywhere (the default): a reservation kept on its nodes where a fresh
		// plan would choose others at the same start changes which jobs fit beside it.
		config.compress_search_depth = 1;
		PlanKeeper keeper(config);
		Machine machine{instance.cluster, instance.running, {}, instance.pending};
		for (const RunningJob &job : machine.running)
			machine.true_end_s[job.id] = job.expected_end_s;
		JobId next_id = 5000;
		for (int64_t now_s = 0; now_s < 400; now_s += random.between(1, 20)) {
			step_machine(machine, random, now_s, next_id);
			const uint64_t updates_before = keeper.updates();
			auto plan =
			    keeper.update(machine.cluster, machine.running, machine.pending, now_s);
			ck_assert(plan.ok());
			if (keeper.updates() > updates_before) {
				Planner fresh(config);
				ck_assert(fresh
				              .rebuild(machine.cluster, machine.running,
				                       machine.pending, now_s)
				              .ok());
				const Plan expected = fresh.plan(now_s);
				ck_assert_msg(
				    plan.value().starts_now == expected.starts_now,
				    "seed %lu t=%ld: the kept EASY plan starts %zu jobs "
				    "now, a fresh one %zu",
				    static_cast<unsigned long>(seed), static_cast<long>(now_s),
				    plan.value().starts_now.size(), expected.starts_now.size());
				++compared;
			}
			start_planned(machine, keeper, plan.value(), random, now_s);
		}
	}
	ck_assert_uint_gt(compared, 100);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_keeper");
	TCase *tc = tcase_create("keeper");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_keeper_random_machines_stay_valid_and_keep_reservations);
	tcase_add_test(tc, test_plan_keeper_plans_afresh_when_ranks_change);
	tcase_add_test(tc, test_plan_keeper_in_place_forgets_a_job_gone_from_the_snapshot);
	tcase_add_test(tc, test_plan_keeper_replans_per_campaign_as_a_new_planner_would);
	tcase_add_test(tc, test_plan_keeper_starts_only_starts_what_a_whole_plan_starts);
	tcase_add_test(tc, test_plan_starts_only_stops_where_no_job_below_fits_the_free_window);
	tcase_add_test(tc, test_plan_starts_only_keeps_a_preemptor_below_the_stop);
	tcase_add_test(tc, test_plan_walk_passing_over_gives_the_whole_queue_plan);
	tcase_add_test(tc, test_plan_keeper_starts_what_an_early_end_freed_beyond_the_search_depth);
	tcase_add_test(tc, test_plan_keeper_gives_back_a_snapshots_ends_at_once);
	tcase_add_test(tc, test_plan_keeper_easy_kept_plan_starts_what_a_fresh_plan_starts);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
