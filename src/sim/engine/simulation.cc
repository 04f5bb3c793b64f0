// The event loop: at each instant, ends, then submissions (a closed-loop campaign is released
// when the user's previous one completes), then one scheduling pass: rank, filter what may
// start (strict mode, FairCamp's paper blocks), dispatch, start.
#include "engine/simulation.h"

#include "engine/campaign_dependencies.h"
#include "engine/core_priority.h"
#include "engine/downtime_split.h"
#include "engine/fair_share_priority.h"
#include "engine/fcfs_priority.h"
#include "engine/rank_lag_priority.h"
#include "engine/shared_campaigns.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <sys/resource.h>

namespace campaign::sim
{

namespace
{

enum class EventKind : uint8_t { end = 0, estimate_expired = 1, submit = 2, wake = 3 };

struct Event {
	int64_t time_s = 0;
	EventKind kind = EventKind::submit;
	uint32_t job = 0;
	bool operator>(const Event &other) const
	{
		if (time_s != other.time_s)
			return time_s > other.time_s;
		if (kind != other.kind)
			return kind > other.kind;
		return job > other.job;
	}
};

// This thread's: campsim run --parallel simulates other policies on other threads meanwhile.
double process_cpu_s()
{
	timespec now{};
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct PolicySetup {
	std::string core_parameters; // empty: a fair-share baseline, not the core
	bool paper_blocks = false;
};

Result<PolicySetup> policy_setup(const SimulationOptions &options)
{
	static const std::map<std::string, PolicySetup> setups = {
	    {"fifo", {"policy=fifo", false}},
	    {"ostrich", {"policy=ostrich", false}},
	    {"ostrich-strict", {"policy=ostrich,mode=strict", false}},
	    {"faircamp", {"policy=faircamp", false}},
	    {"faircamp-paper", {"policy=faircamp,faircamp_mode=paper", true}},
	    {"fifo-blocks", {"policy=fifo", true}},
	    {"fcfs", {"", false}},
	    {"fairshare", {"", false}},
	    {"fairtree", {"", false}},
	};
	auto found = setups.find(options.priority);
	if (found == setups.end())
		return Error{
		    "priority '" + options.priority +
		    "': expected one of fcfs, fifo, fifo-blocks, " +
		    "ostrich, ostrich-strict, faircamp, faircamp-paper, fairshare, fairtree"};
	PolicySetup setup = found->second;
	if (!setup.core_parameters.empty() && !options.core_parameters.empty())
		setup.core_parameters += "," + options.core_parameters;
	return setup;
}

class Simulation
{
public:
	Simulation(const Workload &workload, const SimulationOptions &options)
	    : workload_(workload), options_(options)
	{
	}
	Result<RunResult> run();

private:
	Status prepare();
	Status create_priority();
	void prepare_closed_loop();
	void release_campaign(uint64_t campaign, int64_t now_s);
	void release_in_generation_order(int64_t now_s);
	Status handle(const Event &event);
	Status submit(uint32_t job, int64_t now_s);
	Status on_end(uint32_t job, int64_t now_s);
	Status pass(int64_t now_s);
	Status main_scheduler(int64_t now_s);
	Result<std::vector<uint32_t>> dispatch_head(int64_t now_s);
	Status start_all(Result<std::vector<uint32_t>> starts, int64_t now_s, double cpu_start);
	Result<std::vector<uint32_t>> dispatch_order(int64_t now_s, size_t head,
	                                             Result<std::vector<uint32_t>> order);
	bool walkable() const;
	int64_t shortest_pending_estimate_s() const;
	void wake_at(int64_t wake_s, int64_t now_s);
	std::vector<uint32_t> startable(const std::vector<uint32_t> &order);
	std::vector<uint32_t> paper_block(const std::vector<uint32_t> &order);
	Status start(uint32_t job, int64_t now_s);
	int64_t estimate_s(uint32_t job) const;
	void set_planner_estimates(DispatchJobs &jobs);

	const Workload &workload_;
	const SimulationOptions &options_;
	PolicySetup setup_;
	std::vector<int64_t> runtimes_s_, estimates_s_;
	std::vector<uint32_t> cpus_;
	// Each job's submission, dense: the planner's queue reads it for every job at every pass,
	// and a read in the workload's jobs missed the cache (3 % of ostrich/conservative).
	std::vector<int64_t> submits_s_;
	std::unique_ptr<PrioritySource> priority_;
	CorePriority *core_ = nullptr;        // priority_ when it is the core
	RankLagPriority *rank_lag_ = nullptr; // priority_ under SimulationOptions::rank_lag
	std::unique_ptr<JobDispatch> dispatch_;
	std::unique_ptr<CampaignDependencies> dependencies_; // SimulationOptions::dependencies
	RuntimePredictor predictor_;
	std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
	RunResult result_;
	size_t pending_ = 0, running_ = 0, ended_ = 0;
	std::vector<uint32_t> pending_by_cpus_;      // pending jobs by CPU count
	uint32_t smallest_cpus_ = 0;                 // no pending job is smaller (lower bound)
	std::multiset<int64_t> pending_estimates_s_; // of pending jobs (static estimates)
	// The CPUs of pending jobs whose static estimate is at most the short limit (the planner's
	// room for short jobs; DispatchJobs::short_pending_cpus).
	int64_t pending_short_cpus_ = 0;
	int64_t short_limit_s_ = 0;
	bool is_short(uint32_t job) const { return estimates_s_[job] <= short_limit_s_; }
	uint32_t smallest_pending_cpus();
	int64_t wake_s_ = std::numeric_limits<int64_t>::min(); // the last wake pushed (none yet)
	bool walks_ = false; // passes plan from the core's walk of the order (dispatch_head)
	uint64_t block_campaign_ = 0;
	// Closed loop: each user's campaigns in order, and what is left of each.
	std::map<uint64_t, std::vector<uint32_t>> campaign_jobs_;
	std::map<uint64_t, uint32_t> unfinished_;
	std::map<uint32_t, std::vector<uint64_t>> user_campaigns_;
	std::map<uint32_t, size_t> user_next_;
	std::map<uint32_t, bool> user_busy_; // generation-order release: a campaign is out
	std::map<uint64_t, std::vector<uint32_t>>::const_iterator next_generation_;
};

Status Simulation::create_priority()
{
	if (options_.priority == "fcfs") {
		priority_ = std::make_unique<FcfsPriority>();
		return ok_status();
	}
	if (setup_.core_parameters.empty()) {
		FairShareOptions fair_share;
		fair_share.variant = options_.priority == "fairshare" ? FairShareVariant::classic
		                                                      : FairShareVariant::fair_tree;
		fair_share.half_life_s = options_.fair_share_half_life_s;
		fair_share.max_age_s = options_.fair_share_max_age_s;
		fair_share.calc_period_s = options_.fair_share_calc_period_s;
		fair_share.calc_phase_s = options_.fair_share_calc_phase_s;
		if (Status valid = check_fair_share_options(fair_share); !valid)
			return valid;
		priority_ = std::make_unique<FairSharePriority>(fair_share);
		return ok_status();
	}
	auto core =
	    CorePriority::create(setup_.core_parameters, workload_.machine_cpus, estimates_s_);
	if (!core)
		return Error{core.error()};
	auto owned = std::make_unique<CorePriority>(std::move(core).value());
	owned->set_calc_period(options_.calc_period_s);
	core_ = owned.get();
	priority_ = std::move(owned);
	if (options_.rank_lag) {
		auto lagged =
		    std::make_unique<RankLagPriority>(std::move(priority_), workload_.jobs.size());
		rank_lag_ = lagged.get();
		priority_ = std::move(lagged);
	}
	return ok_status();
}

Status Simulation::prepare()
{
	if (workload_.machine_cpus == 0)
		return Error{workload_.name + ": machine size unknown (give --cpus)"};
	if (!(options_.sched_period_s >= 0 && options_.sched_period_s <= 86400))
		return Error{"sched_period_s " + std::to_string(options_.sched_period_s) +
		             ": expected seconds in 0..86400"};
	auto setup = policy_setup(options_);
	if (!setup)
		return Error{setup.error()};
	setup_ = setup.value();
	runtimes_s_ = effective_runtimes(workload_);
	estimates_s_ = static_estimates(workload_, runtimes_s_, options_.estimate);
	pending_by_cpus_.assign(workload_.machine_cpus + 1, 0);
	smallest_cpus_ = workload_.machine_cpus;
	cpus_.reserve(workload_.jobs.size());
	submits_s_.reserve(workload_.jobs.size());
	for (const SimJob &job : workload_.jobs) {
		cpus_.push_back(std::clamp<uint32_t>(job.cpus, 1, workload_.machine_cpus));
		submits_s_.push_back(job.submit_s);
	}
	if (Status created = create_priority(); !created)
		return created;
	DispatchJobs jobs{&cpus_, [this](uint32_t job) { return estimate_s(job); },
	                  [this](uint32_t job) { return priority_->campaign_of(job); },
	                  [this](uint32_t job) { return submits_s_[job]; },
	                  [this](uint32_t job) { return priority_->expected_run_s(job); }};
	// Only the core's campaigns and run times, and predicted estimates, change over time.
	using ShapeChanges = plan::PlanKeeper::ShapeChanges;
	jobs.changes = options_.estimate.kind == EstimateKind::predicted ? ShapeChanges::any
	               : core_ ? ShapeChanges::campaign_only
	                       : ShapeChanges::none;
	const plan::PlannerConfig config = planner_config(options_);
	short_limit_s_ = config.short_limit_s;
	// The short pending CPUs count static estimates: not what a planner booking others reads.
	if (!config.short_by_expected && options_.estimate.kind != EstimateKind::predicted &&
	    options_.planner_estimate.pending == PlannerEstimate::same)
		jobs.short_pending_cpus = [this] { return pending_short_cpus_; };
	set_planner_estimates(jobs);
	const BackfillKind backfill =
	    setup_.paper_blocks ? BackfillKind::no_backfill : options_.backfill;
	PlanDump dump = options_.dump_plan;
	if (dump.line && !workload_.jobs.empty()) { // from seconds after the first submission
		int64_t first_s = workload_.jobs.front().submit_s;
		for (const SimJob &job : workload_.jobs)
			first_s = std::min(first_s, job.submit_s);
		dump.from_s += first_s;
		dump.to_s += first_s;
	}
	auto dispatch = make_dispatch(workload_.machine_cpus, backfill, config, std::move(jobs),
	                              {options_.nodes, options_.node_cpus}, std::move(dump));
	if (!dispatch)
		return Error{dispatch.error()};
	dispatch_ = std::move(dispatch).value();
	walks_ = !rank_lag_ && walkable() && core_->enable_walks(); // a walk is never lagged
	const auto campaigns = shared_campaigns(workload_, runtimes_s_, options_.scoring_rule);
	if (options_.dependencies && !workload_.closed_loop) {
		dependencies_ =
		    std::make_unique<CampaignDependencies>(workload_, campaigns, runtimes_s_);
		result_.dependent_jobs = dependencies_->dependent_jobs();
	}
	result_.jobs.resize(workload_.jobs.size());
	for (uint32_t i = 0; i < workload_.jobs.size(); ++i) {
		result_.jobs[i].job = i;
		result_.jobs[i].campaign = campaigns[i];
	}
	if (workload_.closed_loop)
		prepare_closed_loop();
	else
		for (uint32_t i = 0; i < workload_.jobs.size(); ++i)
			events_.push({workload_.jobs[i].submit_s, EventKind::submit, i});
	return ok_status();
}

void Simulation::prepare_closed_loop()
{
	for (uint32_t i = 0; i < workload_.jobs.size(); ++i) {
		const SimJob &job = workload_.jobs[i];
		auto &jobs = campaign_jobs_[job.campaign];
		if (jobs.empty())
			user_campaigns_[job.user].push_back(job.campaign);
		jobs.push_back(i);
	}
	for (const auto &[campaign, jobs] : campaign_jobs_)
		unfinished_[campaign] = static_cast<uint32_t>(jobs.size());
	next_generation_ = campaign_jobs_.begin();
	if (options_.release_in_generation_order) {
		release_in_generation_order(0);
		return;
	}
	// Every user's first campaign at its first job's submit time (the generators use 0).
	for (const auto &[user, campaigns] : user_campaigns_) {
		user_next_[user] = 1;
		const uint32_t first = campaign_jobs_[campaigns.front()].front();
		release_campaign(campaigns.front(), workload_.jobs[first].submit_s);
	}
}

// The sensitivity variant: campaigns enter in the order they were generated; one whose owner
// still runs an earlier campaign holds back every later one.
void Simulation::release_in_generation_order(int64_t now_s)
{
	while (next_generation_ != campaign_jobs_.end()) {
		const auto &[campaign, jobs] = *next_generation_;
		const uint32_t user = workload_.jobs[jobs.front()].user;
		if (user_busy_[user])
			return;
		user_busy_[user] = true;
		release_campaign(campaign, now_s + workload_.jobs[jobs.front()].think_s);
		++next_generation_;
	}
}

void Simulation::release_campaign(uint64_t campaign, int64_t now_s)
{
	for (uint32_t job : campaign_jobs_[campaign])
		events_.push({now_s, EventKind::submit, job});
}

// SimulationOptions::planner_estimate: the planner books other run times than the run's
// estimate (which the ranking core counts), to tell where run-time knowledge matters.
void Simulation::set_planner_estimates(DispatchJobs &jobs)
{
	const PlannerEstimateOptions &planner = options_.planner_estimate;
	// Called only for the kinds other than same; `factor` scales the pending jobs' guesses
	// (exact times a factor: limits that many times the run, tighter than the log's).
	auto of = [this](PlannerEstimate kind, double factor) {
		return [this, kind, factor](uint32_t job) -> int64_t {
			const int64_t limit_s =
			    requested_estimate_s(workload_.jobs[job], runtimes_s_[job]);
			if (kind == PlannerEstimate::limit)
				return limit_s;
			int64_t guess_s = 0;
			if (kind == PlannerEstimate::exact)
				guess_s = std::max<int64_t>(runtimes_s_[job], 1);
			else if (kind == PlannerEstimate::expected)
				guess_s = priority_->expected_run_s(job);
			else if (kind == PlannerEstimate::predicted)
				guess_s = predictor_.predict(workload_.jobs[job].user, limit_s);
			else if (kind == PlannerEstimate::similar)
				guess_s = predictor_.predict_similar(
				    workload_.jobs[job].user, limit_s, workload_.jobs[job].cpus);
			else if (kind == PlannerEstimate::consistent)
				guess_s = predictor_.predict_consistent(
				    workload_.jobs[job].user, limit_s, workload_.jobs[job].cpus);
			if (guess_s <= 0)
				return limit_s; // nothing to go by
			return std::clamp<int64_t>(
			    std::llround(static_cast<double>(guess_s) * factor), 1, limit_s);
		};
	};
	if (planner.pending != PlannerEstimate::same) {
		auto guess = of(planner.pending, planner.factor);
		jobs.pending_estimate_s = guess;
		if (!planner.pending_users.everyone()) {
			// An oracle's split by user: the selected users' jobs book the guess, the
			// rest the estimate.
			jobs.pending_estimate_s =
			    [this, selected = selected_users(workload_, planner.pending_users),
			     guess](uint32_t job) {
				    return selected(workload_.jobs[job].user) ? guess(job)
				                                              : estimate_s(job);
			    };
		}
		// These guesses move as jobs end: each pass makes its PendingJob again.
		if (planner.pending == PlannerEstimate::expected ||
		    planner.pending == PlannerEstimate::predicted ||
		    planner.pending == PlannerEstimate::similar ||
		    planner.pending == PlannerEstimate::consistent)
			jobs.changes = plan::PlanKeeper::ShapeChanges::any;
		if (planner.pending == PlannerEstimate::similar ||
		    planner.pending == PlannerEstimate::consistent)
			predictor_ = RuntimePredictor(/*keeps_templates=*/true);
	}
	if (planner.running != PlannerEstimate::same)
		jobs.running_estimate_s = of(planner.running, 1);
}

int64_t Simulation::estimate_s(uint32_t job) const
{
	if (options_.estimate.kind != EstimateKind::predicted)
		return estimates_s_[job];
	return predictor_.predict(workload_.jobs[job].user, estimates_s_[job]);
}

Result<RunResult> Simulation::run()
{
	const auto wall_start = std::chrono::steady_clock::now();
	if (Status prepared = prepare(); !prepared)
		return Error{prepared.error()};
	size_t reported = 0;
	while (!events_.empty()) {
		const int64_t now_s = events_.top().time_s;
		while (!events_.empty() && events_.top().time_s == now_s) {
			const Event event = events_.top();
			events_.pop();
			if (Status handled = handle(event); !handled)
				return Error{handled.error()};
		}
		if (Status passed = pass(now_s); !passed)
			return Error{passed.error()};
		if (options_.progress && ended_ - reported >= workload_.jobs.size() / 200 + 1) {
			reported = ended_;
			options_.progress(static_cast<double>(ended_) /
			                  static_cast<double>(workload_.jobs.size()));
		}
	}
	if (options_.progress)
		options_.progress(1.0);
	result_.priority = options_.priority;
	result_.backfill = setup_.paper_blocks ? "blocks" : to_string(options_.backfill);
	result_.estimate = to_string(options_.estimate.kind);
	result_.label = result_.priority + "/" + result_.backfill;
	result_.machine_cpus = workload_.machine_cpus;
	result_.wall_s =
	    std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
	rusage usage{};
	getrusage(RUSAGE_SELF, &usage);
	result_.peak_rss_kb = static_cast<uint64_t>(usage.ru_maxrss);
	return std::move(result_);
}

Status Simulation::handle(const Event &event)
{
	const uint32_t job = event.job;
	switch (event.kind) {
	case EventKind::end:
		return on_end(job, event.time_s);
	case EventKind::estimate_expired: // Tsafrir: an overrun prediction falls back to the limit
		if (result_.jobs[job].end_s >= 0)
			return ok_status();
		return dispatch_->extended(job, result_.jobs[job].start_s + estimates_s_[job],
		                           event.time_s);
	case EventKind::submit:
		if (dependencies_ && !dependencies_->submit_now(job))
			return ok_status(); // enters when its predecessors complete (on_end)
		return submit(job, event.time_s);
	case EventKind::wake:
		return ok_status();
	}
	return ok_status();
}

// The job enters the queue (its submit time in the results: a dependent job's is when it
// was released).
Status Simulation::submit(uint32_t job, int64_t now_s)
{
	result_.jobs[job].submit_s = now_s;
	++pending_;
	++pending_by_cpus_[cpus_[job]];
	smallest_cpus_ = std::min(smallest_cpus_, cpus_[job]);
	pending_estimates_s_.insert(estimates_s_[job]);
	if (is_short(job))
		pending_short_cpus_ += cpus_[job];
	return priority_->submit(job, workload_.jobs[job], now_s);
}

Status Simulation::on_end(uint32_t job, int64_t now_s)
{
	result_.jobs[job].end_s = now_s;
	--running_;
	++ended_;
	predictor_.finished(workload_.jobs[job].user, runtimes_s_[job],
	                    requested_estimate_s(workload_.jobs[job], runtimes_s_[job]),
	                    workload_.jobs[job].cpus);
	// The jobs this end releases were submitted before it: as the plugin's feeder orders a job
	// Slurm releases in its dependency's last second, they enter before the end is applied, so
	// they join the campaign that is ending instead of opening one each.
	if (dependencies_)
		for (const uint32_t released : dependencies_->completed(job))
			if (Status submitted = submit(released, now_s); !submitted)
				return submitted;
	if (Status ended = priority_->end(job, now_s); !ended)
		return ended;
	if (Status ended = dispatch_->ended(job, now_s); !ended)
		return ended;
	if (!workload_.closed_loop)
		return ok_status();
	const SimJob &fields = workload_.jobs[job];
	if (--unfinished_[fields.campaign] > 0)
		return ok_status();
	if (options_.release_in_generation_order) {
		user_busy_[fields.user] = false;
		release_in_generation_order(now_s);
		return ok_status();
	}
	size_t &next = user_next_[fields.user];
	const auto &campaigns = user_campaigns_[fields.user];
	if (next < campaigns.size()) {
		const uint64_t campaign = campaigns[next++];
		const uint32_t first = campaign_jobs_[campaign].front();
		release_campaign(campaign, now_s + workload_.jobs[first].think_s);
	}
	return ok_status();
}

Status Simulation::pass(int64_t now_s)
{
	if (pending_ == 0 || dispatch_->free_cpus() < smallest_pending_cpus())
		return ok_status(); // nothing could start now: no pass needed
	if (options_.sched_period_s > 0) {
		const int64_t next_pass_s = next_sched_pass_s(now_s, options_.sched_period_s);
		if (next_pass_s != now_s) {
			// Between the scheduler's passes nothing starts (but Slurm's main
			// scheduler's in-order starts at each submission and end): wait for the
			// next one.
			wake_at(next_pass_s, now_s);
			return main_scheduler(now_s);
		}
	}

	const double cpu_start = process_cpu_s();
	if (Status started = start_all(dispatch_head(now_s), now_s, cpu_start); !started)
		return started;
	if (pending_ > 0) {
		if (rank_lag_ && rank_lag_->unranked_pending(now_s))
			wake_at(now_s + 1, now_s); // ranked then: the order changes
		wake_at(core_ ? core_->next_virtual_start_s() : -1, now_s);
		wake_at(dispatch_->next_planned_start_s(), now_s);
	}
	return ok_status();
}

// slurm_backfill between passes: slurmctld's main scheduler runs at each submission and job
// end and starts jobs in priority order, up to the first that does not fit.
Status Simulation::main_scheduler(int64_t now_s)
{
	if (options_.backfill != BackfillKind::slurm_backfill || setup_.paper_blocks)
		return ok_status();
	const double cpu_start = process_cpu_s();
	auto order = priority_->rank_head(now_s, CampaignCore::kAllJobs);
	if (!order)
		return Error{order.error()};
	return start_all(dispatch_->dispatch_in_order(startable(order.value()), now_s), now_s,
	                 cpu_start);
}

// Starts a pass's jobs and counts the pass (its CPU time from cpu_start) in the result.
Status Simulation::start_all(Result<std::vector<uint32_t>> starts, int64_t now_s, double cpu_start)
{
	if (!starts)
		return Error{starts.error()};
	for (uint32_t job : starts.value())
		if (Status started = start(job, now_s); !started)
			return started;
	result_.scheduler_cpu_s += process_cpu_s() - cpu_start;
	++result_.scheduler_events;
	return ok_status();
}

// The core's walk (CorePriority::walk_head) filters jobs by the shapes the core holds: they
// must be the planner's (CPUs within the machine, static estimates the core counts as limits).
bool Simulation::walkable() const
{
	if (!core_ || setup_.paper_blocks || !dispatch_->takes_walks() ||
	    options_.estimate.kind == EstimateKind::predicted ||
	    options_.planner_estimate.pending != PlannerEstimate::same)
		return false;
	for (uint32_t job = 0; job < workload_.jobs.size(); ++job)
		if (workload_.jobs[job].cpus != cpus_[job] || estimates_s_[job] < 1)
			return false;
	return true;
}

// Ranks and dispatches the queue. Walked (per_campaign on the core's policies), the planner
// pulls only the jobs that may take a place: a pass costs its candidates, not the queue.
// Otherwise the head of the queue, a longer one until no job below it could start now; strict
// mode and FairCamp's paper blocks filter the whole order, and a planner that publishes every
// reservation (not starts_only) plans it all.
Result<std::vector<uint32_t>> Simulation::dispatch_head(int64_t now_s)
{
	constexpr size_t kFirstHead = 128;
	if (walks_) {
		auto walk = core_->walk_head(now_s);
		if (!walk)
			return Error{walk.error()};
		if (walk.value())
			return dispatch_->dispatch_walk(*walk.value(), now_s);
		// The core could not filter this order: its head, as ranked just now.
		return dispatch_order(now_s, kFirstHead, priority_->longer_head(now_s, kFirstHead));
	}
	const bool whole =
	    setup_.paper_blocks || (core_ && core_->strict()) || !dispatch_->takes_heads();
	const size_t head = whole ? CampaignCore::kAllJobs : kFirstHead;
	return dispatch_order(now_s, head, priority_->rank_head(now_s, head));
}

// Dispatches `order`, a head of `head` jobs of the queue, a longer one until no job below it
// could start now.
Result<std::vector<uint32_t>> Simulation::dispatch_order(int64_t now_s, size_t head,
                                                         Result<std::vector<uint32_t>> order)
{
	for (;;) {
		if (!order)
			return Error{order.error()};
		std::optional<plan::RestBound> rest;
		if (order.value().size() >= head && order.value().size() < pending_)
			rest = plan::RestBound{static_cast<int32_t>(smallest_pending_cpus()),
			                       shortest_pending_estimate_s()};
		auto starts = dispatch_->dispatch(startable(order.value()), rest, now_s);
		if (!starts)
			return Error{starts.error()};
		if (starts.value())
			return std::move(*starts.value());
		head *= 4;
		order = priority_->longer_head(now_s, head);
	}
}

// The shortest estimate of a pending job (a bound: 1 s when estimates are predicted, as a
// prediction may change).
int64_t Simulation::shortest_pending_estimate_s() const
{
	if (options_.estimate.kind == EstimateKind::predicted || pending_estimates_s_.empty())
		return 1;
	return std::max<int64_t>(1, *pending_estimates_s_.begin());
}

// A pass at `wake_s` (-1: none), unless one is already due before it.
void Simulation::wake_at(int64_t wake_s, int64_t now_s)
{
	if (wake_s < 0)
		return;
	wake_s = std::max(wake_s, now_s + 1);
	if (wake_s_ > now_s && wake_s_ <= wake_s)
		return;
	wake_s_ = wake_s;
	events_.push({wake_s, EventKind::wake, 0});
}

uint32_t Simulation::smallest_pending_cpus()
{
	while (smallest_cpus_ < workload_.machine_cpus && pending_by_cpus_[smallest_cpus_] == 0)
		++smallest_cpus_;
	return smallest_cpus_;
}

std::vector<uint32_t> Simulation::startable(const std::vector<uint32_t> &order)
{
	if (setup_.paper_blocks)
		return paper_block(order);
	if (!core_ || !core_->strict())
		return order;
	std::vector<uint32_t> allowed;
	allowed.reserve(order.size());
	for (uint32_t job : order)
		if (core_->may_start(job))
			allowed.push_back(job);
	return allowed;
}

// FairCamp's paper mode: one campaign at a time owns the machine (a block, LPT inside it); the
// next block, the earliest deadline, starts when the machine is empty.
std::vector<uint32_t> Simulation::paper_block(const std::vector<uint32_t> &order)
{
	if (running_ == 0 && !order.empty())
		block_campaign_ = core_->campaign_of(order.front());
	std::vector<uint32_t> block;
	for (uint32_t job : order)
		if (core_->campaign_of(job) == block_campaign_)
			block.push_back(job);
	std::stable_sort(block.begin(), block.end(), [this](uint32_t a, uint32_t b) {
		return estimates_s_[a] > estimates_s_[b];
	});
	return block;
}

Status Simulation::start(uint32_t job, int64_t now_s)
{
	result_.jobs[job].start_s = now_s;
	--pending_;
	--pending_by_cpus_[cpus_[job]];
	++running_;
	pending_estimates_s_.erase(pending_estimates_s_.find(estimates_s_[job]));
	if (is_short(job))
		pending_short_cpus_ -= cpus_[job];
	if (Status started = priority_->start(job, now_s); !started)
		return started;
	if (options_.online_campaigns && priority_->campaign_of(job) != 0)
		result_.jobs[job].campaign = priority_->campaign_of(job);
	const int64_t end_s = now_s + runtimes_s_[job];
	events_.push({end_s, EventKind::end, job});
	if (options_.estimate.kind == EstimateKind::predicted) {
		const int64_t predicted_end_s = now_s + estimate_s(job);
		if (predicted_end_s < end_s)
			events_.push({predicted_end_s, EventKind::estimate_expired, job});
	}
	return ok_status();
}

} // namespace

int64_t next_sched_pass_s(int64_t now_s, double period_s)
{
	// The passes are at ceil(k * period) for every whole k: the first at or after now_s has
	// the smallest k with k * period > now_s - 1. The slack keeps 1.5 * 2 = 3 exact.
	constexpr double kSlack = 1e-9;
	const double k = std::floor(static_cast<double>(now_s - 1) / period_s + kSlack) + 1;
	return static_cast<int64_t>(std::ceil(k * period_s - kSlack));
}

plan::PlannerConfig planner_config(const SimulationOptions &options)
{
	namespace defaults = plan::scheduler_defaults;
	auto setup = policy_setup(options);
	const bool core = setup.ok() && !setup.value().core_parameters.empty();
	plan::PlannerConfig config;
	config.depth = options.depth.value_or(core ? defaults::depth : 100000);
	config.horizon_s = options.horizon_s;
	config.reservation_resolution_s = options.bf_resolution_s;
	config.short_room = options.short_room.value_or(core ? defaults::short_room : 0);
	config.short_limit_s = options.short_limit_s;
	config.short_room_wide = options.short_room_wide;
	config.short_room_recent_s =
	    options.short_room_recent_s.value_or(core ? defaults::short_room_recent_s : 0);
	config.short_room_demand = options.short_room_demand.value_or(
	    core ? defaults::short_room_demand : plan::ShortRoomDemand::pending);
	config.short_by_expected =
	    options.short_by_expected.value_or(core && defaults::short_by_expected);
	config.local_search_iterations = options.local_search;
	config.local_search_ms = options.local_search_ms;
	config.freeze_slip_s = options.freeze_slip_s;
	config.freeze_wide = options.freeze_wide;
	config.freeze_keeps_room = options.freeze_keeps_room;
	config.freeze_skip_first = options.freeze_skip_first;
	return config;
}

const std::vector<std::string> &priority_names()
{
	static const std::vector<std::string> names = {
	    "fcfs",     "fifo",           "fifo-blocks", "ostrich", "ostrich-strict",
	    "faircamp", "faircamp-paper", "fairshare",   "fairtree"};
	return names;
}

namespace
{

// Each piece on its own, merged in workload order; campaign ids of later pieces are shifted past
// those of earlier ones so that no two pieces share one.
Result<RunResult> simulate_pieces(const Workload &workload, const SimulationOptions &options,
                                  const std::vector<std::pair<size_t, size_t>> &pieces)
{
	RunResult merged;
	uint64_t campaign_base = 0;
	for (const auto &[first, last] : pieces) {
		Workload piece;
		piece.name = workload.name;
		piece.machine_cpus = workload.machine_cpus;
		piece.jobs.assign(workload.jobs.begin() + static_cast<std::ptrdiff_t>(first),
		                  workload.jobs.begin() + static_cast<std::ptrdiff_t>(last));
		Simulation simulation(piece, options);
		auto run = simulation.run();
		if (!run)
			return Error{run.error()};
		RunResult &part = run.value();
		uint64_t largest_campaign = campaign_base;
		for (JobOutcome outcome : part.jobs) {
			outcome.job += static_cast<uint32_t>(first);
			if (outcome.campaign != 0)
				outcome.campaign += campaign_base;
			largest_campaign = std::max(largest_campaign, outcome.campaign);
			merged.jobs.push_back(outcome);
		}
		campaign_base = largest_campaign;
		merged.scheduler_events += part.scheduler_events;
		merged.dependent_jobs += part.dependent_jobs;
		merged.scheduler_cpu_s += part.scheduler_cpu_s;
		merged.wall_s += part.wall_s;
		merged.peak_rss_kb = std::max(merged.peak_rss_kb, part.peak_rss_kb);
		merged.label = part.label;
		merged.priority = part.priority;
		merged.backfill = part.backfill;
		merged.estimate = part.estimate;
		merged.machine_cpus = part.machine_cpus;
	}
	merged.pieces = pieces.size();
	return merged;
}

} // namespace

Result<RunResult> simulate(const Workload &workload, const SimulationOptions &options)
{
	if (options.downtime_gap_s > 0 && !workload.closed_loop && !workload.jobs.empty()) {
		const auto pieces =
		    downtime_pieces(workload, effective_runtimes(workload), options.downtime_gap_s);
		if (pieces.size() > 1)
			return simulate_pieces(workload, options, pieces);
	}
	Simulation simulation(workload, options);
	return simulation.run();
}

} // namespace campaign::sim
