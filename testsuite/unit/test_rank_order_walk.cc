// RankOrderIndex::Walk, campsim's filtered walk of the order: it lists exactly the jobs the
// filter wants (a job it passes over is one the planner said takes no place), in merge()'s
// order, late jobs all listed after; rest() is the least shape of the whole order from the job
// listed on, passed-over jobs included; and it refuses the orders it cannot filter.
#include "check_main.h"

#include "policy/rank_order_index.h"

#include <limits>
#include <optional>
#include <set>
#include <tuple>

using namespace campaign;

namespace
{

struct TestJob {
	uint32_t bucket = 0;
	JobShape shape;
	bool late = false;
};

// A fixed filter: whole buckets, else a longest limit per CPU count that does not grow.
class TestFilter final : public RankOrderIndex::Filter
{
public:
	std::set<uint32_t> all_buckets;
	std::vector<int64_t> longest_by_cpus; // index: CPUs
	bool lists_all(uint32_t bucket) const override { return all_buckets.count(bucket) != 0; }
	int64_t longest_limit_s(uint32_t cpus) const override { return longest_by_cpus.at(cpus); }
	bool wants(const TestJob &job) const
	{
		return job.late || lists_all(job.bucket) ||
		       job.shape.limit_s <= longest_limit_s(job.shape.cpus);
	}
};

RankOrderKey lpt_key(uint32_t job_id, int64_t limit_s, int64_t submit_s)
{
	RankOrderKey key;
	key.major = 7;
	key.nice_bits = 0x80000000u;
	key.intra = -static_cast<double>(limit_s);
	key.submit_s = submit_s;
	key.job_id = job_id;
	return key;
}

void check_random_walk(uint64_t seed)
{
	std::mt19937_64 random(seed);
	const uint32_t buckets = 1 + static_cast<uint32_t>(random() % 6);
	const uint32_t max_cpus = 1 + static_cast<uint32_t>(random() % 8);
	RankOrderIndex index;
	index.track_shapes();
	std::map<uint32_t, TestJob> jobs;
	const uint32_t count = static_cast<uint32_t>(random() % 80);
	for (uint32_t id = 1; id <= count; id++) {
		TestJob job;
		job.bucket = static_cast<uint32_t>(random() % buckets);
		job.shape = {1 + static_cast<uint32_t>(random() % max_cpus),
		             1 + static_cast<int64_t>(random() % 40)};
		jobs[id] = job;
		index.put(job.bucket, lpt_key(id, job.shape.limit_s, random() % 100), job.shape);
		if (id == count / 2)
			index.settle_late(); // the jobs after it stay late
	}
	for (uint32_t id = 1; id <= count; id++) {
		if (random() % 10 == 0) { // some leave the queue
			index.remove(id);
			jobs.erase(id);
		} else {
			jobs[id].late = id > count / 2;
		}
	}
	std::vector<uint32_t> bucket_rank(buckets);
	for (uint32_t bucket = 0; bucket < buckets; bucket++)
		bucket_rank[bucket] = bucket;
	std::shuffle(bucket_rank.begin(), bucket_rank.end(), random);
	std::vector<uint32_t> order;
	index.merge(bucket_rank, static_cast<size_t>(-1), order);
	ck_assert_uint_eq(order.size(), jobs.size());

	TestFilter filter;
	for (uint32_t bucket = 0; bucket < buckets; bucket++)
		if (random() % 3 == 0)
			filter.all_buckets.insert(bucket);
	filter.longest_by_cpus.assign(max_cpus + 1, 0);
	int64_t longest_s = static_cast<int64_t>(random() % 50);
	for (uint32_t cpus = 1; cpus <= max_cpus; cpus++) {
		filter.longest_by_cpus[cpus] = longest_s;
		longest_s -= static_cast<int64_t>(random() % 15);
		longest_s = std::max<int64_t>(longest_s, 0);
	}

	std::optional<RankOrderIndex::Walk> walk = index.walk(bucket_rank);
	ck_assert_msg(walk.has_value(), "seed %lu: no walk", static_cast<unsigned long>(seed));
	for (int pass = 0; pass < 2; pass++) { // the second after restart()
		size_t at = 0;
		while (std::optional<uint32_t> id = walk->next(filter)) {
			// Every job the walk passed over is one the filter does not want.
			for (; at < order.size() && order[at] != *id; at++)
				ck_assert_msg(
				    !filter.wants(jobs.at(order[at])),
				    "seed %lu: job %u passed over, but the filter wants it",
				    static_cast<unsigned long>(seed), order[at]);
			ck_assert_msg(at < order.size(), "seed %lu: job %u listed out of order",
			              static_cast<unsigned long>(seed), *id);
			ck_assert_msg(filter.wants(jobs.at(*id)), "seed %lu: job %u not wanted",
			              static_cast<unsigned long>(seed), *id);
			ck_assert_uint_eq(walk->bucket(), jobs.at(*id).bucket);
			JobShape least{std::numeric_limits<uint32_t>::max(),
			               std::numeric_limits<int64_t>::max()};
			for (size_t below = at; below < order.size(); below++) {
				least.cpus = std::min(least.cpus, jobs.at(order[below]).shape.cpus);
				least.limit_s =
				    std::min(least.limit_s, jobs.at(order[below]).shape.limit_s);
			}
			ck_assert_uint_eq(walk->rest().cpus, least.cpus);
			ck_assert_int_eq(walk->rest().limit_s, least.limit_s);
			at++;
		}
		for (; at < order.size(); at++)
			ck_assert_msg(
			    !filter.wants(jobs.at(order[at])),
			    "seed %lu: job %u left out at the end, but the filter wants it",
			    static_cast<unsigned long>(seed), order[at]);
		walk->restart();
	}
}

} // namespace

START_TEST(test_walk_lists_exactly_the_wanted_jobs_in_merge_order)
{
	for (uint64_t seed = 1; seed <= 2000; seed++)
		check_random_walk(seed);
}
END_TEST

// Orders the walk cannot filter by a lower_bound per CPU count: not tracked, a job not ordered
// longest first, two nice values in a bucket, two campaigns of one rank.
START_TEST(test_walk_refuses_orders_it_cannot_filter)
{
	RankOrderIndex untracked;
	untracked.put(0, lpt_key(1, 10, 0), {1, 10});
	ck_assert(!untracked.walk({0}).has_value());

	RankOrderIndex index;
	index.track_shapes();
	index.put(0, lpt_key(1, 10, 0), {1, 10});
	index.put(1, lpt_key(2, 20, 0), {2, 20});
	index.settle_late();
	ck_assert(index.walk({0, 1}).has_value());
	ck_assert(!index.walk({0, 0}).has_value()); // one rank for two campaigns
	RankOrderKey nicer = lpt_key(3, 30, 0);
	nicer.nice_bits += 1;
	index.put(1, nicer, {1, 30});
	index.settle_late();
	ck_assert(!index.walk({0, 1}).has_value());
	index.remove(3);
	ck_assert(index.walk({0, 1}).has_value());
	index.put(1, lpt_key(4, 30, 0), {1, 31}); // intra is not -limit: not longest first
	ck_assert(!index.walk({0, 1}).has_value());
	index.put(1, lpt_key(4, 31, 0), {1, 31});
	ck_assert(index.walk({0, 1}).has_value());
}
END_TEST

// merge() lists each campaign from a copy remade only when the campaign changed: on one index
// kept through random puts (new jobs, moves between campaigns, new keys), removals and
// settlements, every merge must still list the order the contents give (campaigns by rank,
// each by key; late jobs after, in arrival order), whole or cut at max_jobs.
START_TEST(test_merge_follows_every_change_of_a_kept_index)
{
	for (uint64_t seed = 1; seed <= 300; seed++) {
		std::mt19937_64 random(seed);
		const uint32_t buckets = 1 + static_cast<uint32_t>(random() % 6);
		struct Held {
			uint32_t bucket;
			RankOrderKey key;
			uint64_t late_seq; // 0: settled
		};
		std::map<uint32_t, Held> held;
		uint64_t next_seq = 1;
		RankOrderIndex index;
		std::vector<uint32_t> bucket_rank(buckets);
		for (uint32_t bucket = 0; bucket < buckets; bucket++)
			bucket_rank[bucket] = bucket;
		for (int step = 0; step < 200; step++) {
			const uint32_t id = 1 + static_cast<uint32_t>(random() % 40);
			switch (random() % 5) {
			case 0:
			case 1: { // a new job, or one moved to another campaign or key
				const uint32_t bucket = static_cast<uint32_t>(random() % buckets);
				const RankOrderKey key =
				    lpt_key(id, 1 + static_cast<int64_t>(random() % 30),
				            static_cast<int64_t>(random() % 100));
				index.put(bucket, key);
				auto found = held.find(id);
				if (found == held.end())
					held[id] = {bucket, key, next_seq++};
				else
					found->second = {bucket, key, found->second.late_seq};
				break;
			}
			case 2:
				index.remove(id);
				held.erase(id);
				break;
			case 3:
				index.settle_late();
				for (auto &[job, entry] : held)
					entry.late_seq = 0;
				break;
			default:
				std::shuffle(bucket_rank.begin(), bucket_rank.end(), random);
				break;
			}
			std::vector<std::tuple<uint32_t, RankOrderKey, uint32_t>> ranked;
			std::vector<std::pair<uint64_t, uint32_t>> late;
			for (const auto &[job, entry] : held)
				if (entry.late_seq != 0)
					late.emplace_back(entry.late_seq, job);
				else
					ranked.emplace_back(bucket_rank[entry.bucket], entry.key,
					                    job);
			std::sort(ranked.begin(), ranked.end());
			std::sort(late.begin(), late.end());
			std::vector<uint32_t> expected;
			for (const auto &[rank, key, job] : ranked)
				expected.push_back(job);
			for (const auto &[seq, job] : late)
				expected.push_back(job);
			const size_t max_jobs = random() % 2 ? static_cast<size_t>(-1)
			                                     : static_cast<size_t>(random() % 40);
			if (expected.size() > max_jobs)
				expected.resize(max_jobs);
			std::vector<uint32_t> order;
			index.merge(bucket_rank, max_jobs, order);
			ck_assert_msg(order == expected,
			              "seed %lu step %d: merge lists another order",
			              static_cast<unsigned long>(seed), step);
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("rank_order_walk");
	TCase *tc = tcase_create("walk");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_walk_lists_exactly_the_wanted_jobs_in_merge_order);
	tcase_add_test(tc, test_walk_refuses_orders_it_cannot_filter);
	tcase_add_test(tc, test_merge_follows_every_change_of_a_kept_index);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
