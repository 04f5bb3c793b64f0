// PendingIds against a plain set: after random insertions, erasures and clears, both list the
// same ids, each insertion answers the same, and the ids no refill listed again are dropped
// once they outnumber the listed ones (the map stays bounded over a long run).
#include "check_main.h"
#include "plan/pending_ids.h"
#include "plan_random.h"

#include <algorithm>
#include <unordered_set>
#include <vector>

using namespace campaign::plan;

namespace
{

enum class Step { insert, erase, clear };

// PendingIds beside a plain set: each step applied to both, their answers compared.
struct Twin {
	PendingIds ids;
	std::unordered_set<JobId> plain;
	uint64_t seed = 0;

	void apply(Step step, JobId id, int round)
	{
		if (step == Step::insert) {
			ck_assert_msg(ids.insert(id) == plain.insert(id).second,
			              "seed %lu round %d: insert %lu",
			              static_cast<unsigned long>(seed), round,
			              static_cast<unsigned long>(id));
		} else if (step == Step::erase) {
			ids.erase(id);
			plain.erase(id);
		} else {
			ids.clear();
			plain.clear();
		}
		ck_assert_uint_eq(ids.size(), plain.size());
	}
	void check_contains(JobId id, int round) const
	{
		ck_assert_msg(ids.contains(id) == plain.contains(id),
		              "seed %lu round %d: contains %lu", static_cast<unsigned long>(seed),
		              round, static_cast<unsigned long>(id));
	}
};

} // namespace

START_TEST(test_pending_ids_answer_as_a_plain_set)
{
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		plan_random::Random random(seed);
		Twin twin;
		twin.seed = seed;
		for (int round = 1; round <= 600; ++round) {
			const int64_t what = random.between(0, 9);
			const auto id = static_cast<JobId>(random.between(1, 80));
			twin.apply(what <= 5   ? Step::insert
			           : what <= 8 ? Step::erase
			                       : Step::clear,
			           id, round);
			for (JobId any = 1; any <= 80; ++any)
				twin.check_contains(any, round);
		}
	}
}
END_TEST

// The flat table's deletion moves later entries of a probe run back into the hole: with many
// ids per slot run (consecutive ids, ids far apart, growth and wrap-around at the table's end),
// every answer still matches a plain set.
START_TEST(test_pending_ids_deep_tables_answer_as_a_plain_set)
{
	for (uint64_t seed = 1; seed <= 40; ++seed) {
		plan_random::Random random(seed);
		Twin twin;
		twin.seed = seed;
		std::vector<JobId> known;
		for (int round = 1; round <= 5000; ++round) {
			const int64_t what = random.between(0, 99);
			JobId id = 0;
			if (!known.empty() && random.between(0, 1) == 0)
				id = known[static_cast<size_t>(
				    random.between(0, static_cast<int64_t>(known.size()) - 1))];
			else if (random.between(0, 1) == 0)
				id =
				    static_cast<JobId>(random.between(1, 3000)); // runs of near ids
			else
				id = static_cast<JobId>(random.between(1, int64_t{1} << 40));
			const Step step = what < 60   ? Step::insert
			                  : what < 98 ? Step::erase
			                              : Step::clear;
			twin.apply(step, id, round);
			if (step == Step::insert)
				known.push_back(id);
			if (round % 250 == 0)
				for (JobId any : known)
					twin.check_contains(any, round);
		}
	}
}
END_TEST

// A queue of 10 jobs made afresh 1,000 times with new ids each time: the ids of earlier plans
// are dropped, not kept for the whole run.
START_TEST(test_pending_ids_drop_ids_no_refill_lists)
{
	PendingIds ids;
	JobId next = 1;
	size_t most = 0;
	for (int plan = 0; plan < 1000; ++plan) {
		ids.clear();
		for (int job = 0; job < 10; ++job)
			ck_assert(ids.insert(next++));
		most = std::max(most, ids.kept());
	}
	ck_assert_uint_eq(ids.size(), 10);
	ck_assert_uint_le(most, 2 * 10 + 1024 + 10);
	// And a refill of the same jobs keeps their nodes: nothing grows.
	const size_t before = ids.kept();
	for (int plan = 0; plan < 100; ++plan) {
		ids.clear();
		for (JobId job = next - 10; job < next; ++job)
			ck_assert(ids.insert(job));
	}
	ck_assert_uint_eq(ids.kept(), before);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_pending_ids");
	TCase *tc = tcase_create("ids");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pending_ids_answer_as_a_plain_set);
	tcase_add_test(tc, test_pending_ids_deep_tables_answer_as_a_plain_set);
	tcase_add_test(tc, test_pending_ids_drop_ids_no_refill_lists);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
