// Compression's cheaper moves give what giving back and booking again gave: ResourceProfile::move
// against release then book (every slot, sum and node change, over random profiles), and jobs
// that must still move where the cheap paths read the profile with their own booking in it: a
// long job in place (its own long CPUs counted back), a start now on another node (its own
// held CPUs counted back, so the necessary test before giving the booking back passes).
#include "check_main.h"
#include "plan/resource_profile.h"
#include "plan_fixtures.h"
#include "plan_random.h"

#include <string>
#include <vector>

using namespace campaign::plan;
using namespace plan_fixtures;

namespace
{
constexpr int kNodes = 12;

struct Booking {
	std::vector<NodeAllocation> allocations;
	int64_t start_s = 0;
	int64_t length_s = 0;
	bool long_job = false;
};

Booking random_booking(plan_random::Random &random, int64_t now_s)
{
	Booking booking;
	booking.start_s = now_s + random.between(0, 5'000);
	booking.length_s = random.between(1, 6'000);
	booking.long_job = random.chance(40);
	const int nodes = static_cast<int>(random.between(1, 2));
	const int first = static_cast<int>(random.between(0, kNodes - 1));
	for (int i = 0; i < nodes; ++i)
		booking.allocations.push_back(
		    NodeAllocation{static_cast<NodeIndex>((first + i * 5) % kNodes),
		                   static_cast<int32_t>(random.between(1, 3)), 500});
	return booking;
}

void check_same(const ResourceProfile &expected, const ResourceProfile &moved, uint64_t seed,
                int round)
{
	ck_assert_msg(expected.slot_count() == moved.slot_count(),
	              "seed %lu round %d: %zu slots given back and booked, %zu moved",
	              static_cast<unsigned long>(seed), round, expected.slot_count(),
	              moved.slot_count());
	for (size_t slot = 0; slot < expected.slot_count(); ++slot)
		ck_assert_msg(expected.slot_start_s(slot) == moved.slot_start_s(slot) &&
		                  expected.usable_free_cpus(slot) == moved.usable_free_cpus(slot) &&
		                  expected.long_cpus(slot) == moved.long_cpus(slot),
		              "seed %lu round %d slot %zu differs",
		              static_cast<unsigned long>(seed), round, slot);
	for (NodeIndex node = 0; node < kNodes; ++node) {
		const auto &a = expected.timelines().changes(node);
		const auto &b = moved.timelines().changes(node);
		ck_assert_msg(a.size() == b.size(), "seed %lu round %d node %d: %zu changes, %zu",
		              static_cast<unsigned long>(seed), round, node, a.size(), b.size());
		for (size_t i = 0; i < a.size(); ++i)
			ck_assert_msg(a[i].start_s == b[i].start_s && a[i].free == b[i].free,
			              "seed %lu round %d node %d change %zu differs",
			              static_cast<unsigned long>(seed), round, node, i);
	}
}
} // namespace

START_TEST(test_profile_move_gives_release_then_book)
{
	int overlapping = 0;
	for (uint64_t seed = 1; seed <= 6; ++seed) {
		plan_random::Random random(seed);
		Cluster cluster = uniform_cluster(kNodes, 4);
		cluster.nodes[3].state = NodeState::drain; // kept, never usable
		const int64_t now_s = 1000;
		ResourceProfile expected(cluster, now_s), moved(cluster, now_s);
		std::vector<Booking> live;
		for (int i = 0; i < 150; ++i) { // over-committed nodes included
			live.push_back(random_booking(random, now_s));
			const Booking &b = live.back();
			expected.book(b.allocations, b.start_s, b.start_s + b.length_s, b.long_job);
			moved.book(b.allocations, b.start_s, b.start_s + b.length_s, b.long_job);
		}
		for (int round = 1; round <= 300; ++round) {
			Booking &b = live[static_cast<size_t>(
			    random.between(0, static_cast<int64_t>(live.size()) - 1))];
			const int64_t to_s =
			    std::max(now_s, b.start_s - random.between(1, b.length_s + 50));
			if (to_s >= b.start_s)
				continue;
			overlapping += to_s + b.length_s > b.start_s;
			expected.release(b.allocations, b.start_s, b.start_s + b.length_s,
			                 b.long_job);
			expected.book(b.allocations, to_s, to_s + b.length_s, b.long_job);
			moved.move(b.allocations, b.start_s, to_s, b.length_s, b.long_job);
			b.start_s = to_s;
			check_same(expected, moved, seed, round);
		}
	}
	ck_assert_msg(overlapping > 500, "only %d moves overlapped their old place", overlapping);
}
END_TEST

START_TEST(test_long_job_moves_in_place_counting_its_own_long_cpus_back)
{
	// 5 nodes x 1 CPU, short_room 0.4: long jobs hold at most 3 CPUs. Long R0, R1 (to 100000),
	// R2 (node 2, to 5000), R4 (node 4, to 4000). L (1 CPU, 7200 s, long) fits from 5000 on
	// node 2. R2 ends at 1000: on node 2, L fits from 4000 (R4's end); over [5000, 11200) the
	// long CPUs are R0, R1 and L's own booking, which a move gives back. Only in place
	// (compress_search_depth 0), and not now (R4 is long until 4000): start_now_anywhere does
	// not find it either.
	PlannerConfig cfg = config(ReservationMode::conservative);
	cfg.short_room = 0.4;
	cfg.compress_search_depth = 0;
	Planner planner(cfg);
	ck_assert(planner
	              .rebuild(uniform_cluster(5, 1),
	                       {running(100, 0, 1, 100000), running(101, 1, 1, 100000),
	                        running(102, 2, 1, 5000), running(104, 4, 1, 4000)},
	                       {job(1, 1, 7200)}, 0)
	              .ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 5000);
	ck_assert(planner.job_ended(102, 1000).ok());
	const PlannedJob after = status_of(planner, 1);
	ck_assert_int_eq(after.start_s, 4000);
	ck_assert_uint_eq(after.allocations.size(), 1);
	ck_assert_int_eq(after.allocations[0].node, 2);
}
END_TEST

START_TEST(test_job_starts_now_on_its_own_held_node_and_a_freed_one)
{
	// 4 nodes x 1 CPU. R0, R1, R3 (nodes 0, 1, 3) to 50, R2 (node 2) to 1000. J (2 CPUs,
	// 100 s) is reserved at 50 on nodes 0 and 1. At 10, R0 ends (J cannot start: node 1 is
	// busy to 50), then R2 ends: on its own nodes nothing new for J, but nodes 0 and 2 are
	// free over [10, 110) once J's own booking of node 0 is given back. Only start_now_anywhere
	// (compress_search_depth 0) finds it, and only if its test counts J's held CPU back.
	PlannerConfig cfg = config(ReservationMode::conservative);
	cfg.compress_search_depth = 0;
	Planner planner(cfg);
	ck_assert(planner
	              .rebuild(uniform_cluster(4, 1),
	                       {running(100, 0, 1, 50), running(101, 1, 1, 50),
	                        running(102, 2, 1, 1000), running(103, 3, 1, 50)},
	                       {job(1, 2, 100)}, 0)
	              .ok());
	const PlannedJob before = status_of(planner, 1);
	ck_assert_int_eq(before.start_s, 50);
	ck_assert_uint_eq(before.allocations.size(), 2);
	ck_assert_int_eq(before.allocations[1].node, 1);
	ck_assert(planner.job_ended(100, 10).ok());
	ck_assert_int_eq(status_of(planner, 1).start_s, 50);
	ck_assert(planner.job_ended(102, 10).ok());
	const PlannedJob after = status_of(planner, 1);
	ck_assert_int_eq(after.start_s, 10);
	ck_assert_uint_eq(after.allocations.size(), 2);
	ck_assert_int_eq(after.allocations[0].node, 0);
	ck_assert_int_eq(after.allocations[1].node, 2);
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_compress_moves");
	TCase *tc = tcase_create("moves");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_profile_move_gives_release_then_book);
	tcase_add_test(tc, test_long_job_moves_in_place_counting_its_own_long_cpus_back);
	tcase_add_test(tc, test_job_starts_now_on_its_own_held_node_and_a_freed_one);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
