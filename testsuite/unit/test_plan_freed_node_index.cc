// FreedNodeIndex against plain per-node sets of the seconds given back: after random regions
// (several nodes, a node twice, empty ones) and clears, each node's spans are in time order,
// none empty, each apart from the next, and cover exactly the seconds its regions gave back;
// seen() counts every region since the last clear.
#include "check_main.h"
#include "plan/freed_node_index.h"
#include "plan_random.h"

#include <set>
#include <vector>

using namespace campaign::plan;

namespace
{
constexpr NodeIndex kNodes = 6;

void check_same(const FreedNodeIndex &index, const std::vector<std::set<int64_t>> &plain,
                uint64_t seed, int round)
{
	for (NodeIndex node = 0; node < kNodes + 2; ++node) {
		std::set<int64_t> covered;
		int64_t previous_end_s = -1000;
		for (const FreedNodeIndex::Span &span : index.given_back_on(node)) {
			ck_assert_msg(span.start_s < span.end_s,
			              "seed %lu round %d node %d: empty span",
			              static_cast<unsigned long>(seed), round, node);
			ck_assert_msg(span.start_s > previous_end_s,
			              "seed %lu round %d node %d: spans out of order or touching",
			              static_cast<unsigned long>(seed), round, node);
			previous_end_s = span.end_s;
			for (int64_t time_s = span.start_s; time_s < span.end_s; ++time_s)
				covered.insert(time_s);
		}
		const std::set<int64_t> expected =
		    static_cast<size_t>(node) < plain.size() ? plain[node] : std::set<int64_t>{};
		ck_assert_msg(covered == expected, "seed %lu round %d node %d: seconds covered",
		              static_cast<unsigned long>(seed), round, node);
	}
}
} // namespace

START_TEST(test_freed_node_index_covers_what_was_given_back)
{
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		plan_random::Random random(seed);
		FreedNodeIndex index;
		std::vector<std::set<int64_t>> plain(kNodes);
		size_t regions = 0;
		for (int round = 1; round <= 200; ++round) {
			if (random.chance(3)) {
				index.clear();
				plain.assign(kNodes, {});
				regions = 0;
			} else {
				std::vector<NodeIndex> nodes;
				for (int64_t count = random.between(1, 3); count > 0; --count)
					nodes.push_back(
					    static_cast<NodeIndex>(random.between(0, kNodes - 1)));
				const int64_t start_s = random.between(0, 300);
				const int64_t end_s = start_s + random.between(-2, 40);
				index.add(nodes, start_s, end_s);
				++regions;
				for (const NodeIndex node : nodes)
					for (int64_t time_s = start_s; time_s < end_s; ++time_s)
						plain[node].insert(time_s);
			}
			ck_assert_uint_eq(index.seen(), regions);
			check_same(index, plain, seed, round);
		}
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_freed_node_index");
	TCase *tc = tcase_create("index");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_freed_node_index_covers_what_was_given_back);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
