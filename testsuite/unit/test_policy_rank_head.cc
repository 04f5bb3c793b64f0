// The core's ranking from its order index: a head of the order is the whole order's prefix, an
// index kept through any event sequence ranks as one built afresh (a restored core), and
// rank_as_last lists jobs that arrived since the last ranking below every ranked job.
#include "core_random.h"
#include "state/core_state_json.h"

using namespace campaign_test;

namespace
{

void expect_same_order(const Ranking &a, const Ranking &b, const char *what)
{
	ck_assert_msg(a.error.empty() && b.error.empty(), "%s: %s %s", what, a.error.c_str(),
	              b.error.c_str());
	ck_assert_msg(a.order == b.order, "%s: orders differ (%zu and %zu jobs)", what,
	              a.order.size(), b.order.size());
	for (size_t i = 0; i < a.explanations.size(); i++) {
		ck_assert_int_eq(a.explanations[i].campaign_id, b.explanations[i].campaign_id);
		ck_assert(a.explanations[i].key == b.explanations[i].key);
		ck_assert(a.explanations[i].may_start == b.explanations[i].may_start);
	}
}

// Updates the random events leave out: the fields that order jobs inside a campaign.
void random_order_update(CampaignCore &core, std::mt19937_64 &random, uint32_t jobs, int64_t now_s)
{
	JobUpdate update;
	update.job_id = 1 + static_cast<uint32_t>(random() % jobs);
	switch (random() % 4) {
	case 0:
		update.nice = static_cast<int32_t>(random() % 5) - 2;
		break;
	case 1:
		update.qos_priority = static_cast<uint32_t>(random() % 3);
		break;
	case 2:
		update.partition_tier = static_cast<uint32_t>(random() % 2);
		break;
	default:
		update.admin_priority = random() % 2 == 0;
		break;
	}
	(void)core.update(update, now_s);
}

} // namespace

START_TEST(test_heads_are_prefixes_and_a_kept_index_ranks_as_a_fresh_one)
{
	for (const char *parameters :
	     {"policy=ostrich", "policy=fifo", "policy=faircamp", "policy=ostrich,intra=fifo",
	      "policy=ostrich,intra=spt,mode=strict"}) {
		for (uint64_t seed = 1; seed <= 25; seed++) {
			std::mt19937_64 random(seed);
			CampaignCore core = make_core(parameters);
			uint32_t next_job_id = 1;
			int64_t now_s = 0;
			for (int round = 0; round < 12; round++) {
				now_s = random_events(core, random, 15, now_s, next_job_id);
				random_order_update(core, random, next_job_id, now_s);
				auto restored = CoreStateCodec::load(CoreStateCodec::save(core));
				ck_assert_msg(restored.ok(), "%s",
				              restored.ok() ? "" : restored.error().c_str());
				const Ranking whole = core.rank(now_s);
				expect_same_order(restored.value().rank(now_s), whole,
				                  "kept index against a restored core");
				const size_t head = random() % (whole.order.size() + 2);
				const Ranking first =
				    core.rank(now_s, CampaignCore::RankScope::jobs_only, head);
				ck_assert_uint_eq(first.order.size(),
				                  std::min(head, whole.order.size()));
				ck_assert(std::equal(first.order.begin(), first.order.end(),
				                     whole.order.begin()));
				expect_same_order(core.rank_as_last(now_s), whole,
				                  "rank_as_last right after rank");
			}
		}
	}
}
END_TEST

// OStrich: user 2's first job outranks user 1's busy campaign, but not before the next ranking.
START_TEST(test_rank_as_last_lists_new_jobs_below_the_ranked_ones)
{
	CampaignCore core = make_core("policy=ostrich");
	ok(core.capacity({"p", 4, std::nullopt, std::nullopt}, 0));
	ok(core.submit(job(1, 1, 0, 4, 1000), 0));
	ok(core.submit(job(2, 1, 0, 4, 1000), 0));
	ok(core.submit(job(3, 1, 0, 4, 1000), 0));
	ck_assert(core.rank(0).order == (std::vector<uint32_t>{1, 2, 3}));
	ok(core.start(1, 1));
	ok(core.submit(job(4, 2, 2, 1, 10), 2));
	ok(core.submit(job(5, 3, 3, 1, 10), 3));
	ok(core.submit(job(6, 2, 3, 1, 10), 3));
	const Ranking as_last = core.rank_as_last(4);
	ck_assert(as_last.order == (std::vector<uint32_t>{2, 3, 4, 5, 6}));
	ck_assert_uint_eq(core.rank_as_last(4, 3).order.size(), 3);
	const Ranking fresh = core.rank(4);
	ck_assert_msg(fresh.order.front() != 2, "the light users come first once ranked");
	ck_assert(
	    std::is_permutation(fresh.order.begin(), fresh.order.end(), as_last.order.begin()));
	expect_same_order(core.rank_as_last(4), fresh, "rank_as_last after rank");
}
END_TEST

int main()
{
	Suite *suite = suite_create("policy_rank_head");
	TCase *tc = tcase_create("rank_head");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_heads_are_prefixes_and_a_kept_index_ranks_as_a_fresh_one);
	tcase_add_test(tc, test_rank_as_last_lists_new_jobs_below_the_ranked_ones);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
