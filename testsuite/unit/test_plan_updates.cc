// Unit tests of the kept plan: compression on early completion, refusals, submissions, starts
// elsewhere than planned, and a randomized run of event sequences against the brute-force checker.
#include "check_main.h"
#include "plan_fixtures.h"
#include "plan_random.h"
#include "plan_rules.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace plan_fixtures;

namespace
{

std::map<JobId, int64_t> planned_starts(const Planner &planner)
{
	std::map<JobId, int64_t> starts;
	for (const PlannedJob &planned : planner.queue())
		if (planned.start_s != never_s)
			starts[planned.id] = planned.start_s;
	return starts;
}

// The waiting-tail tests' machine: 1 node x 4 CPUs, R1 (job 100) holding 3 CPUs until 100 and
// R2 (job 101) 1 CPU until 50, with `pending` planned at 0.
void plan_beside_r1_r2(Planner &planner, const std::vector<PendingJob> &pending)
{
	ck_assert(planner
	              .rebuild(uniform_cluster(1, 4),
	                       {running(100, 0, 3, 100), running(101, 0, 1, 50)}, pending, 0)
	              .ok());
}

} // namespace

START_TEST(test_plan_early_completions_compress_the_conservative_plan)
{
	// The worked queue of test_plan_modes (1 node x 4 CPUs, R holds 2 CPUs until 10; A 4x10,
	// B 2x20, C 1x5, D 1x10, E 2x5, F 1x100): C and D start at 0, A=10, B=20, E=20, F=25.
	// By hand: R ends at 3: 2 CPUs are free in [3,5), so E starts now [3,8); F, which only
	// waited for E, moves to 20; A and B cannot move (D holds a CPU until 10).
	// Then D ends at 4: C runs to 5 and E to 8, so A=8 [8,18), B=18 [18,38), F=18.
	// Every start moved earlier or stayed; a rebuild from the same state gives the same plan.
	Planner planner(config(ReservationMode::conservative));
	std::vector<PendingJob> queue{job(1, 4, 10), job(2, 2, 20), job(3, 1, 5),
	                              job(4, 1, 10), job(5, 2, 5),  job(6, 1, 100)};
	ck_assert(planner.rebuild(uniform_cluster(1, 4), {running(100, 0, 2, 10)}, queue, 0).ok());
	ck_assert(planner.job_started(running(3, 0, 1, 5), 0).ok());
	ck_assert(planner.job_started(running(4, 0, 1, 10), 0).ok());
	ck_assert(planner.job_ended(100, 3).ok());
	auto after_r = planned_starts(planner);
	ck_assert_int_eq(after_r.at(1), 10);
	ck_assert_int_eq(after_r.at(2), 20);
	ck_assert_int_eq(after_r.at(5), 3);
	ck_assert_int_eq(after_r.at(6), 20);
	ck_assert(planner.job_started(running(5, 0, 2, 8), 3).ok());
	ck_assert(planner.job_ended(4, 4).ok());
	auto after_d = planned_starts(planner);
	ck_assert_int_eq(after_d.at(1), 8);
	ck_assert_int_eq(after_d.at(2), 18);
	ck_assert_int_eq(after_d.at(6), 18);
}
END_TEST

START_TEST(test_plan_compression_keeps_commitments_a_rebuild_would_reorder)
{
	// Why the kept plan is not a rebuild (hand-worked): 2 nodes x 1 CPU; X holds node 0 until
	// 10, Y holds node 1 until 3. J (rank 1, both nodes, 5 s) is reserved at 10; K (rank 2,
	// 1 CPU, 7 s) at 3 on node 1. X ends at 1. Compression: J cannot move before 10 (K holds
	// node 1 in [3,10)); K moves to node 0 at 1. A rebuild would give J=3, K=8: K's start would
	// move later although no higher-ranked job arrived (doc/design.md §3 forbids that). So the
	// kept plan guarantees: no planned start ever moves later on end, cancel or refusal.
	Planner planner(config(ReservationMode::conservative));
	PendingJob j = job(1, 2, 5);
	j.nodes_min = 2;
	ck_assert(planner
	              .rebuild(uniform_cluster(2, 1),
	                       {running(100, 0, 1, 10), running(101, 1, 1, 3)}, {j, job(2, 1, 7)},
	                       0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 10);
	ck_assert_int_eq(status_of(planner, 2).start_s, 3);
	ck_assert(planner.job_ended(100, 1).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 10);
	ck_assert_int_eq(status_of(planner, 2).start_s, 1);
	Planner rebuilt(config(ReservationMode::conservative));
	ck_assert(
	    rebuilt.rebuild(uniform_cluster(2, 1), {running(101, 1, 1, 3)}, {j, job(2, 1, 7)}, 1)
	        .ok());
	ck_assert_int_eq(status_of(rebuilt, 1).start_s, 3);
	ck_assert_int_eq(status_of(rebuilt, 2).start_s, 8);
}
END_TEST

START_TEST(test_plan_refused_start_does_not_block_the_queue)
{
	// EASY, 1 node x 4 CPUs, empty: A (4 CPUs) starts now and B (2 CPUs) is reserved at 10.
	// The caller reports A refused: A holds nothing and reserves nothing for refusal_hold_s,
	// so B starts now. After the hold A is planned again (behind B, which now runs to 10).
	PlannerConfig easy = config(ReservationMode::easy);
	easy.refusal_hold_s = 30;
	Planner planner(easy);
	ck_assert(
	    planner.rebuild(uniform_cluster(1, 4), {}, {job(1, 4, 10), job(2, 2, 10)}, 0).ok());
	ck_assert(status_of(planner, 1).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 2).start_s, 10);
	ck_assert(planner.refused(1, 0).ok());
	ck_assert(status_of(planner, 1).status == JobStatus::refused);
	Plan plan = planner.plan(0);
	ck_assert_int_eq(plan.starts_now.size(), 1);
	ck_assert_int_eq(plan.starts_now[0], 2);
	ck_assert(planner.job_started(running(2, 0, 2, 10), 0).ok());
	ck_assert(planner.plan(29).planned.empty());
	Plan after_hold = planner.plan(30);
	ck_assert(status_of(planner, 1).status == JobStatus::starts_now); // B ended at 10
	ck_assert_int_eq(after_hold.starts_now[0], 1);
	ck_assert(!planner.refused(77, 30).ok()); // unknown job: an error naming it
}
END_TEST

START_TEST(test_plan_early_end_starts_a_job_beyond_the_reservations)
{
	// EASY, 1 node x 4 CPUs; R1 holds 2 CPUs until 100, R2 2 until 200. B (4 CPUs) holds the
	// one reservation, at 200; E (3 CPUs) and C (1 CPU, 50 s) may only start now, and nothing
	// is free. R1 ends at 10: 2 CPUs are free until 200. Compression leaves B at 200; E still
	// cannot start (3 CPUs), C starts now [10, 60), before B's start. (The walk that places
	// jobs beyond the reservations passes over E without searching, and must not stop there.)
	Planner planner(config(ReservationMode::easy));
	ck_assert(planner
	              .rebuild(uniform_cluster(1, 4),
	                       {running(100, 0, 2, 100), running(101, 0, 2, 200)},
	                       {job(1, 4, 100), job(3, 3, 50), job(2, 1, 50)}, 0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	ck_assert(planner.job_ended(100, 10).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 200);
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	ck_assert(status_of(planner, 2).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 2).start_s, 10);
	Plan plan = planner.plan(10);
	ck_assert_int_eq(plan.starts_now.size(), 1);
	ck_assert_int_eq(plan.starts_now[0], 2);
}
END_TEST

START_TEST(test_plan_waiting_tail_counts_a_job_submitted_last)
{
	// EASY, 1 node x 4 CPUs; R1 holds 3 CPUs until 100, R2 1 CPU until 50. B (4 CPUs) holds
	// the one reservation, at 100; W (2 CPUs, 10 s) waits. S (1 CPU, 5 s) arrives ranked last
	// and waits too (nothing is free). R2 ends at 10: one CPU is free until 100, W still
	// cannot start, S starts now. (Compression stops in the queue's tail of waiting jobs
	// where none of them could start now: S must count in it, or the walk stops before it.)
	Planner planner(config(ReservationMode::easy));
	plan_beside_r1_r2(planner, {job(1, 4, 100), job(2, 2, 10)});
	ck_assert(planner.job_submitted(job(3, 1, 5), 0).ok());
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 3).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 3).start_s, 10);
}
END_TEST

START_TEST(test_plan_waiting_tail_keeps_the_jobs_above_a_submission)
{
	// As above, S (1 CPU, 5 s) and W (2 CPUs, 10 s) wait below B, S first. X (3 CPUs, 10 s)
	// arrives ranked just before W: the jobs from X down are planned again, S above them is
	// not. R2 ends at 10: S starts now (the tail from S down counts S, which that plan did
	// not walk), W and X wait.
	Planner planner(config(ReservationMode::easy));
	plan_beside_r1_r2(planner, {job(1, 4, 100), job(3, 1, 5), job(2, 2, 10)});
	ck_assert(planner.job_submitted(job(4, 3, 10), 0, 2).ok());
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	ck_assert(status_of(planner, 4).status == JobStatus::waiting);
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert(status_of(planner, 3).status == JobStatus::starts_now);
	ck_assert(status_of(planner, 4).status == JobStatus::waiting);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	Plan plan = planner.plan(10);
	ck_assert_int_eq(plan.starts_now.size(), 1);
	ck_assert_int_eq(plan.starts_now[0], 3);
}
END_TEST

namespace
{

// 1 node x 4 CPUs; R1 holds 3 CPUs until 100, R2 1 CPU until 50. B (4 CPUs, 100 s) holds a
// reservation at 100; W (1 CPU, limit 200, --time-min 30) ranks below it and is planned as
// `before` says. R2 ends at 10: one CPU is free until 100, too short for W's limit but not for
// its time-min, so W starts now with 90 s (whole minutes over the minimum), as a plan made
// afresh at 10 starts it (and sched/backfill would).
void check_time_min_start_after_early_end(ReservationMode mode, JobStatus before,
                                          int64_t before_start_s)
{
	PendingJob shortenable = job(2, 1, 200);
	shortenable.limit_min_s = 30;
	const std::vector<PendingJob> pending{job(1, 4, 100), shortenable};
	Planner planner(config(mode));
	plan_beside_r1_r2(planner, pending);
	ck_assert(status_of(planner, 2).status == before);
	ck_assert_int_eq(status_of(planner, 2).start_s, before_start_s);
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert(status_of(planner, 2).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 2).start_s, 10);
	ck_assert_int_eq(status_of(planner, 2).limit_s, 90);
	Planner fresh(config(mode));
	ck_assert(
	    fresh.rebuild(uniform_cluster(1, 4), {running(100, 0, 3, 100)}, pending, 10).ok());
	ck_assert(status_of(fresh, 2).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(fresh, 2).limit_s, 90);
}

} // namespace

// EASY: W waits below the one reservation (compression's walk of the jobs without a place).
START_TEST(test_plan_early_end_starts_a_waiting_job_shortened_to_its_time_min)
{
	check_time_min_start_after_early_end(ReservationMode::easy, JobStatus::waiting, never_s);
}
END_TEST

// Conservative: W is reserved at 200, after B; it cannot move earlier with its whole limit (B
// takes every CPU from 100), so only a shorter limit starts it (compression's kept reservations).
START_TEST(test_plan_early_end_starts_a_reserved_job_shortened_to_its_time_min)
{
	check_time_min_start_after_early_end(ReservationMode::conservative, JobStatus::reserved,
	                                     200);
}
END_TEST

START_TEST(test_plan_waiting_tail_gives_the_reservation_left_free)
{
	// EASY, 1 node x 4 CPUs; R holds all 4 until 100. B (4 CPUs, 10 s) holds the one
	// reservation, at 100; W (2 CPUs, 10 s) waits. R ends at 100 as planned: B starts now and
	// takes every CPU until 110, and the reservation passes to W, at 110, although no job of
	// the waiting tail could start now.
	Planner planner(config(ReservationMode::easy));
	ck_assert(planner
	              .rebuild(uniform_cluster(1, 4), {running(100, 0, 4, 100)},
	                       {job(1, 4, 10), job(2, 2, 10)}, 0)
	              .ok());
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(planner.job_ended(100, 100).ok());
	ck_assert(status_of(planner, 1).status == JobStatus::starts_now);
	ck_assert(status_of(planner, 2).status == JobStatus::reserved);
	ck_assert_int_eq(status_of(planner, 2).start_s, 110);
}
END_TEST

START_TEST(test_plan_waiting_tail_passed_over_still_counts)
{
	// EASY, 1 node x 4 CPUs; R1 holds 3 CPUs until 100, R2 1 CPU until 50. B (4 CPUs, 100 s)
	// holds the one reservation, at 100; below it W (1 CPU, 200 s), S (1 CPU, 90 s) and T (2
	// CPUs, 10 s) wait. R2 ends at 10: one CPU is free until 100, exactly S's limit, so S
	// starts now; W (too long) and T (too wide) are passed over unread. R1 ends at 20: three
	// CPUs are free until 100 and T starts, which needs the tail below S to count T although
	// the walk at 10 passed over it (else the walk at 20 stops before it).
	Planner planner(config(ReservationMode::easy));
	plan_beside_r1_r2(planner, {job(1, 4, 100), job(2, 1, 200), job(3, 1, 90), job(4, 2, 10)});
	ck_assert(status_of(planner, 3).status == JobStatus::waiting);
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 3).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 3).start_s, 10);
	ck_assert(status_of(planner, 4).status == JobStatus::waiting);
	ck_assert(planner.job_started(running(3, 0, 1, 100), 10).ok());
	ck_assert(planner.job_ended(100, 20).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 4).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 4).start_s, 20);
}
END_TEST

START_TEST(test_plan_waiting_tail_passed_over_to_its_end_keeps_its_minima)
{
	// EASY, 1 node x 4 CPUs; R1 holds 2 CPUs until 100, R2 and R3 one each until 50 and 60.
	// B (4 CPUs, 100 s) holds the one reservation, at 100; below it W (1 CPU, 200 s) and T
	// (2 CPUs, 10 s) wait. R2 ends at 10: one CPU is free until 100, W is too long and T too
	// wide, so the walk passes over both to the queue's end. R3 ends at 20: two CPUs are free
	// until 100 and T starts, which needs the tail found at 10 to hold T's 10 s as its
	// shortest limit (with W's 200 s no job of it could start now), although the walk at 10
	// placed none of it.
	Planner planner(config(ReservationMode::easy));
	ck_assert(
	    planner
	        .rebuild(uniform_cluster(1, 4),
	                 {running(100, 0, 2, 100), running(101, 0, 1, 50), running(102, 0, 1, 60)},
	                 {job(1, 4, 100), job(2, 1, 200), job(4, 2, 10)}, 0)
	        .ok());
	ck_assert(planner.job_ended(101, 10).ok());
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 4).status == JobStatus::waiting);
	ck_assert(planner.job_ended(102, 20).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 100);
	ck_assert(status_of(planner, 2).status == JobStatus::waiting);
	ck_assert(status_of(planner, 4).status == JobStatus::starts_now);
	ck_assert_int_eq(status_of(planner, 4).start_s, 20);
}
END_TEST

START_TEST(test_plan_higher_ranked_submission_replans_lower_ranks_only)
{
	// 1 node x 2 CPUs, empty, conservative: A (2 CPUs 10 s) now, B (2 CPUs 10 s) at 10.
	// H (2 CPUs, 5 s) arrives ranked before B: A keeps its start, H takes 10, B moves to 15.
	// L (1 CPU, 1 s) arrives ranked last: nobody else moves, L goes to 25.
	Planner planner(config(ReservationMode::conservative));
	ck_assert(
	    planner.rebuild(uniform_cluster(1, 2), {}, {job(1, 2, 10), job(2, 2, 10)}, 0).ok());
	ck_assert(planner.job_submitted(job(3, 2, 5), 0, 2).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 0);
	ck_assert_int_eq(status_of(planner, 3).start_s, 10);
	ck_assert_int_eq(status_of(planner, 2).start_s, 15);
	ck_assert(planner.job_submitted(job(4, 1, 1), 0).ok());
	ck_assert_int_eq(status_of(planner, 4).start_s, 25);
	ck_assert(!planner.job_submitted(job(4, 1, 1), 0).ok()); // twice: refused with its id
}
END_TEST

START_TEST(test_plan_node_failure_replans_on_the_remaining_nodes)
{
	// Hand-worked: 2 nodes x 4 CPUs; R holds node 0 until 10. B (4 CPUs, 20 s) starts now on
	// node 1, C (4 CPUs, 5 s) is reserved at 10 on node 0. B is cancelled, so C may start now
	// on node 1; before it is started node 1 goes DOWN: C is planned again on node 0 at 10.
	Planner planner(config(ReservationMode::conservative));
	Cluster cluster = uniform_cluster(2, 4);
	ck_assert(planner.rebuild(cluster, {running(1, 0, 4, 10)}, {job(2, 4, 20), job(3, 4, 5)}, 0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 2).allocations[0].node, 1);
	ck_assert_int_eq(status_of(planner, 3).start_s, 10);
	ck_assert(planner.job_cancelled(2, 0).ok());
	ck_assert(status_of(planner, 3).status == JobStatus::starts_now);
	cluster.nodes[1].state = NodeState::down;
	ck_assert(planner.cluster_changed(cluster, 2).ok());
	PlannedJob c = status_of(planner, 3);
	ck_assert(c.status == JobStatus::reserved);
	ck_assert_int_eq(c.start_s, 10);
	ck_assert_int_eq(c.allocations[0].node, 0);
}
END_TEST

START_TEST(test_plan_start_elsewhere_than_planned_is_absorbed)
{
	// 2 nodes x 2 CPUs, conservative: A (2 CPUs, 10 s) is planned now on node 0 (best fit,
	// lowest index), B (4 CPUs) at 10. Slurm starts A on node 1 instead: the plan stays
	// consistent (nothing over-committed) and B still starts at 10.
	Planner planner(config(ReservationMode::conservative));
	Cluster cluster = uniform_cluster(2, 2);
	ck_assert(planner.rebuild(cluster, {}, {job(1, 2, 10), job(2, 4, 10)}, 0).ok());
	ck_assert_int_eq(status_of(planner, 1).allocations[0].node, 0);
	ck_assert(planner.job_started(running(1, 1, 2, 10), 0).ok());
	ck_assert_int_eq(status_of(planner, 2).start_s, 10);
	std::string error = plan_rules::resource_error(cluster, {running(1, 1, 2, 10)},
	                                               {job(1, 2, 10), job(2, 4, 10)}, planner);
	ck_assert_msg(error.empty(), "%s", error.c_str());
}
END_TEST

namespace
{

// Mirror of the planner's world, kept by the test: what a simulator would know.
struct World {
	plan_random::Instance instance;
	std::vector<RunningJob> running;
	std::vector<PendingJob> pending;
	int64_t now_s = 1000;
	JobId next_id = 5000;
};

std::string check_resources(const World &world, const Planner &planner)
{
	return plan_rules::resource_error(world.instance.cluster, world.running, world.pending,
	                                  planner);
}

const PendingJob &pending_job(const World &world, JobId id)
{
	return *std::find_if(world.pending.begin(), world.pending.end(),
	                     [&](const PendingJob &job) { return job.id == id; });
}

void remove_pending(World &world, JobId id)
{
	world.pending.erase(std::find_if(world.pending.begin(), world.pending.end(),
	                                 [&](const PendingJob &job) { return job.id == id; }));
}

// Start every job the plan starts now, as a simulator does (refusing one now and then).
std::optional<JobId> start_jobs(World &world, Planner &planner, plan_random::Random &random)
{
	Plan plan = planner.plan(world.now_s);
	std::optional<JobId> refused;
	for (JobId id : plan.starts_now) {
		if (!refused && random.chance(10)) {
			refused = id;
			continue;
		}
		RunningJob job{id, plan.planned.at(id).allocations,
		               world.now_s + pending_job(world, id).limit_s};
		ck_assert(planner.job_started(job, world.now_s).ok());
		world.running.push_back(job);
		remove_pending(world, id);
	}
	return refused;
}

// A kept start may only move earlier; a job placed before stays placed.
std::string later_start(const std::map<JobId, int64_t> &before, const Planner &planner,
                        JobId except)
{
	std::map<JobId, int64_t> after = planned_starts(planner);
	for (const auto &[id, start_s] : before) {
		if (id == except || start_s < planner.now_s())
			continue;
		auto found = after.find(id);
		if (found == after.end())
			return "job " + std::to_string(id) + " lost its placement";
		if (found->second > start_s)
			return "job " + std::to_string(id) +
			       " moved later: " + std::to_string(start_s) + " -> " +
			       std::to_string(found->second);
	}
	return "";
}

// Like a simulator: either the job with the first expected end ends then, or some job ends
// early before anyone reaches its expected end.
std::string end_one(World &world, Planner &planner, plan_random::Random &random)
{
	if (world.running.empty())
		return "";
	size_t which = 0;
	for (size_t i = 1; i < world.running.size(); ++i)
		if (world.running[i].expected_end_s < world.running[which].expected_end_s)
			which = i;
	const int64_t first_end_s = world.running[which].expected_end_s;
	if (first_end_s > world.now_s && random.chance(60)) {
		which = static_cast<size_t>(random.between(0, world.running.size() - 1));
		world.now_s = random.between(world.now_s, first_end_s - 1);
	} else {
		world.now_s = std::max(world.now_s, first_end_s);
	}
	const JobId id = world.running[which].id;
	auto before = planned_starts(planner);
	ck_assert(planner.job_ended(id, world.now_s).ok());
	world.running.erase(world.running.begin() + static_cast<std::ptrdiff_t>(which));
	return later_start(before, planner, 0);
}

std::string cancel_or_refuse(World &world, Planner &planner, std::optional<JobId> refused,
                             plan_random::Random &random)
{
	auto before = planned_starts(planner);
	if (refused) {
		ck_assert(planner.refused(*refused, world.now_s).ok());
		return later_start(before, planner, *refused);
	}
	if (world.pending.empty())
		return "";
	const JobId id = world.pending[random.between(0, world.pending.size() - 1)].id;
	ck_assert(planner.job_cancelled(id, world.now_s).ok());
	remove_pending(world, id);
	return later_start(before, planner, id);
}

std::string submit_one(World &world, Planner &planner, plan_random::Random &random)
{
	PendingJob job = plan_random::random_pending(random, world.next_id++,
	                                             world.instance.cluster.nodes.size());
	auto before = planner.queue();
	size_t position = world.pending.size();
	if (!world.pending.empty() && random.chance(30))
		position = static_cast<size_t>(random.between(0, world.pending.size() - 1));
	const JobId anchor = position < world.pending.size() ? world.pending[position].id : 0;
	ck_assert(planner.job_submitted(job, world.now_s, anchor).ok());
	world.pending.insert(world.pending.begin() + static_cast<std::ptrdiff_t>(position), job);
	auto after = planner.queue();
	for (size_t i = 0; i < position; ++i) // jobs ranked above the newcomer keep their plan
		if (before[i].start_s != after[i].start_s ||
		    before[i].allocations != after[i].allocations)
			return "job " + std::to_string(before[i].id) +
			       " moved on a lower submission";
	return "";
}

} // namespace

START_TEST(test_plan_random_event_sequences_never_overcommit_nor_delay_kept_starts)
{
	// 3000 instances x 12 events (end on time or early, cancel, refusal, submission at a random
	// rank),
	// starting every starts_now job as a simulator would. After every event the brute-force
	// checker finds no over-commitment and no bad shape; on end, cancel and refusal no kept
	// start moves later; a submission leaves every job ranked above it untouched.
	for (uint64_t seed = 1; seed <= 3000; ++seed) {
		plan_random::Random random(seed + 77);
		World world;
		world.instance = plan_random::random_instance(seed, world.now_s);
		world.running = world.instance.running;
		world.pending = world.instance.pending;
		Planner planner(world.instance.config);
		ck_assert(
		    planner
		        .rebuild(world.instance.cluster, world.running, world.pending, world.now_s)
		        .ok());
		for (int step = 0; step < 12; ++step) {
			std::optional<JobId> refused = start_jobs(world, planner, random);
			std::string error = check_resources(world, planner);
			const int64_t kind = random.between(0, 2);
			if (error.empty() && kind == 0)
				error = end_one(world, planner, random);
			else if (error.empty() && kind == 1)
				error = cancel_or_refuse(world, planner, refused, random);
			else if (error.empty())
				error = submit_one(world, planner, random);
			if (error.empty())
				error = check_resources(world, planner);
			ck_assert_msg(error.empty(), "seed %lu step %d (%s): %s", seed, step,
			              to_string(world.instance.config.mode), error.c_str());
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_updates");
	TCase *tc = tcase_create("kept_plan");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_plan_early_completions_compress_the_conservative_plan);
	tcase_add_test(tc, test_plan_compression_keeps_commitments_a_rebuild_would_reorder);
	tcase_add_test(tc, test_plan_refused_start_does_not_block_the_queue);
	tcase_add_test(tc, test_plan_early_end_starts_a_job_beyond_the_reservations);
	tcase_add_test(tc, test_plan_waiting_tail_counts_a_job_submitted_last);
	tcase_add_test(tc, test_plan_waiting_tail_keeps_the_jobs_above_a_submission);
	tcase_add_test(tc, test_plan_waiting_tail_gives_the_reservation_left_free);
	tcase_add_test(tc, test_plan_waiting_tail_passed_over_still_counts);
	tcase_add_test(tc, test_plan_waiting_tail_passed_over_to_its_end_keeps_its_minima);
	tcase_add_test(tc, test_plan_early_end_starts_a_waiting_job_shortened_to_its_time_min);
	tcase_add_test(tc, test_plan_early_end_starts_a_reserved_job_shortened_to_its_time_min);
	tcase_add_test(tc, test_plan_higher_ranked_submission_replans_lower_ranks_only);
	tcase_add_test(tc, test_plan_start_elsewhere_than_planned_is_absorbed);
	tcase_add_test(tc, test_plan_node_failure_replans_on_the_remaining_nodes);
	tcase_add_test(tc, test_plan_random_event_sequences_never_overcommit_nor_delay_kept_starts);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
