// ResourceProfile's slot sums (usable free CPUs, long jobs' CPUs) are what the nodes' own
// changes and the live bookings give, slot by slot, after thousands of random bookings,
// releases and advances: the sums are kept per block of slots plus each slot's own part, and
// slots move across blocks at every split and merge.
#include "check_main.h"
#include "plan/resource_profile.h"
#include "plan_random.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace campaign::plan;

namespace
{
constexpr int kNodes = 64;
constexpr int kBusyNodes = 16;

struct Booking {
	std::vector<NodeAllocation> allocations;
	int64_t start_s = 0;
	int64_t end_s = 0;
	bool long_job = false;
};

// Every slot's sums against a recount from the nodes' free CPUs and the live long bookings.
void check_sums(const ResourceProfile &profile, const std::vector<Booking> &live, uint64_t seed,
                int step)
{
	for (size_t slot = 0; slot < profile.slot_count(); ++slot) {
		const int64_t at_s = profile.slot_start_s(slot);
		int64_t usable = 0;
		for (size_t node = 0; node < profile.node_count(); ++node) {
			const auto index = static_cast<NodeIndex>(node);
			if (profile.usable(index))
				usable += std::max(profile.free(slot, index).cpus, 0);
		}
		int64_t long_cpus = 0;
		for (const Booking &booking : live)
			if (booking.long_job &&
			    std::max(booking.start_s, profile.origin_s()) <= at_s &&
			    at_s < booking.end_s)
				for (const NodeAllocation &allocation : booking.allocations)
					long_cpus += allocation.cpus;
		ck_assert_msg(profile.usable_free_cpus(slot) == usable,
		              "seed %lu step %d slot %zu of %zu: usable free CPUs %ld, recount %ld",
		              static_cast<unsigned long>(seed), step, slot, profile.slot_count(),
		              static_cast<long>(profile.usable_free_cpus(slot)),
		              static_cast<long>(usable));
		ck_assert_msg(profile.long_cpus(slot) == long_cpus,
		              "seed %lu step %d slot %zu: long CPUs %ld, recount %ld",
		              static_cast<unsigned long>(seed), step, slot,
		              static_cast<long>(profile.long_cpus(slot)),
		              static_cast<long>(long_cpus));
	}
}
// A "last slot in [first, last] whose amount passes a test" search (blocks, four slots a test)
// against a plain scan, over random ranges and thresholds around the amounts there. Its own
// draws (salt): the bookings stay those of the sums' check.
template <typename Amount, typename Passes, typename Search>
void check_last_slot(const ResourceProfile &profile, uint64_t seed, int step, uint64_t salt,
                     const char *what, Amount amount, Passes passes, Search search)
{
	plan_random::Random random(seed * 100'000 + salt + static_cast<uint64_t>(step));
	const auto slots = static_cast<int64_t>(profile.slot_count());
	for (int probe = 0; probe < 40; ++probe) {
		const auto first = static_cast<size_t>(random.between(0, slots - 1));
		const auto last = static_cast<size_t>(
		    random.between(static_cast<int64_t>(first),
		                   std::min(slots - 1, static_cast<int64_t>(first) + 700)));
		const auto pick = static_cast<size_t>(
		    random.between(static_cast<int64_t>(first), static_cast<int64_t>(last)));
		const int64_t cpus = amount(pick) + random.between(-2, 2);
		size_t expected = ResourceProfile::last_short_none;
		for (size_t slot = last + 1; slot-- > first;)
			if (passes(amount(slot), cpus)) {
				expected = slot;
				break;
			}
		const size_t found = search(first, last, cpus);
		ck_assert_msg(found == expected,
		              "seed %lu step %d: last slot %s %ld in [%zu, %zu]: %zu, scan %zu",
		              static_cast<unsigned long>(seed), step, what, static_cast<long>(cpus),
		              first, last, found, expected);
	}
}
// last_slot_short_of on the usable free CPUs, last_slot_long_over on the long jobs' CPUs.
void check_last_short(const ResourceProfile &profile, uint64_t seed, int step)
{
	check_last_slot(
	    profile, seed, step, 0, "short of",
	    [&](size_t slot) { return profile.usable_free_cpus(slot); },
	    [](int64_t amount, int64_t cpus) { return amount < cpus; },
	    [&](size_t first, size_t last, int64_t cpus) {
		    return profile.last_slot_short_of(first, last, cpus);
	    });
}
void check_last_long(const ResourceProfile &profile, uint64_t seed, int step)
{
	check_last_slot(
	    profile, seed, step, 50'000, "with long CPUs over",
	    [&](size_t slot) { return profile.long_cpus(slot); },
	    [](int64_t amount, int64_t cpus) { return amount > cpus; },
	    [&](size_t first, size_t last, int64_t cpus) {
		    return profile.last_slot_long_over(first, last, cpus);
	    });
}
} // namespace

START_TEST(test_profile_sums_match_recount_random)
{
	for (uint64_t seed = 1; seed <= 6; ++seed) {
		plan_random::Random random(seed);
		Cluster cluster;
		for (int i = 0; i < kNodes; ++i)
			cluster.nodes.push_back(
			    NodeSpec{"n" + std::to_string(i), 16, 64'000,
			             i % 7 == 3 ? NodeState::down : NodeState::up});
		int64_t now_s = 1000;
		ResourceProfile profile(cluster, now_s);
		std::vector<Booking> live;
		for (int step = 1; step <= 3000; ++step) {
			if (random.chance(2)) { // forget the past; bookings over it end there
				now_s += random.between(1, 200);
				profile.advance_to(now_s);
				std::erase_if(
				    live, [now_s](const Booking &b) { return b.end_s <= now_s; });
			} else if (!live.empty() && random.chance(35)) {
				const size_t index =
				    static_cast<size_t>(random.between(0, live.size() - 1));
				const Booking booking = live[index];
				live.erase(live.begin() + static_cast<std::ptrdiff_t>(index));
				profile.release(booking.allocations, booking.start_s, booking.end_s,
				                booking.long_job);
			} else {
				Booking booking;
				booking.start_s = now_s + random.between(0, 20'000);
				booking.end_s = random.chance(5)
				                    ? never_s
				                    : booking.start_s + random.between(1, 30'000);
				booking.long_job = random.chance(40);
				// Most on a few busy nodes (many slots), some on quiet ones: a
				// quiet node's change spans hundreds of slots, whole blocks of
				// them.
				const bool busy = random.chance(90);
				const int nodes = static_cast<int>(random.between(1, 4));
				const int first =
				    static_cast<int>(busy ? random.between(0, kBusyNodes - 1)
				                          : random.between(kBusyNodes, kNodes - 1));
				for (int i = 0; i < nodes; ++i) {
					const int node =
					    busy ? (first + i * 5) % kBusyNodes
					         : kBusyNodes +
					               (first + i * 5) % (kNodes - kBusyNodes);
					booking.allocations.push_back(NodeAllocation{
					    static_cast<NodeIndex>(node),
					    static_cast<int32_t>(random.between(1, 12)), 1000});
				}
				profile.book(booking.allocations, booking.start_s, booking.end_s,
				             booking.long_job);
				live.push_back(std::move(booking));
			}
			if (step % 250 == 0)
				check_sums(profile, live, seed, step);
			if (step % 50 == 0) {
				check_last_short(profile, seed, step);
				check_last_long(profile, seed, step);
			}
		}
		ck_assert_msg(profile.slot_count() > 1000, "seed %lu: only %zu slots",
		              static_cast<unsigned long>(seed), profile.slot_count());
		while (!live.empty()) { // all given back: the machine's capacity, one slot
			profile.release(live.back().allocations, live.back().start_s,
			                live.back().end_s, live.back().long_job);
			live.pop_back();
		}
		check_sums(profile, live, seed, -1);
		ck_assert_int_eq(profile.slot_count(), 1);
	}
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_profile_sums");
	TCase *tc = tcase_create("profile");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_profile_sums_match_recount_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
