// NodePool against plain containers: after random insertions, erasures and clears, a map and a
// set filled through the pool hold the same entries as ones filled by try_emplace and insert,
// in the same iteration order, each insertion answering the same, and a clear keeps the nodes
// for the insertions after it.
#include "check_main.h"
#include "plan/node_pool.h"
#include "plan_random.h"

#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

using namespace campaign::plan;

namespace
{
using Map = std::unordered_map<JobId, int64_t>;
using Set = std::unordered_set<JobId>;

template <typename Container>
std::vector<typename Container::value_type> listed(const Container &container)
{
	return {container.begin(), container.end()};
}
} // namespace

START_TEST(test_node_pool_fills_as_plain_containers)
{
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		plan_random::Random random(seed);
		Map map, plain_map;
		Set set, plain_set;
		NodePool<Map> map_pool;
		NodePool<Set> set_pool;
		for (int round = 1; round <= 400; ++round) {
			const int64_t what = random.between(0, 9);
			const auto id = static_cast<JobId>(random.between(1, 60));
			if (what <= 5) {
				const int64_t value = random.between(0, 1000);
				auto [at, added] = map_pool.try_emplace(map, id);
				if (added) // a kept node's value is stale
					at->second = value;
				auto [plain_at, plain_added] = plain_map.try_emplace(id, value);
				ck_assert_int_eq(added, plain_added);
				ck_assert_int_eq(at->first, plain_at->first);
				ck_assert_int_eq(at->second, plain_at->second);
				ck_assert_int_eq(set_pool.insert(set, id).second,
				                 plain_set.insert(id).second);
			} else if (what <= 7) {
				ck_assert_uint_eq(map.erase(id), plain_map.erase(id));
				ck_assert_uint_eq(set.erase(id), plain_set.erase(id));
			} else {
				const size_t before = map_pool.kept() + map.size();
				map_pool.clear(map);
				plain_map.clear();
				set_pool.clear(set);
				plain_set.clear();
				ck_assert_uint_eq(map_pool.kept(), before); // every node kept
			}
			ck_assert_msg(listed(map) == listed(plain_map), "seed %lu round %d: map",
			              static_cast<unsigned long>(seed), round);
			ck_assert_msg(listed(set) == listed(plain_set), "seed %lu round %d: set",
			              static_cast<unsigned long>(seed), round);
		}
		const NodePool<Map> copy(map_pool);
		ck_assert_uint_eq(copy.kept(), 0); // spare storage is not copied
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_node_pool");
	TCase *tc = tcase_create("pool");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_node_pool_fills_as_plain_containers);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
