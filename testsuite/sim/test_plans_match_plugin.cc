// campsim plans as sched/campaign does: on many random queues over time, the plugin's planning
// path (its SchedulerParameters -> PlannerConfig -> PlanKeeper, started jobs booked back) and
// campsim's dispatcher (--policy x/MODE -> make_dispatch), given only heads of the queue as
// campsim's passes give them, start the same jobs at every pass, in every mode the two share.
#include "check_main.h"
#include "config/scheduler_parameters.h"
#include "engine/job_dispatch.h"
#include "plan/backfill_modes.h"
#include "plan/scheduler_defaults.h"

#include <climits>
#include <set>

using namespace campaign;
using namespace campaign::sim;

namespace
{

struct Workload {
	uint32_t machine_cpus = 0;
	std::vector<uint32_t> cpus;
	std::vector<int64_t> limit_s, run_s, submit_s;
	std::vector<uint64_t> campaign;
};

// The room for short jobs, as both sides are given it: jobs over kShortLimitS are long, and
// long jobs together leave a quarter of the machine to short ones (sized by blocked demand, the
// default); limits of 5-44 s make about two jobs in three long.
constexpr int64_t kShortLimitS = 20;
constexpr double kShortRoom = 0.25;

Workload random_workload(std::mt19937_64 &random, bool room)
{
	Workload work;
	// With the room: at least 8 CPUs, so it holds two.
	work.machine_cpus = (room ? 8 : 4) + static_cast<uint32_t>(random() % 29);
	const size_t count = 20 + random() % 60;
	int64_t now_s = 0;
	for (size_t job = 0; job < count; job++) {
		now_s += static_cast<int64_t>(random() % 5);
		work.submit_s.push_back(now_s);
		work.cpus.push_back(1 + static_cast<uint32_t>(random() % work.machine_cpus));
		work.limit_s.push_back(5 + static_cast<int64_t>(random() % 40));
		work.run_s.push_back(1 + static_cast<int64_t>(random() % work.limit_s.back()));
		work.campaign.push_back(1 + random() % 4);
	}
	return work;
}

// sched/campaign's side: the keeper its SchedulerParameters configure, fed snapshots.
class PluginPath
{
public:
	PluginPath(const std::string &mode, const Workload &work, bool room) : work_(work)
	{
		// campaign_short_room_recent and _demand at their defaults (6 h, blocked).
		const std::string room_parameters =
		    room ? ",campaign_short_limit=" + std::to_string(kShortLimitS) +
		               ",campaign_short_room=" + std::to_string(kShortRoom)
		         : ",campaign_short_room=0";
		auto values = scheduler_parameter_schema().parse(
		    "campaign_mode=" + mode + ",campaign_depth=50,campaign_horizon=86400" +
		    room_parameters);
		ck_assert_msg(values.ok(), "%s", values.ok() ? "" : values.error().c_str());
		auto config = scheduler_plan_config(values.value());
		ck_assert(config.ok());
		keeper_ = std::make_unique<plan::PlanKeeper>(config.value().planner);
		cluster_.nodes.push_back(
		    {"machine", static_cast<int32_t>(work.machine_cpus), 0, plan::NodeState::up});
	}
	std::vector<uint32_t> pass(const std::vector<uint32_t> &order, int64_t now_s)
	{
		std::vector<plan::PendingJob> pending;
		for (uint32_t job : order)
			pending.push_back({.id = job + 1u,
			                   .cpus = static_cast<int32_t>(work_.cpus[job]),
			                   .nodes_min = 1,
			                   .nodes_max = 1,
			                   .limit_s = work_.limit_s[job],
			                   .campaign_id = work_.campaign[job]});
		auto plan = keeper_->update(cluster_, running_, pending, now_s);
		ck_assert_msg(plan.ok(), "%s", plan.ok() ? "" : plan.error().c_str());
		std::vector<uint32_t> starts;
		for (plan::JobId id : plan.value().starts_now) {
			const uint32_t job = static_cast<uint32_t>(id - 1);
			plan::RunningJob record{id, plan.value().planned.at(id).allocations,
			                        now_s + work_.limit_s[job]};
			ck_assert(keeper_->started(record, now_s).ok());
			running_.push_back(record);
			starts.push_back(job);
		}
		return starts;
	}
	void ended(uint32_t job)
	{
		std::erase_if(running_,
		              [&](const plan::RunningJob &r) { return r.id == job + 1u; });
	}

private:
	const Workload &work_;
	std::unique_ptr<plan::PlanKeeper> keeper_;
	plan::Cluster cluster_;
	std::vector<plan::RunningJob> running_;
};

// short_pending: the CPUs of the pending jobs short for the room (campsim's running sum).
std::unique_ptr<JobDispatch> campsim_path(const std::string &mode, const Workload &work, bool room,
                                          const int64_t *short_pending)
{
	auto named = plan::backfill_mode_named(mode, plan::ModeReader::campsim);
	ck_assert(named.ok());
	// campsim's --depth 50 --horizon 86400, and for the room what a core policy gets with
	// --short-limit and --short-room (simulation.cc's planner_config).
	plan::PlannerConfig config;
	config.depth = 50;
	config.horizon_s = 86400;
	if (room) {
		namespace defaults = plan::scheduler_defaults;
		config.short_room = kShortRoom;
		config.short_limit_s = kShortLimitS;
		config.short_room_recent_s = defaults::short_room_recent_s;
		config.short_room_demand = defaults::short_room_demand;
	}
	DispatchJobs jobs{.cpus = &work.cpus,
	                  .estimate_s = [&work](uint32_t job) { return work.limit_s[job]; },
	                  .campaign_of = [&work](uint32_t job) { return work.campaign[job]; }};
	if (room)
		jobs.short_pending_cpus = [short_pending] { return *short_pending; };
	auto dispatch = make_dispatch(work.machine_cpus, named.value().mode, config, jobs);
	ck_assert(dispatch.ok());
	return std::move(dispatch).value();
}

// campsim's pass as Simulation::dispatch_head makes it: the head of the queue first (`head`
// jobs), twice as long while a job below it might start now. The whole queue when the
// dispatcher does not take heads.
std::vector<uint32_t> campsim_pass(JobDispatch &dispatch, const Workload &work,
                                   const std::vector<uint32_t> &order, size_t head, int64_t now_s)
{
	if (!dispatch.takes_heads())
		head = order.size();
	for (;; head *= 2) {
		const std::vector<uint32_t> listed(order.begin(),
		                                   order.begin() + std::min(head, order.size()));
		std::optional<plan::RestBound> rest;
		if (listed.size() < order.size()) {
			rest = plan::RestBound{INT32_MAX, INT64_MAX};
			for (size_t i = listed.size(); i < order.size(); i++) {
				rest->cpus =
				    std::min(rest->cpus, static_cast<int32_t>(work.cpus[order[i]]));
				rest->limit_s = std::min(rest->limit_s, work.limit_s[order[i]]);
			}
		}
		auto starts = dispatch.dispatch(listed, rest, now_s);
		ck_assert_msg(starts.ok(), "%s", starts.ok() ? "" : starts.error().c_str());
		ck_assert_msg(starts.value() || rest, "a whole queue was not decided");
		if (starts.value())
			return *starts.value();
	}
}

// campsim's walk (Simulation's, with CorePriority's walk): the queue in rank order, passing
// over a job only where the planner says it would take no place (PendingSource's rule).
class OrderWalk final : public JobWalk
{
public:
	OrderWalk(const Workload &work, const std::vector<uint32_t> &order)
	    : work_(work), order_(order), rest_(order.size() + 1)
	{
		for (size_t i = order.size(); i-- > 0;)
			rest_[i] = {
			    std::min(rest_[i + 1].cpus, static_cast<int32_t>(work.cpus[order[i]])),
			    std::min(rest_[i + 1].limit_s, work.limit_s[order[i]])};
	}
	std::optional<uint32_t> next(const plan::Planner &planner) override
	{
		for (; next_ < order_.size(); ++next_) {
			const uint32_t job = order_[next_];
			const bool passed_over =
			    !planner.reserves_for(work_.campaign[job]) &&
			    work_.limit_s[job] >
			        planner.longest_limit_now_s(static_cast<int32_t>(work_.cpus[job]));
			if (!passed_over) {
				last_ = next_++;
				return job;
			}
		}
		return std::nullopt;
	}
	plan::RestBound rest() const override { return rest_[last_]; }
	void restart() override { next_ = last_ = 0; }

private:
	const Workload &work_;
	const std::vector<uint32_t> &order_;
	std::vector<plan::RestBound> rest_; // the fewest CPUs and shortest limit from i down
	size_t next_ = 0;
	size_t last_ = 0;
};

// One random run: arrivals, passes, ends (some early); ranks shuffle now and then. A dispatcher
// that takes walks (campsim's per_campaign) is given heads on odd seeds and walks on even ones,
// as Simulation gives one or the other.
// Returns how many passes started jobs.
size_t compare_on_random_run(const std::string &mode, uint64_t seed, bool room)
{
	std::mt19937_64 random(seed);
	const Workload work = random_workload(random, room);
	PluginPath plugin(mode, work, room);
	int64_t short_pending = 0;
	std::unique_ptr<JobDispatch> campsim = campsim_path(mode, work, room, &short_pending);
	size_t passes_with_starts = 0;
	std::vector<uint32_t> rank(work.cpus.size());
	for (uint32_t job = 0; job < rank.size(); job++)
		rank[job] = static_cast<uint32_t>(random() % 1000);
	std::set<uint32_t> waiting, done;
	std::multimap<int64_t, uint32_t> ends;
	size_t next = 0;
	for (int64_t now_s = 0; done.size() < work.cpus.size() && now_s < 100000; now_s++) {
		for (auto end = ends.begin(); end != ends.end() && end->first <= now_s;) {
			plugin.ended(end->second);
			ck_assert(campsim->ended(end->second, now_s).ok());
			done.insert(end->second);
			end = ends.erase(end);
		}
		while (next < work.cpus.size() && work.submit_s[next] <= now_s) {
			if (work.limit_s[next] <= kShortLimitS)
				short_pending += work.cpus[next];
			waiting.insert(static_cast<uint32_t>(next++));
		}
		if (random() % 10 == 0)
			rank[random() % rank.size()] = static_cast<uint32_t>(random() % 1000);
		std::vector<uint32_t> order(waiting.begin(), waiting.end());
		std::stable_sort(order.begin(), order.end(),
		                 [&](uint32_t a, uint32_t b) { return rank[a] < rank[b]; });
		const std::vector<uint32_t> by_plugin = plugin.pass(order, now_s);
		std::vector<uint32_t> by_campsim;
		if (campsim->takes_walks() && seed % 2 == 0) {
			OrderWalk walk(work, order);
			auto starts = campsim->dispatch_walk(walk, now_s);
			ck_assert_msg(starts.ok(), "%s", starts.ok() ? "" : starts.error().c_str());
			by_campsim = starts.value();
		} else {
			by_campsim = campsim_pass(*campsim, work, order, 1 + seed % 4, now_s);
		}
		ck_assert_msg(by_plugin == by_campsim,
		              "mode %s seed %lu%s t=%ld: plugin starts %zu jobs, campsim %zu",
		              mode.c_str(), static_cast<unsigned long>(seed), room ? " (room)" : "",
		              static_cast<long>(now_s), by_plugin.size(), by_campsim.size());
		passes_with_starts += !by_plugin.empty();
		for (uint32_t job : by_plugin) {
			waiting.erase(job);
			if (work.limit_s[job] <= kShortLimitS)
				short_pending -= work.cpus[job];
			ends.emplace(now_s + work.run_s[job], job);
		}
	}
	ck_assert_msg(done.size() == work.cpus.size(), "mode %s seed %lu: not every job ran",
	              mode.c_str(), static_cast<unsigned long>(seed));
	return passes_with_starts;
}

} // namespace

START_TEST(test_campsim_starts_what_sched_campaign_starts_in_every_shared_mode)
{
	for (const char *mode : {"greedy", "easy", "conservative", "per_campaign"})
		for (uint64_t seed = 1; seed <= 60; seed++)
			compare_on_random_run(mode, seed, false);
}
END_TEST

// The same with long jobs and the room for short jobs sized by blocked demand (the default
// room): sched/campaign plans the whole queue, campsim's per_campaign only the head, with the
// short jobs below it counted (Planner::set_short_pending_cpus).
START_TEST(test_campsim_keeps_the_room_sched_campaign_keeps)
{
	for (const char *mode : {"greedy", "easy", "conservative", "per_campaign"})
		for (uint64_t seed = 1; seed <= 60; seed++)
			compare_on_random_run(mode, seed, true);
}
END_TEST

// campsim's easy plans only the head of the queue where it starts what the kept plan starts
// (the test above): without the room for short jobs. With it the kept plan holds the room it
// sized last, so campsim keeps the plan as sched/campaign does.
START_TEST(test_campsim_plans_easy_heads_only_without_the_room)
{
	std::mt19937_64 random(7);
	const Workload work = random_workload(random, true);
	int64_t short_pending = 0;
	ck_assert(campsim_path("easy", work, false, &short_pending)->takes_heads());
	ck_assert(!campsim_path("easy", work, true, &short_pending)->takes_heads());
	ck_assert(campsim_path("per_campaign", work, true, &short_pending)->takes_heads());
	ck_assert(!campsim_path("conservative", work, false, &short_pending)->takes_heads());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plans_match_plugin");
	TCase *tc = tcase_create("random");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_campsim_starts_what_sched_campaign_starts_in_every_shared_mode);
	tcase_add_test(tc, test_campsim_keeps_the_room_sched_campaign_keeps);
	tcase_add_test(tc, test_campsim_plans_easy_heads_only_without_the_room);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
