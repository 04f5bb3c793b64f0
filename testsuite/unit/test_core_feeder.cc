// CoreFeeder: snapshots of a job table give the core the same state as the events fed directly;
// vanished, held, requeued and cancelled jobs; the plugin state file round-trips and refuses
// bad input naming the culprit.
#include "core_fixtures.h"
#include "policy/core_feeder.h"
#include "state/priority_state.h"

using namespace campaign_test;

namespace
{

const PartitionCapacity kBatch{.partition = "p", .cpus_up = 8};

ObservedJob pending(const JobFields &fields)
{
	return ObservedJob{.fields = fields};
}

ObservedJob running(const JobFields &fields, int64_t start_s)
{
	return ObservedJob{
	    .fields = fields, .state = ObservedJob::State::Running, .start_s = start_s};
}

ObservedJob finished(const JobFields &fields, int64_t start_s, int64_t end_s, bool ran = true)
{
	return ObservedJob{.fields = fields,
	                   .state = ObservedJob::State::Finished,
	                   .start_s = start_s,
	                   .end_s = end_s,
	                   .ran = ran};
}

void expect_same_ranking(CampaignCore &a, CampaignCore &b, int64_t now_s)
{
	Ranking left = a.rank(now_s), right = b.rank(now_s);
	ck_assert_uint_eq(left.order.size(), right.order.size());
	for (size_t i = 0; i < left.order.size(); i++) {
		ck_assert_uint_eq(left.order[i], right.order[i]);
		expect_near(left.explanations[i].key, right.explanations[i].key, "campaign key");
	}
}

bool ranked(CampaignCore &core, uint32_t job_id, int64_t now_s)
{
	for (uint32_t id : core.rank(now_s).order)
		if (id == job_id)
			return true;
	return false;
}

} // namespace

// Three users; the feeder sees the table at t = 6, 12 and 80 and must leave the core where the
// same events, fed one by one at their own times, leave it.
START_TEST(test_feeder_equals_direct_events)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 200, 5, 8, 120);
	const JobFields j3 = job(3, 300, 11, 2, 600), j4 = job(4, 100, 72, 2, 60);
	CampaignCore direct = make_core("policy=ostrich");
	ok(direct.capacity(kBatch, 0));
	ok(direct.submit(j1, 0));
	ok(direct.submit(j2, 5));
	ok(direct.start(1, 10));
	ok(direct.submit(j3, 11));
	ok(direct.end(1, 70));
	ok(direct.submit(j4, 72));

	CampaignCore fed = make_core("policy=ostrich");
	CoreFeeder feeder;
	FeedCounts first = feeder.reconcile(fed, {pending(j1), pending(j2)}, {kBatch}, 6);
	ck_assert_uint_eq(first.submitted, 2);
	feeder.reconcile(fed, {running(j1, 10), pending(j2), pending(j3)}, {kBatch}, 12);
	FeedCounts last = feeder.reconcile(
	    fed, {finished(j1, 10, 70), pending(j2), pending(j3), pending(j4)}, {kBatch}, 80);
	ck_assert_uint_eq(last.ended, 1);
	ck_assert_uint_eq(last.errors, 0);
	expect_same_ranking(direct, fed, 80);
}
END_TEST

// A job that started and ended between two snapshots is replayed whole (submit, start, end).
START_TEST(test_feeder_replays_a_job_seen_only_finished)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 100, 30, 4, 60);
	CampaignCore direct = make_core("policy=ostrich");
	ok(direct.capacity(kBatch, 0));
	ok(direct.submit(j1, 0));
	ok(direct.start(1, 1));
	ok(direct.end(1, 20));
	ok(direct.submit(j2, 30));

	CampaignCore fed = make_core("policy=ostrich");
	CoreFeeder feeder;
	FeedCounts counts = feeder.reconcile(fed, {finished(j1, 1, 20), pending(j2)}, {kBatch}, 31);
	ck_assert_uint_eq(counts.submitted, 2);
	ck_assert_uint_eq(counts.started, 1);
	ck_assert_uint_eq(counts.ended, 1);
	expect_same_ranking(direct, fed, 31);
	// A job that ran for less than a second (start == end) is replayed start first.
	const JobFields quick = job(3, 200, 31, 1, 60);
	FeedCounts instant = feeder.reconcile(
	    fed, {finished(j1, 1, 20), pending(j2), finished(quick, 31, 31)}, {kBatch}, 32);
	ck_assert_msg(instant.errors == 0, "%s", instant.first_error.c_str());
	ck_assert_uint_eq(instant.ended, 1);
	// Seen again finished (Slurm keeps it until MinJobAge): nothing more happens.
	FeedCounts again = feeder.reconcile(
	    fed, {finished(j1, 1, 20), pending(j2), finished(quick, 31, 31)}, {kBatch}, 33);
	ck_assert_uint_eq(again.submitted + again.started + again.ended, 0);
}
END_TEST

START_TEST(test_feeder_vanished_and_cancelled_jobs_leave_the_ranking)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 200, 0, 4, 60);
	const JobFields j3 = job(3, 300, 0, 4, 60);
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {pending(j1), pending(j2), pending(j3)}, {kBatch}, 1);
	ck_assert_uint_eq(core.rank(1).order.size(), 3);
	// j1 purged from the table while pending; j2 cancelled while pending (never ran).
	FeedCounts counts =
	    feeder.reconcile(core, {finished(j2, 0, 2, false), pending(j3)}, {kBatch}, 3);
	ck_assert_uint_eq(counts.cancelled, 2);
	ck_assert(!ranked(core, 1, 3));
	ck_assert(!ranked(core, 2, 3));
	ck_assert(ranked(core, 3, 3));
	ck_assert_uint_eq(feeder.tracked(), 2); // j2 remembered as done
}
END_TEST

// A finished job purged from the table and recovered later (slurmctld crashed before saving
// the purge) is not counted again; it is forgotten once gone for longer than the memory.
START_TEST(test_feeder_remembers_finished_jobs_after_they_leave_the_table)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 100, 5, 4, 60);
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {running(j1, 1), pending(j2)}, {kBatch}, 6);
	feeder.reconcile(core, {finished(j1, 1, 20), pending(j2)}, {kBatch}, 21);
	feeder.reconcile(core, {pending(j2)}, {kBatch}, 40); // purged
	FeedCounts back = feeder.reconcile(core, {finished(j1, 1, 20), pending(j2)}, {kBatch}, 50);
	ck_assert_uint_eq(back.submitted + back.ended, 0);
	feeder.reconcile(core, {pending(j2)}, {kBatch}, 60);
	ck_assert_uint_eq(feeder.tracked(), 2);
	feeder.reconcile(core, {pending(j2)}, {kBatch}, 60 + CoreFeeder::kDoneMemoryS + 1);
	ck_assert_uint_eq(feeder.tracked(), 1);
}
END_TEST

START_TEST(test_feeder_hold_release_and_requeue)
{
	JobFields j1 = job(1, 100, 0, 4, 60);
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	j1.held = true;
	feeder.reconcile(core, {pending(j1)}, {kBatch}, 1);
	ck_assert(!ranked(core, 1, 1));
	j1.held = false;
	feeder.reconcile(core, {pending(j1)}, {kBatch}, 2);
	ck_assert(ranked(core, 1, 2));
	feeder.reconcile(core, {running(j1, 3)}, {kBatch}, 4);
	ck_assert(!ranked(core, 1, 4));
	// Requeued: pending again under the same id, ranked again.
	FeedCounts counts = feeder.reconcile(core, {pending(j1)}, {kBatch}, 9);
	ck_assert_uint_eq(counts.ended, 1);
	ck_assert_uint_eq(counts.submitted, 1);
	ck_assert_uint_eq(counts.errors, 0);
	ck_assert(ranked(core, 1, 9));
}
END_TEST

START_TEST(test_feeder_limit_update_changes_the_key)
{
	JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 200, 0, 4, 100);
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {pending(j1), pending(j2)}, {kBatch}, 1);
	ck_assert_uint_eq(core.rank(1).order.front(), 1); // less work finishes first in V
	j1.limit = TimeLimit::of_seconds(600);
	FeedCounts counts = feeder.reconcile(core, {pending(j1), pending(j2)}, {kBatch}, 2);
	ck_assert_uint_eq(counts.updated, 1);
	ck_assert_uint_eq(core.rank(2).order.front(), 2);
}
END_TEST

// A job that started and ended between two passes, with a field changed meanwhile (Slurm's
// suite, test15.14: a dependent job ran for a second): the change is not sent after its end,
// where the core no longer knows the job (slurmctld logged "events refused by the core").
START_TEST(test_feeder_job_finished_between_passes_with_a_change_is_not_updated)
{
	JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 200, 0, 4, 60);
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {pending(j1), pending(j2)}, {kBatch}, 1);
	j1.limit = TimeLimit::of_seconds(600);
	j2.nice = 10;
	FeedCounts counts =
	    feeder.reconcile(core, {finished(j1, 5, 8), finished(j2, 0, 9, false)}, {kBatch}, 10);
	ck_assert_msg(counts.errors == 0, "%s", counts.first_error.c_str());
	ck_assert_uint_eq(counts.ended, 1);
	ck_assert_uint_eq(counts.cancelled, 1);
	ck_assert_uint_eq(counts.updated, 0);
}
END_TEST

// The state file restores core and feeder: both copies then take the same snapshots alike.
START_TEST(test_priority_state_round_trips)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 200, 5, 8, 120);
	const JobFields j3 = job(3, 300, 20, 2, 60);
	CampaignCore core = make_core("policy=faircamp");
	CoreFeeder feeder;
	feeder.reconcile(core, {running(j1, 1), pending(j2)}, {kBatch}, 10);
	auto restored = load_priority_state(save_priority_state(core, feeder));
	ck_assert_msg(restored.ok(), "%s", restored.ok() ? "" : restored.error().c_str());
	PriorityState &copy = restored.value();
	ck_assert_uint_eq(copy.feeder.tracked(), feeder.tracked());
	const std::vector<ObservedJob> later = {finished(j1, 1, 30), pending(j2), pending(j3)};
	feeder.reconcile(core, later, {kBatch}, 40);
	FeedCounts counts = copy.feeder.reconcile(copy.core, later, {kBatch}, 40);
	ck_assert_uint_eq(counts.submitted, 1); // j3 only: j1 and j2 were remembered
	expect_same_ranking(core, copy.core, 40);
}
END_TEST

START_TEST(test_priority_state_bad_input_names_the_culprit)
{
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {pending(job(7, 100, 0, 4, 60))}, {kBatch}, 1);
	const std::string good = save_priority_state(core, feeder);
	struct Case {
		std::string text, culprit;
	};
	std::string wrong_version = good, bad_row = good;
	wrong_version.replace(wrong_version.find("\"version\":1"), 11, "\"version\":9");
	bad_row.replace(bad_row.find("[7,0,"), 5, "[0,0,");
	const Case cases[] = {{"", "priority state: line"},
	                      {"{\"format\":\"x\"}", "format"},
	                      {wrong_version, "version"},
	                      {good.substr(0, good.size() / 2), "priority state: line"},
	                      {bad_row, "feeder.jobs[0]"}};
	for (const Case &bad : cases) {
		auto loaded = load_priority_state(bad.text);
		ck_assert(!loaded.ok());
		ck_assert_msg(loaded.error().find(bad.culprit) != std::string::npos,
		              "error '%s' does not name '%s'", loaded.error().c_str(),
		              bad.culprit.c_str());
	}
}
END_TEST

// A job array's pending meta record stands for its tasks: the listing counts them one by one,
// and a task split off to run moves one from pending to running.
START_TEST(test_feeder_counts_array_tasks_individually)
{
	JobFields meta = job(10, 100, 0, 1, 60);
	meta.array_tasks = 500;
	CampaignCore core = make_core("policy=ostrich");
	CoreFeeder feeder;
	feeder.reconcile(core, {pending(meta)}, {kBatch}, 1);
	Ranking ranking = core.rank(1);
	ck_assert_uint_eq(ranking.campaigns.size(), 1);
	ck_assert_uint_eq(ranking.campaigns[0].jobs_pending, 500);
	// 500 tasks x 60 s, less 1 s of V at the 8 CPUs of the partition (eligible at 0, ranked at
	// 1)
	expect_near(ranking.campaigns[0].remaining_work_cpu_s, 500 * 60 - 8, "work of 500 tasks");
	meta.array_tasks = 499;
	const JobFields task = job(11, 100, 0, 1, 60); // the split-off task record, running
	FeedCounts counts = feeder.reconcile(core, {pending(meta), running(task, 2)}, {kBatch}, 3);
	ck_assert_uint_eq(counts.errors, 0);
	ranking = core.rank(3);
	ck_assert_uint_eq(ranking.campaigns.size(), 1);
	ck_assert_uint_eq(ranking.campaigns[0].jobs_pending, 499);
	ck_assert_uint_eq(ranking.campaigns[0].jobs_running, 1);
}
END_TEST

// The thesis's rule at threshold 0: a job joins iff submitted before the campaign's last job
// completed. In one snapshot, user 100's job 1 ends at 10 while job 2 is submitted at 10: job 2
// opens a new campaign (fed submissions first, it joined job 1's).
START_TEST(test_feeder_submission_in_the_second_a_campaign_ends)
{
	const JobFields j1 = job(1, 100, 0, 4, 60), j2 = job(2, 100, 10, 4, 60);
	const JobFields other = job(9, 200, 0, 4, 60); // keeps job 1's campaign listed
	CampaignCore core = make_core("policy=ostrich,threshold_s=0");
	CoreFeeder feeder;
	feeder.reconcile(core, {running(j1, 1), pending(other)}, {kBatch}, 6);
	FeedCounts counts = feeder.reconcile(
	    core, {finished(j1, 1, 10), pending(j2), pending(other)}, {kBatch}, 11);
	ck_assert_msg(counts.errors == 0, "%s", counts.first_error.c_str());
	const Ranking ranking = core.rank(11);
	ck_assert_msg(explain(ranking, 2).campaign_id != 1,
	              "job 2 has a campaign of its own, not job 1's (%llu)",
	              (unsigned long long)explain(ranking, 2).campaign_id);
}
END_TEST

// Job 3, submitted at 5 with a dependency on job 1 and released by Slurm in the second job 1
// ended, was submitted before that end: it stays in job 1's campaign (a workflow stays one
// campaign), where ordering the end first would give it a campaign of its own.
START_TEST(test_feeder_job_released_by_a_dependency_joins_its_campaign)
{
	const JobFields j1 = job(1, 100, 0, 4, 60);
	JobFields j3 = job(3, 100, 5, 4, 60);
	j3.eligible_s.reset(); // unmet dependency
	CampaignCore core = make_core("policy=ostrich,threshold_s=0");
	CoreFeeder feeder;
	feeder.reconcile(core, {running(j1, 1), pending(j3)}, {kBatch}, 6);
	JobFields released = j3;
	released.eligible_s = 10;
	FeedCounts counts =
	    feeder.reconcile(core, {finished(j1, 1, 10), pending(released)}, {kBatch}, 11);
	ck_assert_msg(counts.errors == 0, "%s", counts.first_error.c_str());
	ck_assert_uint_eq(explain(core.rank(11), 3).campaign_id, 1);
}
END_TEST

// Slurm often releases a dependent job a second or more after its predecessor ends: with
// threshold_s=0 it then opens a campaign of its own; a threshold over that delay keeps the
// workflow one campaign (the man page's advice).
START_TEST(test_feeder_job_released_after_the_end_needs_a_threshold)
{
	for (const int64_t threshold : {0, 60}) {
		const JobFields j1 = job(1, 100, 0, 4, 60);
		JobFields j3 = job(3, 100, 5, 4, 60);
		j3.eligible_s.reset();
		CampaignCore core =
		    make_core("policy=ostrich,threshold_s=" + std::to_string(threshold));
		CoreFeeder feeder;
		feeder.reconcile(core, {running(j1, 1), pending(j3)}, {kBatch}, 6);
		feeder.reconcile(core, {finished(j1, 1, 10), pending(j3)}, {kBatch}, 11);
		JobFields released = j3;
		released.eligible_s = 12;
		feeder.reconcile(core, {finished(j1, 1, 10), pending(released)}, {kBatch}, 13);
		const uint64_t campaign = explain(core.rank(13), 3).campaign_id;
		ck_assert_msg(threshold == 0 ? campaign != 1 : campaign == 1,
		              "threshold %lld: job 3 in campaign %llu", (long long)threshold,
		              (unsigned long long)campaign);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("core_feeder");
	TCase *tc = tcase_create("feeder");
	tcase_add_test(tc, test_feeder_equals_direct_events);
	tcase_add_test(tc, test_feeder_replays_a_job_seen_only_finished);
	tcase_add_test(tc, test_feeder_vanished_and_cancelled_jobs_leave_the_ranking);
	tcase_add_test(tc, test_feeder_remembers_finished_jobs_after_they_leave_the_table);
	tcase_add_test(tc, test_feeder_hold_release_and_requeue);
	tcase_add_test(tc, test_feeder_limit_update_changes_the_key);
	tcase_add_test(tc, test_feeder_job_finished_between_passes_with_a_change_is_not_updated);
	tcase_add_test(tc, test_feeder_counts_array_tasks_individually);
	tcase_add_test(tc, test_feeder_submission_in_the_second_a_campaign_ends);
	tcase_add_test(tc, test_feeder_job_released_by_a_dependency_joins_its_campaign);
	tcase_add_test(tc, test_feeder_job_released_after_the_end_needs_a_threshold);
	tcase_add_test(tc, test_priority_state_round_trips);
	tcase_add_test(tc, test_priority_state_bad_input_names_the_culprit);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
