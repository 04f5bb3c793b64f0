// The total order of pending jobs (doc/design.md §3 Ordering): partition tier, QOS above default,
// campaign key, nice, intra-campaign LPT/SPT/FIFO, submit time, job id; FIFO policy; held and
// admin-priority jobs left out; the order is total and repeatable.
#include "core_fixtures.h"

using namespace campaign_test;

namespace
{

CampaignCore core_with_one_partition(const std::string &parameters)
{
	CampaignCore core = make_core(parameters);
	ok(core.capacity({"p", 10, std::nullopt, std::nullopt}, 0));
	return core;
}

} // namespace

START_TEST(test_order_intra_campaign_lpt_spt_fifo)
{
	const std::vector<std::pair<std::string, std::vector<uint32_t>>> cases = {
	    {"intra=lpt", {2, 3, 1}}, {"intra=spt", {1, 3, 2}}, {"intra=fifo", {1, 2, 3}}};
	for (const auto &[parameters, expected] : cases) {
		CampaignCore core = core_with_one_partition(parameters);
		ok(core.submit(job(1, 1, 0, 1, 10), 0));
		ok(core.submit(job(2, 1, 1, 1, 30), 1));
		ok(core.submit(job(3, 1, 2, 1, 20), 2));
		ck_assert_msg(core.rank(2).order == expected, "%s", parameters.c_str());
	}
}
END_TEST

START_TEST(test_order_ties_by_submit_time_then_job_id)
{
	CampaignCore core = core_with_one_partition("intra=lpt");
	ok(core.submit(job(9, 1, 0, 1, 10), 5));
	ok(core.submit(job(4, 1, 0, 1, 10), 5));
	JobFields later = job(2, 1, 3, 1, 10);
	ok(core.submit(later, 5));
	const std::vector<uint32_t> expected = {4, 9, 2};
	ck_assert(core.rank(5).order == expected);
}
END_TEST

START_TEST(test_order_tier_then_qos_then_campaign_key)
{
	CampaignCore core = core_with_one_partition("policy=ostrich");
	ok(core.submit(job(1, 1, 0, 1, 10), 0));    // small campaign: best key
	ok(core.submit(job(2, 2, 0, 10, 1000), 0)); // big campaign
	JobFields qos = job(3, 3, 0, 10, 5000);
	qos.qos_priority = 100;
	ok(core.submit(qos, 0));
	JobFields tier = job(4, 4, 0, 10, 9000);
	tier.partition_tier = 2;
	ok(core.submit(tier, 0));
	const std::vector<uint32_t> expected = {4, 3, 1, 2};
	ck_assert(core.rank(0).order == expected);
}
END_TEST

START_TEST(test_order_nice_moves_job_within_its_campaign_only)
{
	CampaignCore core = core_with_one_partition("policy=ostrich");
	ok(core.submit(job(1, 1, 0, 1, 10), 0));
	JobFields nice = job(2, 1, 0, 1, 50);
	nice.nice = 100;
	ok(core.submit(nice, 0));
	ok(core.submit(job(3, 2, 0, 10, 1000), 0));
	const std::vector<uint32_t> expected = {1, 2, 3}; // LPT would put 2 first
	ck_assert(core.rank(0).order == expected);
}
END_TEST

START_TEST(test_order_fifo_policy_is_submit_order)
{
	CampaignCore core = core_with_one_partition("policy=fifo");
	ok(core.submit(job(5, 1, 30, 1, 10), 30));
	ok(core.submit(job(6, 2, 10, 1, 99999), 30));
	ok(core.submit(job(7, 2, 20, 1, 1), 30));
	const std::vector<uint32_t> expected = {6, 7, 5};
	ck_assert(core.rank(30).order == expected);
}
END_TEST

START_TEST(test_order_leaves_out_held_admin_and_running_jobs)
{
	CampaignCore core = core_with_one_partition("policy=ostrich");
	ok(core.submit(job(1, 1, 0, 1, 10), 0));
	JobFields admin = job(2, 1, 0, 1, 10);
	admin.admin_priority = true;
	ok(core.submit(admin, 0));
	JobFields held = job(3, 1, 0, 1, 10);
	held.held = true;
	ok(core.submit(held, 0));
	ok(core.submit(job(4, 1, 0, 1, 10), 0));
	ok(core.start(4, 1));
	const std::vector<uint32_t> expected = {1};
	ck_assert(core.rank(1).order == expected);
	ck_assert(!core.start(77, 1).ok());
	ck_assert(core.start(77, 1).error().find("77") != std::string::npos);
}
END_TEST

START_TEST(test_order_is_total_and_repeatable_random)
{
	std::mt19937_64 random(5);
	for (const std::string policy : {"ostrich", "faircamp", "fifo"}) {
		CampaignCore core = make_core("policy=" + policy);
		ok(core.capacity({"a", 16, std::nullopt, std::nullopt}, 0));
		ok(core.capacity({"b", 4, std::nullopt, std::nullopt}, 0));
		for (uint32_t id = 1; id <= 400; id++) {
			JobFields fields =
			    job(id, static_cast<uint32_t>(random() % 7), id / 10,
			        1 + static_cast<uint32_t>(random() % 4),
			        1 + static_cast<int64_t>(random() % 50), random() % 2 ? "a" : "b");
			fields.nice = static_cast<int32_t>(random() % 3) - 1;
			ok(core.submit(fields, id / 10));
		}
		const Ranking first = core.rank(40);
		const Ranking second = core.rank(40);
		ck_assert(first.order == second.order);
		std::vector<uint32_t> sorted = first.order;
		std::sort(sorted.begin(), sorted.end());
		ck_assert(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
		ck_assert_uint_eq(sorted.size(), 400);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("job_order");
	TCase *tc = tcase_create("order");
	tcase_add_test(tc, test_order_intra_campaign_lpt_spt_fifo);
	tcase_add_test(tc, test_order_ties_by_submit_time_then_job_id);
	tcase_add_test(tc, test_order_tier_then_qos_then_campaign_key);
	tcase_add_test(tc, test_order_nice_moves_job_within_its_campaign_only);
	tcase_add_test(tc, test_order_fifo_policy_is_submit_order);
	tcase_add_test(tc, test_order_leaves_out_held_admin_and_running_jobs);
	tcase_add_test(tc, test_order_is_total_and_repeatable_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
