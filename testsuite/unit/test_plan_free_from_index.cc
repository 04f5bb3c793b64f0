// FreeFromIndex against a std::set of the same (time, node) pairs: after random moves (many
// nodes sharing a time, nodes moving back to their sorted time, up to 400 nodes and 600 moves:
// the recent moves are merged many times), a walk from the start and from random keys gives the
// same entries in the same order.
#include "check_main.h"
#include "plan/free_from_index.h"
#include "plan_random.h"

#include <iterator>
#include <set>
#include <vector>

using namespace campaign::plan;

namespace
{
using Plain = std::set<FreeFromIndex::Entry>;

std::vector<FreeFromIndex::Entry> walk(FreeFromIndex::const_iterator from,
                                       FreeFromIndex::const_iterator end)
{
	std::vector<FreeFromIndex::Entry> entries;
	for (; from != end; ++from)
		entries.push_back(*from);
	return entries;
}

void check_same(const FreeFromIndex &index, const Plain &plain, plan_random::Random &random,
                uint64_t seed, int round)
{
	ck_assert_uint_eq(index.size(), plain.size());
	const std::vector<FreeFromIndex::Entry> expected(plain.begin(), plain.end());
	ck_assert_msg(walk(index.begin(), index.end()) == expected, "seed %lu round %d: walk",
	              static_cast<unsigned long>(seed), round);
	for (int probe = 0; probe < 4; ++probe) {
		const FreeFromIndex::Entry key{
		    random.chance(10) ? never_s : random.between(0, 60),
		    static_cast<NodeIndex>(random.between(0, static_cast<int64_t>(plain.size())))};
		const std::vector<FreeFromIndex::Entry> from(plain.lower_bound(key), plain.end());
		ck_assert_msg(walk(index.lower_bound(key), index.end()) == from,
		              "seed %lu round %d: lower_bound(%ld, %d)",
		              static_cast<unsigned long>(seed), round, static_cast<long>(key.first),
		              key.second);
	}
}
} // namespace

START_TEST(test_free_from_index_walks_as_a_set)
{
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		plan_random::Random random(seed);
		const auto nodes = static_cast<size_t>(random.between(1, 400));
		std::vector<int64_t> free_from(nodes);
		Plain plain;
		for (size_t node = 0; node < nodes; ++node) {
			free_from[node] = random.chance(20) ? never_s : random.between(0, 60);
			plain.emplace(free_from[node], static_cast<NodeIndex>(node));
		}
		FreeFromIndex index;
		index.assign(std::vector<FreeFromIndex::Entry>(plain.begin(), plain.end()));
		check_same(index, plain, random, seed, 0);
		std::vector<int64_t> sorted_from = free_from; // where each node was assigned
		for (int round = 1; round <= 600; ++round) {
			const auto node = static_cast<NodeIndex>(random.between(0, nodes - 1));
			int64_t to_s = random.chance(10) ? never_s : random.between(0, 60);
			if (random.chance(20))
				to_s = sorted_from[static_cast<size_t>(node)]; // back to its slot
			if (to_s == free_from[static_cast<size_t>(node)])
				continue;
			plain.erase({free_from[static_cast<size_t>(node)], node});
			plain.emplace(to_s, node);
			index.move(node, free_from[static_cast<size_t>(node)], to_s);
			free_from[static_cast<size_t>(node)] = to_s;
			if (random.chance(25))
				check_same(index, plain, random, seed, round);
		}
		check_same(index, plain, random, seed, 601);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_free_from_index");
	TCase *tc = tcase_create("index");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_free_from_index_walks_as_a_set);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
