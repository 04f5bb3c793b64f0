// ResourceProfile::book_from_origin (a rebuild's running jobs in one sweep) gives exactly the
// profile that booking the same jobs one by one gives: same slots, same free CPUs and memory.
#include "check_main.h"
#include "plan/resource_profile.h"
#include "plan_random.h"

using namespace campaign::plan;

namespace
{
void check_same_profile(const ResourceProfile &bulk, const ResourceProfile &one_by_one,
                        uint64_t seed)
{
	ck_assert_msg(bulk.slot_count() == one_by_one.slot_count(), "seed %lu: %zu vs %zu slots",
	              static_cast<unsigned long>(seed), bulk.slot_count(), one_by_one.slot_count());
	for (size_t slot = 0; slot < bulk.slot_count(); ++slot) {
		ck_assert_int_eq(bulk.slot_start_s(slot), one_by_one.slot_start_s(slot));
		ck_assert_int_eq(bulk.usable_free_cpus(slot), one_by_one.usable_free_cpus(slot));
		for (size_t node = 0; node < bulk.node_count(); ++node) {
			const auto index = static_cast<NodeIndex>(node);
			ck_assert(bulk.free(slot, index) == one_by_one.free(slot, index));
		}
	}
}
} // namespace

START_TEST(test_profile_bulk_booking_equals_booking_one_by_one_random)
{
	for (uint64_t seed = 1; seed <= 500; ++seed) {
		const int64_t now_s = 1000;
		plan_random::Instance instance = plan_random::random_instance(seed, now_s);
		plan_random::Random random(seed);
		// Ends in the past, ties and open ends too.
		for (RunningJob &job : instance.running)
			if (random.chance(20))
				job.expected_end_s = random.chance(50) ? now_s - 5 : never_s;
			else if (random.chance(30) && !instance.running.empty())
				job.expected_end_s = instance.running.front().expected_end_s;
		ResourceProfile one_by_one(instance.cluster, now_s);
		std::vector<ResourceProfile::Held> held;
		for (const RunningJob &job : instance.running) {
			one_by_one.book(job.allocations, now_s, job.expected_end_s);
			held.push_back({&job.allocations, job.expected_end_s});
		}
		ResourceProfile bulk(instance.cluster, now_s);
		bulk.book_from_origin(held);
		check_same_profile(bulk, one_by_one, seed);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_profile_bulk");
	TCase *tc = tcase_create("profile");
	tcase_add_test(tc, test_profile_bulk_booking_equals_booking_one_by_one_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
