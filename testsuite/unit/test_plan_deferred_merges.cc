// ResourceProfile::DeferredMerges: bookings and releases made while merges are deferred, then
// merged in one pass, leave the same slots (starts, usable free CPUs, long jobs' CPUs, every
// node's free amounts) as the same changes merged one by one, over random batches like a
// replan's: most or all of the plan given back, some running jobs booked again.
#include "check_main.h"
#include "plan/resource_profile.h"
#include "plan_random.h"
#include "profile_compare.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace campaign::plan;

namespace
{
constexpr int kNodes = 32;

struct Booking {
	std::vector<NodeAllocation> allocations;
	int64_t start_s = 0;
	int64_t end_s = 0;
	bool long_job = false;
};

Booking random_booking(plan_random::Random &random, int64_t now_s)
{
	Booking booking;
	booking.start_s = now_s + random.between(0, 5'000);
	booking.end_s = random.chance(5) ? never_s : booking.start_s + random.between(1, 8'000);
	booking.long_job = random.chance(40);
	const int nodes = static_cast<int>(random.between(1, 3));
	const int first = static_cast<int>(random.between(0, kNodes - 1));
	for (int i = 0; i < nodes; ++i)
		booking.allocations.push_back(
		    NodeAllocation{static_cast<NodeIndex>((first + i * 7) % kNodes),
		                   static_cast<int32_t>(random.between(1, 6)), 500});
	return booking;
}

void book_both(ResourceProfile &merged, ResourceProfile &deferred, const Booking &booking)
{
	merged.book(booking.allocations, booking.start_s, booking.end_s, booking.long_job);
	deferred.book(booking.allocations, booking.start_s, booking.end_s, booking.long_job);
}

void check_same(const ResourceProfile &merged, const ResourceProfile &deferred, uint64_t seed,
                int round)
{
	profile_compare::check_same_profiles(merged, deferred,
	                                     "seed " + std::to_string(seed) + " round " +
	                                         std::to_string(round) +
	                                         " (merged one by one / deferred)");
}
} // namespace

START_TEST(test_deferred_merges_give_the_slots_of_merging_one_by_one)
{
	size_t most_merged = 0;
	for (uint64_t seed = 1; seed <= 8; ++seed) {
		plan_random::Random random(seed);
		Cluster cluster;
		for (int i = 0; i < kNodes; ++i)
			cluster.nodes.push_back(
			    NodeSpec{"n" + std::to_string(i), 16, 64'000,
			             i % 9 == 4 ? NodeState::drain : NodeState::up});
		int64_t now_s = 1000;
		ResourceProfile merged(cluster, now_s), deferred(cluster, now_s);
		std::vector<Booking> live;
		for (int round = 1; round <= 60; ++round) {
			const int bookings = static_cast<int>(random.between(20, 200));
			for (int i = 0; i < bookings; ++i) {
				live.push_back(random_booking(random, now_s));
				book_both(merged, deferred, live.back());
			}
			// Given back: all of them, or a random part (from the back, as a replan
			// leaves the kept order's head), merged one by one on one profile only.
			const size_t keep = random.chance(50)
			                        ? 0
			                        : static_cast<size_t>(random.between(
			                              0, static_cast<int64_t>(live.size())));
			const size_t slots_before = deferred.slot_count();
			{
				const ResourceProfile::DeferredMerges deferring(deferred);
				for (size_t i = live.size(); i-- > keep;) {
					const Booking &b = live[i];
					merged.release(b.allocations, b.start_s, b.end_s,
					               b.long_job);
					deferred.release(b.allocations, b.start_s, b.end_s,
					                 b.long_job);
				}
				live.resize(keep);
				const int again = static_cast<int>(random.between(0, 5));
				for (int i = 0; i < again; ++i) { // running jobs booked again
					live.push_back(random_booking(random, now_s));
					book_both(merged, deferred, live.back());
				}
			}
			if (slots_before > deferred.slot_count())
				most_merged =
				    std::max(most_merged, slots_before - deferred.slot_count());
			check_same(merged, deferred, seed, round);
			if (random.chance(30)) {
				now_s += random.between(1, 500);
				merged.advance_to(now_s);
				deferred.advance_to(now_s);
				std::erase_if(
				    live, [now_s](const Booking &b) { return b.end_s <= now_s; });
				check_same(merged, deferred, seed, round);
			}
		}
	}
	// The batches joined many slots at once (the pass is exercised, not only its edges).
	ck_assert_msg(most_merged > 100, "at most %zu slots joined in one batch", most_merged);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_deferred_merges");
	TCase *tc = tcase_create("profile");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_deferred_merges_give_the_slots_of_merging_one_by_one);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
