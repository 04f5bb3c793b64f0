// FlatIdMap against a plain map: after random insertions, look-ups, erasures, retain_if and
// clears, both hold the same ids with the same values; id 0 (the empty slot's mark) is refused
// on insertion and found nowhere.
#include "check_main.h"
#include "plan_random.h"
#include "util/flat_id_map.h"

#include <stdexcept>
#include <unordered_map>
#include <vector>

using campaign::FlatIdMap;

namespace
{

// The map beside a plain one: every id ever used must answer the same in both.
void check_same(const FlatIdMap<uint32_t, uint32_t> &flat,
                const std::unordered_map<uint32_t, uint32_t> &plain,
                const std::vector<uint32_t> &known, uint64_t seed, int round)
{
	ck_assert_uint_eq(flat.size(), plain.size());
	ck_assert_uint_le(2 * flat.size(), flat.slot_count());
	for (uint32_t id : known) {
		const auto it = plain.find(id);
		const uint32_t *value = flat.find(id);
		ck_assert_msg((value != nullptr) == (it != plain.end()),
		              "seed %lu round %d: id %u present %d",
		              static_cast<unsigned long>(seed), round, id, value != nullptr);
		if (value)
			ck_assert_msg(
			    *value == it->second, "seed %lu round %d: id %u value %u not %u",
			    static_cast<unsigned long>(seed), round, id, *value, it->second);
	}
}

} // namespace

START_TEST(test_flat_id_map_answers_as_a_plain_map)
{
	for (uint64_t seed = 1; seed <= 30; ++seed) {
		plan_random::Random random(seed);
		FlatIdMap<uint32_t, uint32_t> flat;
		std::unordered_map<uint32_t, uint32_t> plain;
		std::vector<uint32_t> known;
		for (int round = 1; round <= 3000; ++round) {
			const int64_t what = random.between(0, 199);
			uint32_t id = 0;
			if (!known.empty() && random.between(0, 1) == 0)
				id = known[static_cast<size_t>(
				    random.between(0, static_cast<int64_t>(known.size()) - 1))];
			else if (random.between(0, 1) == 0)
				id = static_cast<uint32_t>(
				    random.between(1, 500)); // runs of near ids
			else
				id = static_cast<uint32_t>(random.between(1, 4000000000));
			if (what < 110) {
				const auto value = static_cast<uint32_t>(round);
				flat[id] = value;
				plain[id] = value;
				known.push_back(id);
			} else if (what < 190) {
				ck_assert(flat.erase(id) == (plain.erase(id) == 1));
			} else if (what < 198) {
				// Keep the ids whose value is even (a sweep over the whole table).
				flat.retain_if(
				    [](uint32_t, uint32_t value) { return value % 2 == 0; });
				std::erase_if(
				    plain, [](const auto &kept) { return kept.second % 2 != 0; });
			} else {
				flat.clear();
				plain.clear();
			}
			if (what >= 190 || round % 50 == 0)
				check_same(flat, plain, known, seed, round);
		}
	}
}
END_TEST

START_TEST(test_flat_id_map_refuses_id_zero)
{
	FlatIdMap<uint32_t, uint32_t> flat;
	ck_assert(flat.find(0) == nullptr); // an empty table
	flat[7] = 1;
	bool threw = false;
	try {
		flat[0] = 2;
	} catch (const std::invalid_argument &) {
		threw = true;
	}
	ck_assert(threw);
	ck_assert(!flat.contains(0));
	ck_assert(!flat.erase(0));
	ck_assert_uint_eq(flat.size(), 1);
	ck_assert_uint_eq(*flat.find(7), 1);
}
END_TEST

// reserve() makes room at once: the table does not grow while the reserved ids come in.
START_TEST(test_flat_id_map_reserve_holds_its_count)
{
	FlatIdMap<uint32_t, uint32_t> flat;
	flat.reserve(1000);
	const size_t slots = flat.slot_count();
	ck_assert_uint_ge(slots, 2000);
	for (uint32_t id = 1; id <= 999; ++id)
		flat[id * 7919] = id;
	ck_assert_uint_eq(flat.slot_count(), slots);
	for (uint32_t id = 1; id <= 999; ++id)
		ck_assert_uint_eq(*flat.find(id * 7919), id);
}
END_TEST

int main()
{
	Suite *suite = suite_create("flat_id_map");
	TCase *tc = tcase_create("map");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_flat_id_map_answers_as_a_plain_map);
	tcase_add_test(tc, test_flat_id_map_refuses_id_zero);
	tcase_add_test(tc, test_flat_id_map_reserve_holds_its_count);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
