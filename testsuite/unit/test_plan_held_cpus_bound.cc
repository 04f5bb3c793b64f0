// long_cpus_could_allow: whether a job could take the long jobs' CPUs over a window once a held
// booking is given back, read on the profile as it stands. It must never refuse what the profile
// with the booking given back allows (the planner then skips a start), and it should refuse what
// that profile refuses (else the planner gives back and books again for nothing: on LPC-EGEE's
// conservative plan it passed 11 million of those, none of which could start).
#include "check_main.h"
#include "plan/held_cpus_bound.h"
#include "plan/resource_profile.h"
#include "plan_random.h"

#include <string>
#include <vector>

using namespace campaign::plan;

namespace
{

struct Booking {
	std::vector<NodeAllocation> allocations;
	int64_t start_s = 0;
	int64_t end_s = 0;
	bool long_job = false;
};

Cluster nodes_of_cpus(int nodes, int32_t cpus)
{
	Cluster cluster;
	for (int i = 0; i < nodes; ++i)
		cluster.nodes.push_back(
		    NodeSpec{"n" + std::to_string(i), cpus, 64'000, NodeState::up});
	return cluster;
}

// The long jobs' CPUs at time_s with `held` given back, from the bookings themselves.
int64_t long_cpus_at(const std::vector<Booking> &live, const Booking *held, int64_t time_s)
{
	int64_t cpus = 0;
	for (const Booking &booking : live)
		if (&booking != held && booking.long_job && booking.start_s <= time_s &&
		    time_s < booking.end_s)
			cpus += cpus_of(booking.allocations);
	return cpus;
}

} // namespace

// A held booking that starts as another long job of the same CPUs ends leaves no boundary in the
// profile (one slot over both): the slot's part before the held booking still counts that job.
START_TEST(test_held_booking_joined_with_an_end)
{
	ResourceProfile profile(nodes_of_cpus(1, 8), 0);
	const std::vector<NodeAllocation> two{{0, 2, 0, {}}};
	profile.book(two, 0, 100, true);           // a running long job
	profile.book(two, 100, 1000, true);        // the held reservation, from its end on
	ck_assert_int_eq(profile.slot_at(999), 0); // one slot over [0, 1000)
	ck_assert_int_eq(profile.long_cpus(0), 2);
	// Starting now, one more CPU of long jobs over [0, 500) meets the running job's 2 before
	// 100: over a limit of 2 whatever is given back.
	ck_assert(!long_cpus_could_allow(profile, 1, 2, 0, 500, 2, 100, 1000));
	// Inside the held booking only, giving it back leaves room for it.
	ck_assert(long_cpus_could_allow(profile, 1, 2, 100, 600, 2, 100, 1000));
	ck_assert(long_cpus_could_allow(profile, 1, 3, 0, 500, 2, 100, 1000));
}
END_TEST

// Random profiles on a coarse grid (ends and starts often meet, so joined slots are common): the
// answer is the recount's, for windows and held bookings drawn at random.
START_TEST(test_long_cpus_could_allow_matches_recount_random)
{
	int refused = 0;
	for (uint64_t seed = 1; seed <= 8; ++seed) {
		plan_random::Random random(seed);
		ResourceProfile profile(nodes_of_cpus(4, 8), 0);
		std::vector<Booking> live;
		for (int step = 1; step <= 400; ++step) {
			Booking booking;
			booking.start_s = random.between(0, 40) * 100;
			booking.end_s = booking.start_s + random.between(1, 10) * 100;
			booking.long_job = random.chance(70);
			booking.allocations.push_back(
			    NodeAllocation{static_cast<NodeIndex>(random.between(0, 3)),
			                   static_cast<int32_t>(random.between(1, 2)),
			                   0,
			                   {}});
			profile.book(booking.allocations, booking.start_s, booking.end_s,
			             booking.long_job);
			live.push_back(std::move(booking));
			if (live.size() > 40) {
				const Booking &gone = live.front();
				profile.release(gone.allocations, gone.start_s, gone.end_s,
				                gone.long_job);
				live.erase(live.begin());
			}
			for (int probe = 0; probe < 10; ++probe) {
				const Booking &held = live[static_cast<size_t>(
				    random.between(0, static_cast<int64_t>(live.size()) - 1))];
				const int64_t held_long =
				    held.long_job ? cpus_of(held.allocations) : 0;
				const int64_t from_s =
				    random.between(0, 50) * 100 - random.between(0, 1);
				const int64_t until_s = from_s + random.between(1, 8) * 100;
				const int64_t cpus = random.between(1, 3);
				const int64_t limit =
				    long_cpus_at(live, &held, from_s) + random.between(0, 4);
				bool allows = true;
				for (int64_t at_s = std::max<int64_t>(from_s, 0); at_s < until_s;
				     ++at_s)
					if (long_cpus_at(live, &held, at_s) + cpus > limit) {
						allows = false;
						break;
					}
				refused += !allows;
				ck_assert_msg(
				    long_cpus_could_allow(profile, cpus, limit, from_s, until_s,
				                          held_long, held.start_s,
				                          held.end_s) == allows,
				    "seed %lu step %d: %ld CPUs under %ld over [%ld, %ld) "
				    "giving back [%ld, %ld): recount says %d",
				    static_cast<unsigned long>(seed), step, static_cast<long>(cpus),
				    static_cast<long>(limit), static_cast<long>(from_s),
				    static_cast<long>(until_s), static_cast<long>(held.start_s),
				    static_cast<long>(held.end_s), allows);
			}
		}
	}
	ck_assert_msg(refused > 1000, "only %d refusals: the draws test too little", refused);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_held_cpus_bound");
	TCase *tc = tcase_create("long_cpus");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_held_booking_joined_with_an_end);
	tcase_add_test(tc, test_long_cpus_could_allow_matches_recount_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
