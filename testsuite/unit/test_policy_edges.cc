// Edge cases of the core: zero-length jobs, INFINITE/unset limits (doc/design.md §3 mapping), huge
// domains and year-long limits (no overflow of time x CPUs), capacity dropping to zero,
// updates after submit, cancelled campaigns, actual-runtime correction, resizing.
#include "core_fixtures.h"

using namespace campaign_test;

START_TEST(test_edge_zero_length_jobs_finish_at_once_in_v)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 0), 0));
	ok(core.submit(job(2, 2, 0, 1, 8), 0));
	const Ranking ranking = core.rank(0);
	expect_near(explain(ranking, 1).key, 0, "zero work: C~ = s~");
	expect_near(explain(ranking, 2).key, 2, "alone in V: 8 CPU-s on 4 CPUs");
	ok(core.start(1, 0));
	ok(core.end(1, 0));
	ck_assert_uint_eq(core.rank(1).campaigns.size(), 1); // user 1's campaign retired
}
END_TEST

// Slurm gives a job without --time its partition's DefaultTime, else MaxTime (job_mgr.c); the core
// counts an unset or INFINITE limit the same way, then limit_cap_s.
START_TEST(test_edge_infinite_and_unset_limits_map_to_partition_times)
{
	CampaignCore core = make_core("policy=ostrich,limit_cap_s=1000");
	ok(core.capacity({"both", 10, 300, 100}, 0));
	ok(core.capacity({"max", 10, 300, std::nullopt}, 0));
	ok(core.capacity({"none", 10, std::nullopt, std::nullopt}, 0));
	JobFields a = job(1, 1, 0, 2, 0, "both");
	a.limit = TimeLimit::infinite();
	JobFields b = job(2, 2, 0, 2, 0, "max");
	b.limit = TimeLimit::unset();
	JobFields c = job(3, 3, 0, 2, 0, "none");
	c.limit = TimeLimit::infinite();
	for (const JobFields &fields : {a, b, c})
		ok(core.submit(fields, 0));
	const Ranking ranking = core.rank(0);
	expect_near(explain(ranking, 1).remaining_work_cpu_s, 200, "DefaultTime x 2 CPUs");
	expect_near(explain(ranking, 2).remaining_work_cpu_s, 600, "MaxTime x 2 CPUs");
	expect_near(explain(ranking, 3).remaining_work_cpu_s, 2000, "limit_cap_s x 2 CPUs");
}
END_TEST

// The one mapping both plugins use (sched/campaign's plan lengths call it too).
START_TEST(test_limit_mapping_default_time_then_max_time_then_cap)
{
	const PartitionCapacity both{"p", 8, 300, 100};
	const PartitionCapacity max_only{"p", 8, 300, std::nullopt};
	const PartitionCapacity default_only{"p", 8, std::nullopt, 100};
	const PartitionCapacity neither{"p", 8, std::nullopt, std::nullopt};
	for (const TimeLimit limit : {TimeLimit::unset(), TimeLimit::infinite()}) {
		ck_assert_int_eq(resolve_limit_s(limit, &both, 1000), 100);
		ck_assert_int_eq(resolve_limit_s(limit, &max_only, 1000), 300);
		ck_assert_int_eq(resolve_limit_s(limit, &default_only, 1000), 100);
		ck_assert_int_eq(resolve_limit_s(limit, &neither, 1000), 1000);
		ck_assert_int_eq(resolve_limit_s(limit, nullptr, 1000), 1000);
	}
	ck_assert_int_eq(resolve_limit_s(TimeLimit::of_seconds(42), &both, 1000), 42);
	ck_assert_int_eq(resolve_limit_s(TimeLimit::of_seconds(-5), &both, 1000), 0);
	ck_assert_int_eq(make_core("policy=ostrich").config().limit_cap_s, kDefaultLimitCapS);
}
END_TEST

START_TEST(test_edge_million_cpu_domain_and_year_limits_do_not_overflow)
{
	CampaignCore core = make_core("policy=ostrich");
	const int64_t ten_years_s = 10LL * 366 * 86400;
	ok(core.capacity({"big", 1000000, std::nullopt, std::nullopt}, 0));
	for (uint32_t id = 1; id <= 50; id++) {
		JobFields fields = job(id, id % 5, 0, 1000000, ten_years_s, "big");
		fields.array_tasks = 1000;
		ok(core.submit(fields, 0));
	}
	const Ranking ranking = core.rank(1);
	for (const JobExplanation &explanation : ranking.explanations) {
		ck_assert(std::isfinite(explanation.key));
		ck_assert(explanation.key > 0);
		ck_assert(explanation.remaining_work_cpu_s > 3e18); // 10 jobs x 1000 x 1e6 x 3e8
	}
	// Capacity lost: projections use the last capacity; the listing stays in range.
	ok(core.capacity({"big", 0, std::nullopt, std::nullopt}, 2));
	for (const CampaignRow &row : core.rank(3).campaigns)
		ck_assert(*row.virtual_finish_s > 0);
}
END_TEST

START_TEST(test_edge_capacity_dropping_to_zero_freezes_v)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 40), 0));
	ok(core.capacity({"p", 0, std::nullopt, std::nullopt}, 5)); // 20 CPU-s served by t=5
	Ranking frozen = core.rank(100);
	expect_near(explain(frozen, 1).remaining_work_cpu_s, 20, "no service at zero capacity");
	ck_assert(std::isfinite(explain(frozen, 1).key)); // projected with the last capacity
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 100));
	expect_near(explain(core.rank(102), 1).remaining_work_cpu_s, 12, "service resumes");
}
END_TEST

START_TEST(test_edge_updates_after_submit_change_work_and_domain)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.capacity({"q", 8, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 2, 10), 0));
	JobUpdate longer;
	longer.job_id = 1;
	longer.limit = TimeLimit::of_seconds(30);
	ok(core.update(longer, 0));
	expect_near(explain(core.rank(0), 1).remaining_work_cpu_s, 60, "limit update");
	JobUpdate wider;
	wider.job_id = 1;
	wider.cpus = 4;
	ok(core.update(wider, 0));
	expect_near(explain(core.rank(0), 1).remaining_work_cpu_s, 120, "size update");
	JobUpdate move;
	move.job_id = 1;
	move.partitions = std::vector<std::string>{"q"};
	ok(core.update(move, 0));
	const Ranking moved = core.rank(0);
	expect_near(explain(moved, 1).key, 15, "120 CPU-s alone on q's 8 CPUs");
	ck_assert_string_eq(moved.campaigns.back().domain, "q");
	ck_assert(!core.update(JobUpdate{.job_id = 5}, 0).ok());
}
END_TEST

START_TEST(test_edge_cancelled_campaign_leaves_v)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 6, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 6, 8), 0)); // W = 48
	ok(core.submit(job(2, 2, 0, 6, 3), 0)); // W = 18
	expect_near(explain(core.rank(0), 1).key, 16, "two users share");
	ok(core.cancel(2, 0));
	const Ranking alone = core.rank(0);
	expect_near(explain(alone, 1).key, 8, "user 1 alone after the cancel");
	ck_assert_uint_eq(alone.campaigns.size(), 1);
	ck_assert(!core.knows(2));
}
END_TEST

START_TEST(test_edge_actual_runtime_corrects_virtual_work)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 2, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 1, 100), 0));
	ok(core.submit(job(2, 1, 0, 1, 100), 0)); // W = 200 in V
	ok(core.start(1, 0));
	ok(core.end(1, 10)); // ran 10 of 100: 90 CPU-s return; 20 served by t=10
	expect_near(explain(core.rank(10), 2).remaining_work_cpu_s, 90, "200 - 20 - 90");
}
END_TEST

START_TEST(test_edge_resizing_runs_v_at_busy_cpus_with_stall_guard)
{
	CampaignCore core = make_core("policy=ostrich,resizing=yes");
	ok(core.capacity({"p", 10, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 2, 100), 0));
	ok(core.submit(job(2, 1, 0, 2, 100), 0)); // W = 400
	// Nothing runs in R: the stall guard serves V at full capacity (10 CPU-s per second).
	expect_near(explain(core.rank(10), 2).remaining_work_cpu_s, 300, "stall guard");
	ok(core.start(1, 10)); // R uses 2 CPUs: V serves at 2 CPU-s per second
	expect_near(explain(core.rank(20), 2).remaining_work_cpu_s, 280, "resized");
}
END_TEST

START_TEST(test_edge_weighted_shares_follow_unit_weights)
{
	CampaignCore core = make_core("policy=ostrich,shares=weighted");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.set_user_weight(1, 3, 0));
	ok(core.submit(job(1, 1, 0, 1, 30), 0)); // 30 CPU-s at 3 of 4 CPUs: C~ = 10
	ok(core.submit(job(2, 2, 0, 1, 30), 0)); // 30 CPU-s at 1 of 4 CPUs: C~ = 30
	const Ranking ranking = core.rank(0);
	expect_near(explain(ranking, 1).key, 10, "weight 3");
	expect_near(explain(ranking, 2).key, 30, "weight 1");
	ck_assert(!core.set_user_weight(1, 0, 0).ok());
	ck_assert(!core.set_account_weight("a", 2, 0).ok()); // unit=user
}
END_TEST

int main()
{
	Suite *suite = suite_create("core_edges");
	TCase *tc = tcase_create("edges");
	tcase_add_test(tc, test_edge_zero_length_jobs_finish_at_once_in_v);
	tcase_add_test(tc, test_edge_infinite_and_unset_limits_map_to_partition_times);
	tcase_add_test(tc, test_limit_mapping_default_time_then_max_time_then_cap);
	tcase_add_test(tc, test_edge_million_cpu_domain_and_year_limits_do_not_overflow);
	tcase_add_test(tc, test_edge_capacity_dropping_to_zero_freezes_v);
	tcase_add_test(tc, test_edge_updates_after_submit_change_work_and_domain);
	tcase_add_test(tc, test_edge_cancelled_campaign_leaves_v);
	tcase_add_test(tc, test_edge_actual_runtime_corrects_virtual_work);
	tcase_add_test(tc, test_edge_resizing_runs_v_at_busy_cpus_with_stall_guard);
	tcase_add_test(tc, test_edge_weighted_shares_follow_unit_weights);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
