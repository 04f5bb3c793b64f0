// StableQueue against a std::vector of the same entries: after random inserts, erases, pushes,
// pops (some keeping their allocation for a later push), rotations and swaps, both hold the same
// entries in the same order, index_of finds each id where the vector holds it (and none that is
// gone), each entry's shape is read where it stands, and a copy holds equal entries of its own.
#include "check_main.h"
#include "plan/stable_queue.h"
#include "plan_random.h"

#include <algorithm>
#include <vector>

using namespace campaign::plan;

namespace
{
struct Item {
	JobId id = 0;
	int64_t value = 0;
	bool operator==(const Item &) const = default;
};
JobId item_id(const Item &item)
{
	return item.id;
}
// A shape fixed while queued, as the planner's (it reads the id, not the value written through).
int64_t item_shape(const Item &item)
{
	return static_cast<int64_t>(item.id) * 7 % 13;
}
using Queue = StableQueue<Item, &item_id, int64_t, &item_shape>;

void check_same(const Queue &queue, const std::vector<Item> &plain, JobId next_id, uint64_t seed,
                int round)
{
	ck_assert_uint_eq(queue.size(), plain.size());
	ck_assert_msg(std::vector<Item>(queue.begin(), queue.end()) == plain,
	              "seed %lu round %d: entries", static_cast<unsigned long>(seed), round);
	for (size_t i = 0; i < plain.size(); ++i) {
		ck_assert_msg(queue[i] == plain[i], "seed %lu round %d: [%zu]",
		              static_cast<unsigned long>(seed), round, i);
		ck_assert_uint_eq(queue.index_of(plain[i].id), i);
		ck_assert_int_eq(queue.shape(i), item_shape(plain[i]));
	}
	for (JobId id = 1; id < next_id; ++id)
		if (std::none_of(plain.begin(), plain.end(),
		                 [id](const Item &item) { return item.id == id; }))
			ck_assert_uint_eq(queue.index_of(id), queue.size());
}
} // namespace

START_TEST(test_stable_queue_reads_as_a_vector)
{
	for (uint64_t seed = 1; seed <= 200; ++seed) {
		plan_random::Random random(seed);
		Queue queue;
		std::vector<Item> plain;
		JobId next_id = 1;
		for (int round = 1; round <= 300; ++round) {
			const auto size = static_cast<int64_t>(plain.size());
			const int64_t what = random.between(0, 6);
			const auto at =
			    static_cast<size_t>(random.between(0, std::max<int64_t>(size - 1, 0)));
			if (what <= 1 || plain.empty()) {
				const Item item{next_id++, random.between(0, 1000)};
				const auto before = static_cast<size_t>(random.between(0, size));
				plain.insert(plain.begin() + static_cast<std::ptrdiff_t>(before),
				             item);
				queue.insert(queue.begin() + static_cast<std::ptrdiff_t>(before),
				             Item(item));
			} else if (what == 2) {
				const Item item{next_id++, random.between(0, 1000)};
				plain.push_back(item);
				queue.push_back(Item(item));
			} else if (what == 3) {
				plain.erase(plain.begin() + static_cast<std::ptrdiff_t>(at));
				queue.erase(queue.begin() + static_cast<std::ptrdiff_t>(at));
			} else if (what == 4) {
				const auto to = static_cast<size_t>(
				    random.between(0, static_cast<int64_t>(at)));
				std::rotate(plain.begin() + static_cast<std::ptrdiff_t>(to),
				            plain.begin() + static_cast<std::ptrdiff_t>(at),
				            plain.begin() + static_cast<std::ptrdiff_t>(at) + 1);
				queue.rotate(to, at, at + 1);
			} else if (what == 5) {
				const auto other = static_cast<size_t>(random.between(0, size - 1));
				std::swap(plain[at], plain[other]);
				queue.swap_at(at, other);
			} else {
				plain.pop_back();
				if (random.chance(50))
					queue.pop_back();
				else
					queue.pop_back_kept();
			}
			if (at < plain.size() && random.chance(30)) // written through the queue
				plain[at].value = queue[at].value = random.between(0, 1000);
			check_same(queue, plain, next_id, seed, round);
		}
		const Queue copy(queue);
		check_same(copy, plain, next_id, seed, 301);
		if (!plain.empty())
			ck_assert_ptr_ne(&copy[0], &queue[0]); // its own entries
	}
}
END_TEST

// A kept allocation holds the next pushed entry, and only that one.
START_TEST(test_stable_queue_push_back_reuses_a_kept_allocation)
{
	Queue queue;
	queue.push_back(Item{1, 10});
	queue.push_back(Item{2, 20});
	const Item *second = &queue[1];
	queue.pop_back_kept();
	queue.push_back(Item{3, 30});
	ck_assert_ptr_eq(&queue[1], second);
	ck_assert(queue[1] == (Item{3, 30}));
	ck_assert_uint_eq(queue.index_of(2), queue.size());
	ck_assert_uint_eq(queue.index_of(3), 1);
	queue.push_back(Item{4, 40}); // none kept now: an allocation of its own
	ck_assert_ptr_ne(&queue[2], second);
	ck_assert(queue[2] == (Item{4, 40}));
	ck_assert(queue[1] == (Item{3, 30}));
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_stable_queue");
	TCase *tc = tcase_create("queue");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_stable_queue_reads_as_a_vector);
	tcase_add_test(tc, test_stable_queue_push_back_reuses_a_kept_allocation);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
