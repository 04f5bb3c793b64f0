// starve_stretch=K: a pending job whose stretch so far (1 + wait over its expected run time, the
// core's RuntimePredictor, at least 10 s) is at least K ranks first, the most stretched first, at
// most starve_campaigns of them; with starve_stretch_scale=queue_median the threshold is K times
// the pending jobs' median stretch. Off, and below the threshold, the policy's order stands.
// No run has ended in these cases, so every prediction is the job's limit.
#include "core_fixtures.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

// 4 CPUs, nothing started. User 1 (one campaign at t = 0): job 1, 4 CPUs x 100,000 s, and job 3,
// 1 CPU x 100 s: a large campaign, late in V. User 2: job 2, 1 CPU x 100,000 s at t = 100, done
// sooner in V. Job 3's stretch at t is 1 + t / 100: K = 10 is reached at t = 900.
CampaignCore backlog(const std::string &parameters)
{
	return core_with_queue(
	    parameters, 4,
	    {job(1, 1, 0, 4, 100000), job(3, 1, 0, 1, 100), job(2, 2, 100, 1, 100000)});
}

// Two more short jobs of user 2 at t = 100 (1 CPU x 100 s): the queue's median stretch is then a
// short job's, about job 3's.
CampaignCore backlog_of_short_jobs(const std::string &parameters)
{
	CampaignCore core = backlog(parameters);
	ok(core.submit(job(4, 2, 100, 1, 100), 100));
	ok(core.submit(job(5, 2, 100, 1, 100), 100));
	return core;
}

size_t place_of(const std::vector<uint32_t> &order, uint32_t job_id)
{
	for (size_t index = 0; index < order.size(); index++)
		if (order[index] == job_id)
			return index;
	ck_abort_msg("job %u not ranked", job_id);
	return order.size();
}

} // namespace

START_TEST(test_off_keeps_the_order)
{
	const std::vector<uint32_t> order = backlog("policy=ostrich").rank(100000).order;
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_ne(order[0], 3); // the case below is a move, not the order itself
}
END_TEST

// K = 10: job 3 goes first from t = 900 (stretch 10), not before.
START_TEST(test_first_once_the_stretch_reaches_k)
{
	const std::string guard = "policy=ostrich,starve_stretch=10";
	const std::vector<uint32_t> plain = backlog("policy=ostrich").rank(899).order;
	ck_assert(backlog(guard).rank(899).order == plain);
	const std::vector<uint32_t> order = backlog(guard).rank(900).order;
	ck_assert_uint_eq(order.size(), 3);
	ck_assert_uint_eq(order[0], 3);
	// The others keep their order.
	ck_assert_uint_eq(place_of(plain, 1) < place_of(plain, 2),
	                  place_of(order, 1) < place_of(order, 2));
}
END_TEST

// The most stretched first; two places (starve_campaigns=2): jobs 4 and 5 (waited since t = 100,
// stretch 1 + (t - 100) / 100) come after job 3, by job id.
START_TEST(test_most_stretched_first)
{
	const std::vector<uint32_t> one =
	    backlog_of_short_jobs("policy=ostrich,starve_stretch=10").rank(5000).order;
	ck_assert_uint_eq(one[0], 3);
	const std::vector<uint32_t> two =
	    backlog_of_short_jobs("policy=ostrich,starve_stretch=10,starve_campaigns=2")
	        .rank(5000)
	        .order;
	ck_assert_uint_eq(two.size(), 5);
	ck_assert_uint_eq(two[0], 3);
	ck_assert_uint_eq(two[1], 4);
}
END_TEST

// queue_median: with three pending jobs, two long (stretch about 1.01) and job 3 (11 at t = 1000),
// the median is a long job's and K = 2 moves job 3; with the two more short jobs the median is
// about 10 and K = 2 moves none, where the same K taken as given moves job 3.
START_TEST(test_queue_median_follows_the_queue)
{
	const std::string relative =
	    "policy=ostrich,starve_stretch=2,starve_stretch_scale=queue_median";
	ck_assert_uint_eq(backlog(relative).rank(1000).order[0], 3);
	const std::vector<uint32_t> plain =
	    backlog_of_short_jobs("policy=ostrich").rank(1000).order;
	ck_assert(backlog_of_short_jobs(relative).rank(1000).order == plain);
	ck_assert_uint_eq(
	    backlog_of_short_jobs("policy=ostrich,starve_stretch=2").rank(1000).order[0], 3);
	ck_assert_uint_ne(plain[0], 3);
}
END_TEST

// Held jobs are not guarded; the policy does not matter (FIFO too).
START_TEST(test_held_jobs_stay_and_any_policy)
{
	CampaignCore held = backlog("policy=ostrich,starve_stretch=10");
	ok(held.hold(3, 500));
	for (const uint32_t job_id : held.rank(5000).order)
		ck_assert_uint_ne(job_id, 3);
	ck_assert_uint_eq(backlog("policy=fifo,starve_stretch=10").rank(5000).order[0], 3);
	ck_assert_uint_ne(backlog("policy=fifo").rank(5000).order[0], 3);
}
END_TEST

// A head of max_jobs keeps its length: the guarded job takes the first place.
START_TEST(test_keeps_the_head_length)
{
	const Ranking head = backlog("policy=ostrich,starve_stretch=10")
	                         .rank(5000, CampaignCore::RankScope::jobs_only, 1);
	ck_assert_uint_eq(head.order.size(), 1);
	ck_assert_uint_eq(head.order[0], 3);
}
END_TEST

// Bad values are refused, naming the key; good ones are read and make the core move jobs.
START_TEST(test_bad_values_name_the_key)
{
	for (const char *text : {"starve_stretch=-1", "starve_stretch=x",
	                         "starve_stretch_scale=mean", "starve_stretch_scale="}) {
		auto core = CampaignCore::create(text);
		ck_assert_msg(!core.ok(), "%s accepted", text);
		const std::string key = std::string(text).substr(0, std::string(text).find('='));
		ck_assert_msg(core.error().find(key) != std::string::npos, "%s: %s", text,
		              core.error().c_str());
	}
	const CampaignCore core = make_core("starve_stretch=10,starve_stretch_scale=queue_median");
	ck_assert(core.config().starve_stretch == 10);
	ck_assert(core.config().starve_stretch_of_median);
	ck_assert(core.config().moves_jobs());
	ck_assert(!make_core("starve_stretch=0").config().moves_jobs());
	ck_assert(!make_core("").config().starve_stretch_of_median);
}
END_TEST

// A state saved before these keys existed (its parameters lack them) loads with them off.
START_TEST(test_state_without_the_keys_loads)
{
	CampaignCore saved = backlog("policy=ostrich,starve_fair_factor=3");
	std::string json = CoreStateCodec::save(saved);
	for (const std::string key : {",starve_stretch=0", ",starve_stretch_scale=run"}) {
		const size_t at = json.find(key);
		ck_assert_msg(at != std::string::npos, "%s not in the state", key.c_str());
		json.erase(at, key.size());
	}
	auto loaded = CoreStateCodec::load(json);
	ck_assert_msg(loaded.ok(), "%s", loaded.ok() ? "" : loaded.error().c_str());
	ck_assert(loaded.value().config().starve_stretch == 0);
	ck_assert(loaded.value().config().starve_fair_factor == 3);
	ck_assert(loaded.value().rank(5000).order == saved.rank(5000).order);
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_stretch_guard");
	TCase *tc = tcase_create("stretch_guard");
	tcase_add_test(tc, test_off_keeps_the_order);
	tcase_add_test(tc, test_first_once_the_stretch_reaches_k);
	tcase_add_test(tc, test_most_stretched_first);
	tcase_add_test(tc, test_queue_median_follows_the_queue);
	tcase_add_test(tc, test_held_jobs_stay_and_any_policy);
	tcase_add_test(tc, test_keeps_the_head_length);
	tcase_add_test(tc, test_bad_values_name_the_key);
	tcase_add_test(tc, test_state_without_the_keys_loads);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
