// campsim's engine on hand-made traces whose FCFS, EASY, conservative and per-campaign
// schedules are worked out by hand below; plus closed-loop release, strict mode and
// determinism.
#include "check_main.h"
#include "engine/downtime_split.h"
#include "engine/shared_campaigns.h"
#include "engine/simulation.h"
#include "sim_job_fixture.h"

using namespace campaign::sim;

namespace
{

SimJob job(uint64_t id, uint32_t user, int64_t submit_s, uint32_t cpus, int64_t runtime_s)
{
	return sim_job(id, user, submit_s, cpus, runtime_s);
}

// m = 4. A (2 CPUs, 0-10) leaves 2 CPUs free; X (3 CPUs) cannot start before 10 and holds
// 3 CPUs 10-20; Y (whole machine) can start at 20 at the earliest. F (1 CPU, 25 s) fits at 3
// and never delays X (X 3 + F 1 = 4), but it would delay Y (4 + 1 > 4). G (1 CPU, 5 s) fits
// at 4 and ends at 9, before anyone's reservation.
//   none (FCFS):   A 0, X 10, Y 20, F 30, G 30 (G waits behind F, both start when Y ends)
//   easy:          A 0, X 10, F 3, G 4, Y 28 (only X is protected; Y waits for F)
//   conservative:  A 0, X 10, Y 20, F 30, G 4 (Y is protected too; only G slips in)
//   per_campaign:  X and Y are one campaign of user 2, so only X is reserved: as easy.
Workload backfill_trace()
{
	Workload workload;
	workload.name = "backfill-trace";
	workload.machine_cpus = 4;
	workload.jobs = {job(1, 1, 0, 2, 10), job(2, 2, 1, 3, 10), job(3, 2, 2, 4, 10),
	                 job(4, 3, 3, 1, 25), job(5, 4, 4, 1, 5)};
	return workload;
}

std::vector<int64_t> starts(const Workload &workload, const std::string &priority,
                            BackfillKind backfill)
{
	SimulationOptions options;
	options.priority = priority;
	options.backfill = backfill;
	options.estimate.kind = EstimateKind::exact;
	auto result = simulate(workload, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	std::vector<int64_t> times;
	for (const JobOutcome &outcome : result.value().jobs) {
		ck_assert_int_eq(outcome.end_s,
		                 outcome.start_s + workload.jobs[outcome.job].runtime_s);
		times.push_back(outcome.start_s);
	}
	return times;
}

void check_starts(const std::vector<int64_t> &actual, const std::vector<int64_t> &expected)
{
	ck_assert_int_eq(actual.size(), expected.size());
	for (size_t i = 0; i < actual.size(); ++i)
		ck_assert_msg(actual[i] == expected[i], "job %zu starts at %ld, expected %ld", i,
		              static_cast<long>(actual[i]), static_cast<long>(expected[i]));
}

// A trace of these jobs on `cpus` CPUs, with the log's own start of each.
Workload with_log_starts(uint32_t cpus, std::vector<SimJob> jobs,
                         const std::vector<int64_t> &log_starts_s)
{
	Workload workload;
	workload.machine_cpus = cpus;
	workload.jobs = std::move(jobs);
	for (size_t i = 0; i < workload.jobs.size(); ++i)
		workload.jobs[i].trace_start_s = log_starts_s[i];
	return workload;
}

} // namespace

START_TEST(test_fcfs_without_backfill)
{
	check_starts(starts(backfill_trace(), "fifo", BackfillKind::no_backfill),
	             {0, 10, 20, 30, 30});
}
END_TEST

START_TEST(test_easy_protects_the_head_only)
{
	check_starts(starts(backfill_trace(), "fifo", BackfillKind::easy), {0, 10, 28, 3, 4});
}
END_TEST

START_TEST(test_conservative_protects_every_job)
{
	check_starts(starts(backfill_trace(), "fifo", BackfillKind::conservative),
	             {0, 10, 20, 30, 4});
}
END_TEST

START_TEST(test_per_campaign_protects_each_campaign_head)
{
	check_starts(starts(backfill_trace(), "fifo", BackfillKind::per_campaign),
	             {0, 10, 28, 3, 4});
}
END_TEST

START_TEST(test_greedy_starts_whatever_fits)
{
	// Greedy list scheduling: F at 3 and G at 4 like EASY; X at 10 once A's 2 CPUs free up
	// (3 free: A's 2 and G's 1), Y when F ends at 28.
	check_starts(starts(backfill_trace(), "fifo", BackfillKind::greedy), {0, 10, 28, 3, 4});
}
END_TEST

// Closed loop (the papers' model): a user's next campaign is released when the previous one
// completes. m = 1; user 1 has campaigns {5 s} then {5 s}; user 2 has {3 s}. FIFO by
// campaign arrival: u1c1 0-5, u2c1 5-8 (released at 0, behind u1c1), u1c2 released at 5,
// runs 8-13.
START_TEST(test_closed_loop_releases_next_campaign_at_completion)
{
	Workload workload;
	workload.machine_cpus = 1;
	workload.closed_loop = true;
	workload.jobs = {job(1, 1, 0, 1, 5), job(2, 2, 0, 1, 3), job(3, 1, 0, 1, 5)};
	workload.jobs[0].campaign = 1;
	workload.jobs[1].campaign = 2;
	workload.jobs[2].campaign = 3;
	SimulationOptions options;
	options.priority = "fifo";
	options.backfill = BackfillKind::no_backfill;
	options.estimate.kind = EstimateKind::exact;
	auto result = simulate(workload, options);
	ck_assert(result.ok());
	const auto &jobs = result.value().jobs;
	ck_assert_int_eq(jobs[0].start_s, 0);
	ck_assert_int_eq(jobs[1].start_s, 5);
	ck_assert_int_eq(jobs[2].submit_s, 5);
	ck_assert_int_eq(jobs[2].start_s, 8);
	ck_assert_int_eq(jobs[2].campaign, 3);
}
END_TEST

// Generation-order release (a sensitivity variant): campaigns 1 (u1), 2 (u1), 3 (u2) on m = 2.
// Per-user chains: 1 and 3 start at 0, 2 when 1 ends (5). In generation order, 2 waits for
// u1's campaign 1 and holds back 3: both enter at 5.
START_TEST(test_generation_order_release_holds_later_campaigns)
{
	Workload workload;
	workload.machine_cpus = 2;
	workload.closed_loop = true;
	workload.jobs = {job(1, 1, 0, 1, 5), job(2, 1, 0, 1, 5), job(3, 2, 0, 1, 3)};
	for (uint64_t i = 0; i < 3; ++i)
		workload.jobs[i].campaign = i + 1;
	SimulationOptions options;
	options.priority = "fifo";
	options.backfill = BackfillKind::no_backfill;
	options.estimate.kind = EstimateKind::exact;
	auto chains = simulate(workload, options);
	ck_assert(chains.ok());
	ck_assert_int_eq(chains.value().jobs[1].start_s, 5);
	ck_assert_int_eq(chains.value().jobs[2].start_s, 0);
	options.release_in_generation_order = true;
	auto in_order = simulate(workload, options);
	ck_assert(in_order.ok());
	ck_assert_int_eq(in_order.value().jobs[1].start_s, 5);
	ck_assert_int_eq(in_order.value().jobs[2].submit_s, 5);
	ck_assert_int_eq(in_order.value().jobs[2].start_s, 5);
}
END_TEST

// OStrich on the same closed loop ranks user 2's campaign (C~ = 6 in a 2-way fluid share)
// ahead of user 1's second campaign (s~ = 10, C~ = 15): same order as FIFO here, but user 2's
// short job jumps user 1's queued 5 s job when both are waiting: m = 1, u1 submits two 5 s
// jobs at 0 (one campaign), u2 one 3 s job at 1. FIFO: 0-5, 5-10, u2 10-13. OStrich: u1's
// campaign has C~ = 13 (10 CPU-s alone 0-1, then half rate), u2's C~ = 7: u2 runs 5-8.
START_TEST(test_ostrich_lets_the_light_user_pass)
{
	Workload workload;
	workload.machine_cpus = 1;
	workload.jobs = {job(1, 1, 0, 1, 5), job(2, 1, 0, 1, 5), job(3, 2, 1, 1, 3)};
	check_starts(starts(workload, "fifo", BackfillKind::no_backfill), {0, 5, 10});
	check_starts(starts(workload, "ostrich", BackfillKind::no_backfill), {0, 8, 5});
	check_starts(starts(workload, "ostrich", BackfillKind::per_campaign), {0, 8, 5});
}
END_TEST

START_TEST(test_every_mode_finishes_every_job_and_is_deterministic)
{
	Workload workload;
	workload.machine_cpus = 8;
	uint64_t state = 7;
	for (uint64_t i = 0; i < 300; ++i) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		workload.jobs.push_back(job(i + 1, static_cast<uint32_t>(state >> 60), // 16 users
		                            static_cast<int64_t>(i * 7 + (state >> 58) % 5),
		                            static_cast<uint32_t>(1 + (state >> 40) % 8),
		                            static_cast<int64_t>((state >> 20) % 200)));
		workload.jobs.back().limit_s = workload.jobs.back().runtime_s * 2 + 10;
	}
	for (const std::string priority :
	     {"fcfs", "fifo", "fifo-blocks", "ostrich", "ostrich-strict", "faircamp",
	      "faircamp-paper", "fairshare", "fairtree"})
		for (BackfillKind backfill :
		     {BackfillKind::no_backfill, BackfillKind::greedy, BackfillKind::easy,
		      BackfillKind::conservative, BackfillKind::per_campaign})
			for (EstimateKind estimate :
			     {EstimateKind::exact, EstimateKind::requested, EstimateKind::fmodel,
			      EstimateKind::predicted}) {
				SimulationOptions options;
				options.priority = priority;
				options.backfill = backfill;
				options.estimate.kind = estimate;
				auto first = simulate(workload, options);
				auto second = simulate(workload, options);
				ck_assert_msg(first.ok(), "%s/%s/%s: %s", priority.c_str(),
				              to_string(backfill), to_string(estimate),
				              first.ok() ? "" : first.error().c_str());
				for (size_t i = 0; i < workload.jobs.size(); ++i) {
					const JobOutcome &a = first.value().jobs[i];
					ck_assert_msg(
					    a.end_s >= a.start_s && a.start_s >= a.submit_s,
					    "%s/%s/%s: job %zu did not run", priority.c_str(),
					    to_string(backfill), to_string(estimate), i);
					ck_assert_int_eq(a.start_s, second.value().jobs[i].start_s);
				}
			}
}
END_TEST

// The plain FCFS floor and the core's FIFO rank the same way, so their schedules agree job
// for job (the floor is only faster).
START_TEST(test_plain_fcfs_equals_core_fifo)
{
	Workload workload;
	workload.machine_cpus = 16;
	uint64_t state = 11;
	for (uint64_t i = 0; i < 500; ++i) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		workload.jobs.push_back(job(i + 1, static_cast<uint32_t>(state >> 61),
		                            static_cast<int64_t>(i * 3), // arrivals in id order
		                            static_cast<uint32_t>(1 + (state >> 40) % 16),
		                            static_cast<int64_t>(1 + (state >> 20) % 300)));
	}
	for (BackfillKind backfill : {BackfillKind::no_backfill, BackfillKind::easy})
		check_starts(starts(workload, "fcfs", backfill),
		             starts(workload, "fifo", backfill));
}
END_TEST

// Campaigns counted by hand on the log's own schedule (MAX rule: a job joins iff it arrives
// strictly before the latest end of its user's campaign; numbered in order of opening):
//   user 1: a at 0 (log 0-10) opens 1; b at 5 (log 5-20) joins 1 (5 < 10); c at 20 does not
//           (20 is not before b's end 20): opens 3
//   user 2: d at 3 (log 3-4) opens 2
// Threshold 5 s: c at 20 < 20 + 5 joins 1. Window 10 s: b (5 < 0 + 10) joins, c opens 3.
START_TEST(test_shared_campaigns_hand_counted)
{
	const Workload workload = with_log_starts(
	    4, {job(1, 1, 0, 1, 10), job(4, 2, 3, 1, 1), job(2, 1, 5, 1, 15), job(3, 1, 20, 1, 5)},
	    {0, 3, 5, 25});
	const std::vector<int64_t> runtimes = {10, 1, 15, 5};
	auto as_vector = [](std::vector<uint64_t> ids) { return ids; };
	campaign::DetectionRule max_rule;
	ck_assert(shared_campaigns(workload, runtimes, max_rule) == as_vector({1, 2, 1, 3}));
	campaign::DetectionRule threshold;
	threshold.threshold_s = 5;
	ck_assert(shared_campaigns(workload, runtimes, threshold) == as_vector({1, 2, 1, 1}));
	campaign::DetectionRule window;
	window.kind = campaign::DetectionRule::Kind::Window;
	window.window_s = 10;
	ck_assert(shared_campaigns(workload, runtimes, window) == as_vector({1, 2, 1, 3}));
}
END_TEST

// Dependency replay (thesis Sec. 5.4.3). m = 2. x (user 2, 1 CPU, 0-20). User 1's campaign
// (MAX rule on the log: a ends 10, c submitted at 1 ends 41, b submitted at 12 < 41): a (2 CPUs,
// 10 s, log 0-10), c (1 CPU, 40 s, log 1-41), b (1 CPU, 5 s, log 12-17). EASY: a is reserved at
// 20 (needs both CPUs); c would delay it; b fits 12-17 and backfills. With dependencies b
// depends on a (ended in the log at 10, before b's submission): it enters the queue when a
// completes in the replay, at 30, and starts then; c too.
START_TEST(test_dependencies_hold_a_job_until_its_predecessor_completes)
{
	const Workload workload = with_log_starts(
	    2, {job(1, 2, 0, 1, 20), job(2, 1, 0, 2, 10), job(3, 1, 1, 1, 40), job(4, 1, 12, 1, 5)},
	    {0, 0, 1, 12});
	check_starts(starts(workload, "fifo", BackfillKind::easy), {0, 20, 30, 12});
	SimulationOptions options;
	options.priority = "fifo";
	options.backfill = BackfillKind::easy;
	options.estimate.kind = EstimateKind::exact;
	options.dependencies = true;
	auto result = simulate(workload, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	std::vector<int64_t> times;
	for (const JobOutcome &outcome : result.value().jobs)
		times.push_back(outcome.start_s);
	check_starts(times, {0, 20, 30, 30});
	ck_assert_int_eq(result.value().jobs[3].submit_s, 30); // released when a completed
	ck_assert_int_eq(result.value().dependent_jobs, 1);
}
END_TEST

// Downtime split (thesis Sec. 5.4). The log ran A and B side by side (0-100, users 1 and 2);
// nothing ran or arrived from 100 to 150; C (user 3) ran 150-160. Replayed on 1 CPU: A 0-100,
// B 100-200. Unsplit, C waits for B and starts at 200; cut at downtimes of 40 s or more, C's
// piece is replayed on its own and C starts at 150. Campaigns stay distinct across pieces.
START_TEST(test_downtime_split_replays_each_piece_alone)
{
	const Workload workload = with_log_starts(
	    1, {job(1, 1, 0, 1, 100), job(2, 2, 0, 1, 100), job(3, 3, 150, 1, 10)}, {0, 0, 150});
	const std::vector<int64_t> runtimes = {100, 100, 10};
	using Pieces = std::vector<std::pair<size_t, size_t>>;
	ck_assert(downtime_pieces(workload, runtimes, 40) == Pieces({{0, 2}, {2, 3}}));
	ck_assert(downtime_pieces(workload, runtimes, 60) == Pieces({{0, 3}}));
	check_starts(starts(workload, "fifo", BackfillKind::no_backfill), {0, 100, 200});
	SimulationOptions options;
	options.priority = "fifo";
	options.backfill = BackfillKind::no_backfill;
	options.estimate.kind = EstimateKind::exact;
	options.downtime_gap_s = 40;
	auto result = simulate(workload, options);
	ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
	const auto &jobs = result.value().jobs;
	ck_assert_int_eq(result.value().pieces, 2);
	ck_assert_int_eq(jobs.size(), 3);
	ck_assert_int_eq(jobs[2].job, 2);
	ck_assert_int_eq(jobs[2].start_s, 150);
	ck_assert_int_eq(jobs[1].start_s, 100);
	ck_assert_int_ne(jobs[2].campaign, jobs[0].campaign);
	ck_assert_int_ne(jobs[2].campaign, jobs[1].campaign);
	ck_assert_int_ne(jobs[0].campaign, jobs[1].campaign);
}
END_TEST

// --campaigns online: jobs are scored in the campaigns the core detected while simulating.
START_TEST(test_online_campaigns_come_from_the_core)
{
	Workload workload = backfill_trace();
	SimulationOptions options;
	options.priority = "ostrich";
	options.online_campaigns = true;
	auto result = simulate(workload, options);
	ck_assert(result.ok());
	const auto &jobs = result.value().jobs;
	ck_assert_int_eq(jobs[1].campaign, jobs[2].campaign); // X and Y: user 2, one campaign
	ck_assert_int_ne(jobs[0].campaign, jobs[1].campaign);
	ck_assert_int_ne(jobs[3].campaign, jobs[4].campaign);
}
END_TEST

// With single-CPU jobs and exact estimates no backfilling can reorder anything: every mode is
// list scheduling in rank order. per_campaign must not let a later campaign's reserved head
// take a CPU ahead of an earlier campaign's unreserved job (as a kept plan would).
START_TEST(test_single_cpu_jobs_start_in_rank_order_in_every_mode)
{
	Workload workload;
	workload.machine_cpus = 4;
	uint64_t state = 5;
	for (uint64_t i = 0; i < 400; ++i) {
		state = state * 6364136223846793005ULL + 1442695040888963407ULL;
		workload.jobs.push_back(job(i + 1, static_cast<uint32_t>(state >> 61),
		                            static_cast<int64_t>(i * 2), 1,
		                            static_cast<int64_t>(1 + (state >> 20) % 60)));
	}
	const auto in_order = starts(workload, "ostrich", BackfillKind::no_backfill);
	for (BackfillKind backfill :
	     {BackfillKind::easy, BackfillKind::conservative, BackfillKind::per_campaign})
		check_starts(starts(workload, "ostrich", backfill), in_order);
}
END_TEST

// calc_period (the plugin's): m = 2. User 1's A (1 CPU, 1000 s) starts at 0, B (2 CPUs) waits.
// At 3 s user 2's D (1 CPU, 50 s) arrives; OStrich ranks its campaign first. Ranking at every
// pass, D takes the free CPU at 3. With calc_period 5, no job ended and 3 s < 5 s, so D goes
// below the ranked B, which cannot start (no backfill): D waits for A's end at 1000, where a
// job end ranks afresh and D comes first again. With calc_period 2 the period has passed.
START_TEST(test_calc_period_lists_new_jobs_below_the_last_order)
{
	Workload workload;
	workload.machine_cpus = 2;
	workload.jobs = {job(1, 1, 0, 1, 1000), job(2, 1, 0, 2, 100), job(3, 2, 3, 1, 50)};
	auto d_start = [&](int64_t calc_period_s) {
		SimulationOptions options;
		options.priority = "ostrich";
		options.backfill = BackfillKind::no_backfill;
		options.estimate.kind = EstimateKind::exact;
		options.calc_period_s = calc_period_s;
		auto result = simulate(workload, options);
		ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
		return result.value().jobs[2].start_s;
	};
	ck_assert_int_eq(d_start(0), 3);
	ck_assert_int_eq(d_start(5), 1000);
	ck_assert_int_eq(d_start(2), 3);
	SimulationOptions defaults;
	ck_assert_int_eq(defaults.calc_period_s, 5); // priority/campaign's default
}
END_TEST

// rank_lag (sched/campaign's pass at a begin time before priority/campaign ranks the arrivals):
// m = 2, no backfill. At 0 user 1's A (1 CPU, 2 s), B and C (1 CPU, 100 s) and user 2's D (1 CPU,
// 5 s) arrive; OStrich ranks user 2's small campaign first, and user 1's longest jobs first.
// Ranked at once: D and B start at 0, C at 5 (D's end), A at 100 (B's end). Lagged: the four
// are unranked at 0 and start in arrival order, A and B; at A's end (2) they are ranked and D
// goes first, C at 7 (D's end).
// A second second: X (user 1, 1 CPU) runs from -10; at 0 Y (user 1, 2 CPUs) and Z (user 2,
// 1 CPU) arrive. Lagged, Y comes first at 0 and blocks Z (no backfill); at 1, with no event,
// Z is ranked first and takes the free CPU (a pass is woken then). Ranked at once: Z at 0.
START_TEST(test_rank_lag_starts_arrivals_in_arrival_order_for_one_second)
{
	auto run = [](const Workload &workload, bool rank_lag) {
		SimulationOptions options;
		options.priority = "ostrich";
		options.backfill = BackfillKind::no_backfill;
		options.estimate.kind = EstimateKind::exact;
		options.calc_period_s = 1;
		options.rank_lag = rank_lag;
		auto result = simulate(workload, options);
		ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
		std::vector<int64_t> times;
		for (const JobOutcome &outcome : result.value().jobs)
			times.push_back(outcome.start_s);
		return times;
	};
	Workload first;
	first.machine_cpus = 2;
	first.jobs = {job(1, 1, 0, 1, 2), job(2, 1, 0, 1, 100), job(3, 1, 0, 1, 100),
	              job(4, 2, 0, 1, 5)};
	check_starts(run(first, false), {100, 0, 5, 0});
	check_starts(run(first, true), {0, 0, 7, 2});
	Workload next_second;
	next_second.machine_cpus = 2;
	next_second.jobs = {job(1, 1, -10, 1, 100), job(2, 1, 0, 2, 50), job(3, 2, 0, 1, 5)};
	check_starts(run(next_second, false), {-10, 90, 0});
	check_starts(run(next_second, true), {-10, 90, 1});
	SimulationOptions defaults;
	ck_assert(!defaults.rank_lag); // campsim's own runs rank arrivals at once
}
END_TEST

// sched_period: jobs start only at the passes, here the multiples of 4 s. The backfill trace under
// FCFS starts A 0, X 10, Y 20, F 30, G 30 with a pass at every event; with passes every 4 s each
// start waits for the next pass after the CPUs free: A 0 (a pass), X 12 (A ends at 10), Y 24 (X
// ends at 22), F and G 36 (Y ends at 34).
START_TEST(test_sched_period_starts_jobs_only_at_passes)
{
	auto fcfs_starts = [](const Workload &workload, double sched_period_s) {
		SimulationOptions options;
		options.priority = "fcfs";
		options.backfill = BackfillKind::no_backfill;
		options.estimate.kind = EstimateKind::exact;
		options.sched_period_s = sched_period_s;
		auto result = simulate(workload, options);
		ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
		std::vector<int64_t> times;
		for (const JobOutcome &outcome : result.value().jobs)
			times.push_back(outcome.start_s);
		return times;
	};
	check_starts(fcfs_starts(backfill_trace(), 0), {0, 10, 20, 30, 30});
	check_starts(fcfs_starts(backfill_trace(), 4), {0, 12, 24, 36, 36});
	// Every 1.5 s: passes at ceil(1.5 k) = 0, 2, 3, 5, 6, 8, 9, 11, ...: X at 11 (A ends at
	// 10), Y at 21 (X ends then, 21 = 1.5 x 14), F and G at 32 (Y ends at 31).
	check_starts(fcfs_starts(backfill_trace(), 1.5), {0, 11, 21, 32, 32});
	ck_assert_int_eq(next_sched_pass_s(-5, 4), -4);
	ck_assert_int_eq(next_sched_pass_s(3, 1.5), 3);
	ck_assert_int_eq(next_sched_pass_s(4, 1.5), 5);
	ck_assert_int_eq(next_sched_pass_s(-2, 1.5), -1); // ceil(-1.5)
	// Before time 0 the passes are at the multiples too: a job submitted at -3 starts at 0.
	Workload early;
	early.machine_cpus = 1;
	early.jobs = {job(1, 1, -3, 1, 5)};
	check_starts(fcfs_starts(early, 0), {-3});
	check_starts(fcfs_starts(early, 4), {0});
	SimulationOptions negative;
	negative.sched_period_s = -1;
	auto refused = simulate(backfill_trace(), negative);
	ck_assert(!refused.ok());
	ck_assert_msg(refused.error().find("sched_period_s -1") != std::string::npos, "%s",
	              refused.error().c_str());
}
END_TEST

// The fair-share options reach the fairtree baseline. m = 1: user 2's job runs 0-200, user 1's
// 200-300; user 1's B and user 2's C arrive at 250 and wait. At 300, with a long half-life
// user 2 has used more (200 against 100 CPU-s): B first. With a 10 s half-life user 2's usage
// has decayed to almost nothing: C first. Recalculating only every 1000 s, the factors at 300
// are those of time 0 (no usage): a tie, B first by index; with the passes at 300 + k x 1000
// (phase 300) C first again, at 301 not yet.
START_TEST(test_fair_share_half_life_and_calc_period_reach_the_baseline)
{
	Workload workload;
	workload.machine_cpus = 1;
	workload.jobs = {job(1, 2, 0, 1, 200), job(2, 1, 0, 1, 100), job(3, 1, 250, 1, 10),
	                 job(4, 2, 250, 1, 10)};
	auto c_first = [&](int64_t half_life_s, int64_t calc_period_s, int64_t calc_phase_s = 0) {
		SimulationOptions options;
		options.priority = "fairtree";
		options.backfill = BackfillKind::no_backfill;
		options.estimate.kind = EstimateKind::exact;
		options.fair_share_half_life_s = half_life_s;
		options.fair_share_calc_period_s = calc_period_s;
		options.fair_share_calc_phase_s = calc_phase_s;
		auto result = simulate(workload, options);
		ck_assert_msg(result.ok(), "%s", result.ok() ? "" : result.error().c_str());
		const auto &jobs = result.value().jobs;
		ck_assert_int_eq(jobs[1].start_s, 200);
		return jobs[3].start_s < jobs[2].start_s;
	};
	ck_assert(!c_first(1000000, 0));
	ck_assert(c_first(10, 0));
	ck_assert(!c_first(10, 1000));
	// The same period with its passes at 300 + k x 1000: the pass at 300 sees the decay.
	ck_assert(c_first(10, 1000, 300));
	ck_assert(!c_first(10, 1000, 301));
	SimulationOptions defaults; // the baseline's own defaults (fair_share_priority.h)
	ck_assert_int_eq(defaults.fair_share_half_life_s, 7 * 86400);
	ck_assert_int_eq(defaults.fair_share_max_age_s, 7 * 86400);
	ck_assert_int_eq(defaults.fair_share_calc_period_s, 300);
	ck_assert_int_eq(defaults.sched_period_s, 0);
}
END_TEST

START_TEST(test_unknown_policy_is_named)
{
	SimulationOptions options;
	options.priority = "lottery";
	auto result = simulate(backfill_trace(), options);
	ck_assert(!result.ok());
	ck_assert_msg(result.error().find("'lottery'") != std::string::npos, "%s",
	              result.error().c_str());
}
END_TEST

int main()
{
	Suite *suite = suite_create("engine_schedules");
	TCase *tc = tcase_create("engine");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_fcfs_without_backfill);
	tcase_add_test(tc, test_easy_protects_the_head_only);
	tcase_add_test(tc, test_conservative_protects_every_job);
	tcase_add_test(tc, test_per_campaign_protects_each_campaign_head);
	tcase_add_test(tc, test_greedy_starts_whatever_fits);
	tcase_add_test(tc, test_closed_loop_releases_next_campaign_at_completion);
	tcase_add_test(tc, test_generation_order_release_holds_later_campaigns);
	tcase_add_test(tc, test_ostrich_lets_the_light_user_pass);
	tcase_add_test(tc, test_every_mode_finishes_every_job_and_is_deterministic);
	tcase_add_test(tc, test_plain_fcfs_equals_core_fifo);
	tcase_add_test(tc, test_single_cpu_jobs_start_in_rank_order_in_every_mode);
	tcase_add_test(tc, test_shared_campaigns_hand_counted);
	tcase_add_test(tc, test_dependencies_hold_a_job_until_its_predecessor_completes);
	tcase_add_test(tc, test_downtime_split_replays_each_piece_alone);
	tcase_add_test(tc, test_online_campaigns_come_from_the_core);
	tcase_add_test(tc, test_calc_period_lists_new_jobs_below_the_last_order);
	tcase_add_test(tc, test_rank_lag_starts_arrivals_in_arrival_order_for_one_second);
	tcase_add_test(tc, test_sched_period_starts_jobs_only_at_passes);
	tcase_add_test(tc, test_fair_share_half_life_and_calc_period_reach_the_baseline);
	tcase_add_test(tc, test_unknown_policy_is_named);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
