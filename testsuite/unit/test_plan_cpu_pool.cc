// The gap search's single CPU pool (campsim's one node): where the profile is one usable node
// holding CPUs alone and never over-committed, the searches read the slots' block sums instead of
// the node's changes and the window minima. They must find what the general searches find: the
// same bookings on a twin machine whose second node is DOWN (two nodes, so no pool; the DOWN node
// adds nothing to any slot) give the general path, and every search (fresh, in place, in place
// holding the job's own booking, with and without a limit on long jobs' CPUs) is compared
// between the two, and so is the planner's test before giving a booking back
// (could_fit_giving_back). The pool's bookings keep the slots' sums alone; the node's changes,
// made again from them when read, must be the twin's. Jobs with memory fall back to the general
// path on both. The pool ends
// with a booking of memory or GRES, or with an over-commit, until the next reset.
#include "check_main.h"
#include "plan/gap_search.h"
#include "plan/held_cpus_bound.h"
#include "plan/resource_profile.h"
#include "plan_random.h"

using namespace campaign::plan;

namespace
{

struct Booking {
	NodeAllocation allocation;
	int64_t start_s, end_s;
	bool long_job;
};

// One node of `cpus` CPUs (and some memory), alone or beside a DOWN node.
Cluster pool_cluster(int32_t cpus, bool with_down_twin)
{
	Cluster cluster;
	cluster.nodes.push_back({"pool", cpus, 64000, NodeState::up, {}, 1});
	if (with_down_twin)
		cluster.nodes.push_back({"down", cpus, 64000, NodeState::down, {}, 1});
	return cluster;
}

// The same books, releases and advances on both profiles; CPUs only, never more than the node
// has unless `overcommit`. Returns the bookings still held.
std::vector<Booking> book_alike(plan_random::Random &random, ResourceProfile &pool,
                                ResourceProfile &twin, int32_t cpus, int64_t &origin_s,
                                bool overcommit)
{
	std::vector<Booking> bookings;
	auto free_over = [&](int64_t start_s, int64_t end_s) {
		int32_t least = cpus;
		for (int64_t t = start_s; t < end_s && t < origin_s + 400; ++t) {
			int32_t free = cpus;
			for (const Booking &booking : bookings)
				if (booking.start_s <= t && t < booking.end_s)
					free -= booking.allocation.cpus;
			least = std::min(least, free);
		}
		return least;
	};
	for (int64_t operation = random.between(0, 60); operation > 0; --operation) {
		if (!bookings.empty() && random.chance(20)) {
			const size_t index = static_cast<size_t>(
			    random.between(0, static_cast<int64_t>(bookings.size()) - 1));
			const Booking &gone = bookings[index];
			pool.release({gone.allocation}, gone.start_s, gone.end_s, gone.long_job);
			twin.release({gone.allocation}, gone.start_s, gone.end_s, gone.long_job);
			bookings.erase(bookings.begin() + static_cast<std::ptrdiff_t>(index));
			continue;
		}
		if (random.chance(8)) { // a read between: the node's changes made again, then kept
			(void)pool.free(0, 0);
			continue;
		}
		if (random.chance(6)) {
			origin_s += random.between(1, 30);
			pool.advance_to(origin_s);
			twin.advance_to(origin_s);
			std::erase_if(bookings,
			              [&](const Booking &b) { return b.end_s <= origin_s; });
			continue;
		}
		Booking booking{{0, static_cast<int32_t>(random.between(1, cpus / 2 + 1)), 0, {}},
		                origin_s + random.between(0, 120),
		                0,
		                random.chance(40)};
		booking.end_s = booking.start_s + random.between(1, 150);
		if (!overcommit) // only where it fits: the pool stays whole
			booking.allocation.cpus = std::min(
			    booking.allocation.cpus, free_over(booking.start_s, booking.end_s));
		if (booking.allocation.cpus <= 0)
			continue;
		pool.book({booking.allocation}, booking.start_s, booking.end_s, booking.long_job);
		twin.book({booking.allocation}, booking.start_s, booking.end_s, booking.long_job);
		bookings.push_back(booking);
	}
	return bookings;
}

// The pool's slots (sums, node changes, long jobs' CPUs) and its node's changes, made again from
// the sums where its bookings left them behind, are the twin's, kept the long way.
void check_same_profile(const ResourceProfile &pool, const ResourceProfile &twin, uint64_t seed)
{
	ck_assert_uint_eq(pool.slot_count(), twin.slot_count());
	for (size_t slot = 0; slot < pool.slot_count(); ++slot) {
		ck_assert_int_eq(pool.slot_start_s(slot), twin.slot_start_s(slot));
		ck_assert_int_eq(pool.usable_free_cpus(slot), twin.usable_free_cpus(slot));
		ck_assert_int_eq(pool.long_cpus(slot), twin.long_cpus(slot));
	}
	const auto &mine = pool.timelines().changes(0);
	const auto &theirs = twin.timelines().changes(0);
	ck_assert_msg(mine.size() == theirs.size(), "seed %lu: %zu changes vs %zu",
	              static_cast<unsigned long>(seed), mine.size(), theirs.size());
	for (size_t index = 0; index < mine.size(); ++index)
		ck_assert(mine[index].start_s == theirs[index].start_s &&
		          mine[index].free == theirs[index].free);
	ck_assert_int_eq(pool.timelines().free_from(0), twin.timelines().free_from(0));
}

bool same(const std::optional<Placement> &a, const std::optional<Placement> &b)
{
	if (a.has_value() != b.has_value())
		return false;
	return !a || (a->start_s == b->start_s && a->allocations == b->allocations);
}

long start_of(const std::optional<Placement> &placement)
{
	return placement ? static_cast<long>(placement->start_s) : -1;
}

} // namespace

START_TEST(test_pool_searches_equal_general_ones_random)
{
	size_t in_pool = 0, searched = 0, found = 0, held = 0, moved_earlier = 0, could_fit = 0;
	for (uint64_t seed = 1; seed <= 1200; ++seed) {
		plan_random::Random random(seed);
		const auto cpus = static_cast<int32_t>(random.between(2, 24));
		const bool overcommit = random.chance(10);
		int64_t origin_s = 1000;
		ResourceProfile pool(pool_cluster(cpus, false), origin_s);
		ResourceProfile twin(pool_cluster(cpus, true), origin_s);
		const std::vector<Booking> bookings =
		    book_alike(random, pool, twin, cpus, origin_s, overcommit);
		ck_assert(!twin.single_cpu_pool());
		if (!overcommit)
			ck_assert_msg(pool.single_cpu_pool(), "seed %lu",
			              static_cast<unsigned long>(seed));
		in_pool += pool.single_cpu_pool();
		const GapSearch on_pool(pool), on_twin(twin);
		if (random.chance(50)) // else after the searches (which need no node changes)
			check_same_profile(pool, twin, seed);
		for (int step = 0; step < 12; ++step) {
			PendingJob job;
			job.id = static_cast<JobId>(step + 1);
			job.cpus = static_cast<int32_t>(random.between(1, cpus + 1));
			job.limit_s = random.between(1, 200);
			if (random.chance(10)) // the general path on both
				job.memory_per_node_mb = 1000;
			const int64_t from_s = origin_s + random.between(0, 60);
			const int64_t until_s = from_s + random.between(0, 500);
			const int64_t long_limit = random.chance(50) ? -1 : random.between(0, cpus);
			const auto fresh_pool =
			    on_pool.earliest(job, {0}, from_s, until_s, long_limit);
			const auto fresh_twin =
			    on_twin.earliest(job, {0}, from_s, until_s, long_limit);
			ck_assert_msg(same(fresh_pool, fresh_twin), "seed %lu step %d: %ld vs %ld",
			              static_cast<unsigned long>(seed), step, start_of(fresh_pool),
			              start_of(fresh_twin));
			const std::vector<NodeAllocation> allocations{{0, job.cpus, 0, {}}};
			const auto place_pool = on_pool.earliest_in_place(job, allocations, from_s,
			                                                  until_s, long_limit);
			const auto place_twin = on_twin.earliest_in_place(job, allocations, from_s,
			                                                  until_s, long_limit);
			ck_assert_msg(same(place_pool, place_twin), "seed %lu step %d in place",
			              static_cast<unsigned long>(seed), step);
			++searched;
			found += fresh_pool.has_value();
			if (bookings.empty())
				continue;
			// A booking searched again as if given back: from now up to its start.
			const Booking &own = bookings[static_cast<size_t>(
			    random.between(0, static_cast<int64_t>(bookings.size()) - 1))];
			PendingJob own_job = job;
			own_job.cpus = own.allocation.cpus;
			own_job.limit_s = own.end_s - own.start_s;
			const int64_t held_long = own.long_job ? own.allocation.cpus : 0;
			const int64_t own_until_s = std::max(own.start_s, origin_s);
			const auto held_pool = on_pool.earliest_in_place_holding(
			    own_job, {own.allocation}, own.start_s, own.end_s, origin_s,
			    own_until_s, long_limit, held_long);
			const auto held_twin = on_twin.earliest_in_place_holding(
			    own_job, {own.allocation}, own.start_s, own.end_s, origin_s,
			    own_until_s, long_limit, held_long);
			ck_assert_msg(same(held_pool, held_twin),
			              "seed %lu step %d holding: %ld vs %ld",
			              static_cast<unsigned long>(seed), step, start_of(held_pool),
			              start_of(held_twin));
			++held;
			moved_earlier += held_pool && held_pool->start_s < own.start_s;
			// The planner's test before giving a booking back to start it now.
			const int64_t fit_cpus = random.between(1, cpus);
			const int64_t fit_until_s = origin_s + random.between(1, 200);
			const bool fits_pool =
			    could_fit_giving_back(pool, {0}, fit_cpus, origin_s, fit_until_s,
			                          {own.allocation}, own.start_s, own.end_s);
			ck_assert_msg(fits_pool == could_fit_giving_back(
			                               twin, {0}, fit_cpus, origin_s, fit_until_s,
			                               {own.allocation}, own.start_s, own.end_s),
			              "seed %lu step %d could fit",
			              static_cast<unsigned long>(seed), step);
			could_fit += fits_pool;
		}
		check_same_profile(pool, twin, seed);
	}
	// The pool was searched, starts were found, and kept bookings moved earlier.
	ck_assert_uint_gt(in_pool, 900);
	ck_assert_uint_gt(found, searched / 3);
	ck_assert_uint_gt(moved_earlier, held / 10);
	ck_assert_uint_gt(could_fit, held / 10);
	ck_assert_uint_lt(could_fit, held - held / 10);
}
END_TEST

START_TEST(test_pool_ends_with_memory_gres_or_overcommit_until_reset)
{
	const Cluster cluster = pool_cluster(8, false);
	ResourceProfile profile(cluster, 0);
	ck_assert(profile.single_cpu_pool());
	profile.book({{0, 8, 0, {}}}, 0, 100);
	ck_assert(profile.single_cpu_pool()); // full, not over
	profile.book({{0, 1, 0, {}}}, 50, 60);
	ck_assert(!profile.single_cpu_pool()); // over-committed
	profile.release({{0, 1, 0, {}}}, 50, 60);
	ck_assert(!profile.single_cpu_pool()); // until a reset
	profile.reset(cluster, 0);
	ck_assert(profile.single_cpu_pool());
	profile.book({{0, 1, 500, {}}}, 0, 10);
	ck_assert(!profile.single_cpu_pool()); // memory
	profile.reset(cluster, 0);
	NodeAllocation gpu{0, 1, 0, {}};
	gpu.gres[0] = 1;
	profile.book({gpu}, 0, 10);
	ck_assert(!profile.single_cpu_pool()); // GRES
	// Running jobs booked from the origin at once: over-committed there too.
	profile.reset(cluster, 0);
	const std::vector<NodeAllocation> six{{0, 6, 0, {}}};
	profile.book_from_origin({{&six, 50, false}, {&six, 80, false}});
	ck_assert(!profile.single_cpu_pool());
	profile.reset(cluster, 0);
	profile.book_from_origin({{&six, 50, false}});
	ck_assert(profile.single_cpu_pool());
	// A DOWN node is no pool; nor are two nodes.
	Cluster down = cluster;
	down.nodes[0].state = NodeState::down;
	ck_assert(!ResourceProfile(down, 0).single_cpu_pool());
	ck_assert(!ResourceProfile(pool_cluster(8, true), 0).single_cpu_pool());
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_cpu_pool");
	TCase *tc = tcase_create("pool");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_pool_searches_equal_general_ones_random);
	tcase_add_test(tc, test_pool_ends_with_memory_gres_or_overcommit_until_reset);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
