// The profile kept as slot sums and per-node change lists (NodeTimelines) and the gap search's
// sliding per-node minima (WindowMinima), also kept from one search to the next (MinimaCache),
// change nothing: after random books, releases and
// advances, each node's free amounts in each slot are its capacity less the bookings there, the
// slot's usable free CPUs and long jobs' CPUs their sums, and no slot equals the one before; and
// GapSearch::earliest finds the start and nodes that the slot by slot scan it replaced finds (that
// scan kept here as the reference), also on machines whose nodes are busy from now for a while
// (the search takes such a node in only when the window reaches its first free CPUs).
#include "check_main.h"
#include "plan/gap_search.h"
#include "plan/minima_cache.h"
#include "plan/resource_profile.h"
#include "plan_random.h"

#include <limits>

using namespace campaign::plan;

namespace
{

struct Booking {
	std::vector<NodeAllocation> allocations;
	int64_t start_s, end_s;
	bool long_job;
};

// Free amounts of a node at time_s from the bookings alone.
NodeFree free_by_bookings(const Cluster &cluster, const std::vector<Booking> &bookings,
                          NodeIndex node, int64_t time_s)
{
	const NodeSpec &spec = cluster.nodes[node];
	NodeFree free{spec.cpus, spec.memory_mb, spec.gres};
	for (const Booking &booking : bookings)
		if (booking.start_s <= time_s && time_s < booking.end_s)
			for (const NodeAllocation &allocation : booking.allocations)
				if (allocation.node == node) {
					free.cpus -= allocation.cpus;
					free.memory_mb -= allocation.memory_mb;
					for (size_t kind = 0; kind < gres_kinds_max; ++kind)
						free.gres[kind] -= allocation.gres[kind];
				}
	return free;
}

std::vector<NodeAllocation> random_allocations(plan_random::Random &random, const Cluster &cluster)
{
	std::vector<NodeAllocation> allocations;
	for (size_t node = 0; node < cluster.nodes.size(); ++node)
		if (random.chance(50)) {
			NodeAllocation allocation{static_cast<NodeIndex>(node),
			                          static_cast<int32_t>(random.between(1, 4)),
			                          random.between(0, 4) * 1000};
			allocation.gres[0] = static_cast<int32_t>(random.between(0, 2));
			allocations.push_back(allocation);
		}
	return allocations;
}

// Random bookings (over-commits too), some given back, and the origin moved on now and then.
ResourceProfile random_profile(plan_random::Random &random, const Cluster &cluster,
                               int64_t &origin_s, std::vector<Booking> &bookings)
{
	ResourceProfile profile(cluster, origin_s);
	const int64_t operations = random.between(0, 40);
	for (int64_t operation = 0; operation < operations; ++operation) {
		if (!bookings.empty() && random.chance(25)) {
			const size_t index = static_cast<size_t>(
			    random.between(0, static_cast<int64_t>(bookings.size()) - 1));
			profile.release(bookings[index].allocations, bookings[index].start_s,
			                bookings[index].end_s, bookings[index].long_job);
			bookings.erase(bookings.begin() + static_cast<std::ptrdiff_t>(index));
			continue;
		}
		if (random.chance(8)) {
			origin_s += random.between(1, 30);
			profile.advance_to(origin_s);
			continue;
		}
		Booking booking{random_allocations(random, cluster),
		                origin_s + random.between(0, 60), 0};
		booking.end_s =
		    random.chance(10) ? never_s : booking.start_s + random.between(1, 80);
		profile.book(booking.allocations, booking.start_s, booking.end_s, booking.long_job);
		bookings.push_back(std::move(booking));
	}
	return profile;
}

// The search as it was before the index: every slot of the window on every candidate.
std::optional<Placement> reference_earliest(const ResourceProfile &profile, const PendingJob &job,
                                            const std::vector<NodeIndex> &candidates,
                                            int64_t from_s, int64_t until_s)
{
	if (candidates.empty() || job.limit_s <= 0)
		return std::nullopt;
	for (int64_t start_s = std::max(from_s, profile.origin_s()); start_s <= until_s;) {
		const int64_t end_s = start_s + job.limit_s;
		std::vector<int32_t> available(candidates.size(),
		                               std::numeric_limits<int32_t>::max());
		std::vector<int64_t> last_minimum_end(candidates.size(), never_s);
		for (size_t slot = profile.slot_at(start_s);
		     slot < profile.slot_count() && profile.slot_start_s(slot) < end_s; ++slot)
			for (size_t i = 0; i < candidates.size(); ++i) {
				const int32_t cpus =
				    usable_cpus(job, profile.free(slot, candidates[i]),
				                profile.capacity(candidates[i]));
				if (cpus <= available[i]) {
					available[i] = cpus;
					last_minimum_end[i] = profile.slot_end_s(slot);
				}
			}
		auto allocations = choose_nodes(job, candidates, available, profile);
		if (!allocations.empty())
			return Placement{start_s, std::move(allocations)};
		int64_t next_start_s = never_s;
		for (size_t i = 0; i < candidates.size(); ++i) {
			const NodeFree &capacity = profile.capacity(candidates[i]);
			if (available[i] < usable_cpus(job, capacity, capacity))
				next_start_s = std::min(next_start_s, last_minimum_end[i]);
		}
		if (next_start_s <= start_s)
			break;
		start_s = next_start_s;
	}
	return std::nullopt;
}

// A machine of 5-40 nodes, most busy from the origin with all their CPUs until a random end
// (some never free, some filled again later), then random bookings as random_profile's:
// NodeTimelines::by_free_from orders such nodes by their first free CPUs.
ResourceProfile busy_profile(plan_random::Random &random, const Cluster &cluster, int64_t origin_s)
{
	ResourceProfile profile(cluster, origin_s);
	for (size_t node = 0; node < cluster.nodes.size(); ++node) {
		if (!random.chance(75))
			continue;
		const NodeSpec &spec = cluster.nodes[node];
		NodeAllocation whole{static_cast<NodeIndex>(node),
		                     spec.cpus + (random.chance(10) ? 1 : 0), // over-committed
		                     random.between(0, 2) * 1000};
		const int64_t end_s =
		    random.chance(5) ? never_s : origin_s + random.between(1, 120);
		profile.book({whole}, origin_s, end_s);
		if (end_s != never_s && random.chance(30)) // busy again later
			profile.book({whole}, end_s + random.between(0, 60),
			             end_s + random.between(61, 200));
	}
	for (int64_t booked = random.between(0, 15); booked > 0; --booked) {
		std::vector<NodeAllocation> allocations = random_allocations(random, cluster);
		const int64_t start_s = origin_s + random.between(0, 150);
		profile.book(allocations, start_s, start_s + random.between(1, 100));
	}
	return profile;
}

// 5 to 40 nodes, each of random_cluster's shapes (the node seeded apart from `random`, so a
// node's shape does not depend on the draws before it).
Cluster many_node_cluster(plan_random::Random &random, uint64_t seed)
{
	Cluster cluster;
	for (int64_t count = random.between(5, 40);
	     cluster.nodes.size() < static_cast<size_t>(count);) {
		plan_random::Random node_random(seed * 100 + cluster.nodes.size());
		Cluster one = plan_random::random_cluster(node_random);
		cluster.nodes.push_back(one.nodes.front());
		cluster.nodes.back().name = "n" + std::to_string(cluster.nodes.size());
	}
	return cluster;
}

// The usable nodes, each kept with 85 % chance: a search's candidates.
std::vector<NodeIndex> random_candidates(plan_random::Random &random,
                                         const ResourceProfile &profile, const Cluster &cluster)
{
	std::vector<NodeIndex> candidates;
	for (size_t node = 0; node < cluster.nodes.size(); ++node)
		if (profile.usable(static_cast<NodeIndex>(node)) && random.chance(85))
			candidates.push_back(static_cast<NodeIndex>(node));
	return candidates;
}

bool same_placement(const std::optional<Placement> &expected,
                    const std::optional<Placement> &actual)
{
	if (expected.has_value() != actual.has_value())
		return false;
	if (!expected)
		return true;
	if (expected->start_s != actual->start_s ||
	    expected->allocations.size() != actual->allocations.size())
		return false;
	for (size_t k = 0; k < expected->allocations.size(); ++k)
		if (!(expected->allocations[k] == actual->allocations[k]))
			return false;
	return true;
}

} // namespace

START_TEST(test_profile_free_equals_bookings_random)
{
	size_t checked = 0;
	for (uint64_t seed = 1; seed <= 400; ++seed) {
		plan_random::Random random(seed);
		const Cluster cluster = plan_random::random_cluster(random);
		int64_t origin_s = 1000;
		std::vector<Booking> bookings;
		const ResourceProfile profile = random_profile(random, cluster, origin_s, bookings);
		for (size_t slot = 0; slot < profile.slot_count(); ++slot) {
			// The slot's sums, and a slot only where something changes (merged
			// otherwise).
			int64_t usable_free_cpus = 0;
			bool differs =
			    slot == 0 || profile.long_cpus(slot) != profile.long_cpus(slot - 1);
			for (size_t node = 0; node < cluster.nodes.size(); ++node) {
				const auto index = static_cast<NodeIndex>(node);
				if (profile.usable(index))
					usable_free_cpus +=
					    std::max(profile.free(slot, index).cpus, 0);
				differs |= slot > 0 && !(profile.free(slot, index) ==
				                         profile.free(slot - 1, index));
			}
			ck_assert_int_eq(profile.usable_free_cpus(slot), usable_free_cpus);
			ck_assert_msg(differs, "seed %lu: slot %zu same as the one before",
			              static_cast<unsigned long>(seed), slot);
			int64_t long_cpus = 0;
			for (const Booking &booking : bookings)
				if (booking.long_job &&
				    booking.start_s <= profile.slot_start_s(slot) &&
				    profile.slot_start_s(slot) < booking.end_s)
					for (const NodeAllocation &allocation : booking.allocations)
						long_cpus += allocation.cpus;
			ck_assert_int_eq(profile.long_cpus(slot), long_cpus);
			for (size_t node = 0; node < cluster.nodes.size(); ++node) {
				const auto index = static_cast<NodeIndex>(node);
				const int64_t at_s = profile.slot_start_s(slot);
				ck_assert_msg(profile.free(slot, index) ==
				                  free_by_bookings(cluster, bookings, index, at_s),
				              "seed %lu: node %zu at %ld",
				              static_cast<unsigned long>(seed), node,
				              static_cast<long>(at_s));
				const auto &changes = profile.timelines().changes(index);
				const auto &change =
				    changes[NodeTimelines::change_at(changes, at_s)];
				ck_assert(change.free == profile.free(slot, index));
				++checked;
			}
		}
	}
	ck_assert_uint_gt(checked, 1000);
}
END_TEST

START_TEST(test_gap_search_equals_slot_scan_random)
{
	size_t found = 0, searched = 0;
	for (uint64_t seed = 1; seed <= 1500; ++seed) {
		plan_random::Random random(seed);
		const Cluster cluster = plan_random::random_cluster(random);
		int64_t origin_s = 1000;
		std::vector<Booking> bookings;
		const ResourceProfile profile = random_profile(random, cluster, origin_s, bookings);
		std::vector<NodeIndex> candidates;
		for (size_t node = 0; node < cluster.nodes.size(); ++node)
			if (profile.usable(static_cast<NodeIndex>(node)) && random.chance(80))
				candidates.push_back(static_cast<NodeIndex>(node));
		for (int job_index = 0; job_index < 6; ++job_index) {
			const PendingJob job = plan_random::random_pending(
			    random, static_cast<JobId>(job_index + 1), cluster.nodes.size());
			const int64_t from_s = origin_s + random.between(0, 40);
			const int64_t until_s = from_s + random.between(0, 200);
			const auto expected =
			    reference_earliest(profile, job, candidates, from_s, until_s);
			const auto actual =
			    GapSearch(profile).earliest(job, candidates, from_s, until_s);
			++searched;
			ck_assert_msg(expected.has_value() == actual.has_value(), "seed %lu job %d",
			              static_cast<unsigned long>(seed), job_index);
			if (!expected)
				continue;
			++found;
			ck_assert_msg(expected->start_s == actual->start_s,
			              "seed %lu job %d: %ld vs %ld",
			              static_cast<unsigned long>(seed), job_index,
			              static_cast<long>(expected->start_s),
			              static_cast<long>(actual->start_s));
			ck_assert_uint_eq(expected->allocations.size(), actual->allocations.size());
			for (size_t k = 0; k < expected->allocations.size(); ++k) {
				ck_assert_int_eq(expected->allocations[k].node,
				                 actual->allocations[k].node);
				ck_assert_int_eq(expected->allocations[k].cpus,
				                 actual->allocations[k].cpus);
			}
		}
	}
	ck_assert_uint_gt(found, searched / 4); // the searches find starts, not only nothing
}
END_TEST

// Nodes asleep at the window's start (busy with all their CPUs from now): the search wakes them
// as windows reach their free CPUs, and finds what the slot scan finds; the index by first free
// CPUs stays right through books, releases and advances.
START_TEST(test_gap_search_with_busy_nodes_equals_slot_scan_random)
{
	size_t found = 0, searched = 0, later = 0;
	for (uint64_t seed = 1; seed <= 800; ++seed) {
		plan_random::Random random(seed);
		const Cluster cluster = many_node_cluster(random, seed);
		int64_t origin_s = 1000;
		ResourceProfile profile = busy_profile(random, cluster, origin_s);
		if (random.chance(30)) {
			origin_s += random.between(1, 50);
			profile.advance_to(origin_s);
		}
		// The index: every node once, at the start of its first change with free CPUs.
		const NodeTimelines::ByFreeFrom &by_free_from = profile.timelines().by_free_from();
		ck_assert_uint_eq(by_free_from.size(), cluster.nodes.size());
		for (const auto &[free_from_s, node] : by_free_from) {
			int64_t expected_s = never_s;
			for (const NodeTimelines::Change &change :
			     profile.timelines().changes(node))
				if (change.free.cpus > 0) {
					expected_s = change.start_s;
					break;
				}
			ck_assert_msg(free_from_s == expected_s, "seed %lu node %d",
			              static_cast<unsigned long>(seed), node);
		}
		const std::vector<NodeIndex> candidates =
		    random_candidates(random, profile, cluster);
		for (int job_index = 0; job_index < 8; ++job_index) {
			PendingJob job = plan_random::random_pending(
			    random, static_cast<JobId>(job_index + 1), cluster.nodes.size());
			job.cpus = static_cast<int32_t>(random.between(1, 24));
			job.limit_s = random.between(1, 150);
			const int64_t from_s =
			    origin_s + (random.chance(60) ? 0 : random.between(0, 100));
			const int64_t until_s = from_s + random.between(0, 400);
			const auto expected =
			    reference_earliest(profile, job, candidates, from_s, until_s);
			const auto actual =
			    GapSearch(profile).earliest(job, candidates, from_s, until_s);
			++searched;
			ck_assert_msg(same_placement(expected, actual),
			              "seed %lu job %d: start %ld vs %ld",
			              static_cast<unsigned long>(seed), job_index,
			              static_cast<long>(expected ? expected->start_s : -1),
			              static_cast<long>(actual ? actual->start_s : -1));
			found += expected.has_value();
			later += expected && expected->start_s > from_s;
		}
	}
	// Starts found, many of them after a node woke up (not at the first window).
	ck_assert_uint_gt(found, searched / 3);
	ck_assert_uint_gt(later, found / 4);
}
END_TEST

// Minima kept from one search to the next (MinimaCache) find what new ones find, and what the
// slot by slot scan finds, through bookings of the found starts between the searches (the
// profile only gains load, as in a pass), and after a release or an advance (a new epoch).
// Jobs of a few shapes of one key (other CPU counts) search from their last start or from
// anywhere, so the kept minima are taken, refreshed and passed over.
START_TEST(test_kept_minima_equal_new_ones_random)
{
	size_t searched = 0, found = 0, reused = 0;
	for (uint64_t seed = 1; seed <= 300; ++seed) {
		plan_random::Random random(seed);
		const Cluster cluster = many_node_cluster(random, seed);
		int64_t origin_s = 1000;
		ResourceProfile profile = busy_profile(random, cluster, origin_s);
		const std::vector<NodeIndex> candidates =
		    random_candidates(random, profile, cluster);
		std::vector<PendingJob> shapes;
		std::vector<int64_t> last_start_s;
		for (int shape = 0; shape < 3; ++shape) {
			shapes.push_back(plan_random::random_pending(
			    random, static_cast<JobId>(shape + 1), cluster.nodes.size()));
			shapes.back().limit_s = random.between(1, 150);
			last_start_s.push_back(origin_s);
		}
		std::vector<Booking> booked;
		MinimaCache cache;
		for (int step = 0; step < 40; ++step) {
			const size_t shape = static_cast<size_t>(random.between(0, 2));
			PendingJob job = shapes[shape];
			job.cpus = static_cast<int32_t>(random.between(1, 24));
			const int64_t from_s = random.chance(70)
			                           ? last_start_s[shape]
			                           : origin_s + random.between(0, 100);
			const int64_t until_s = from_s + random.between(0, 400);
			const auto expected =
			    reference_earliest(profile, job, candidates, from_s, until_s);
			const auto fresh =
			    GapSearch(profile).earliest(job, candidates, from_s, until_s);
			const auto kept = GapSearch(profile).earliest(job, candidates, from_s,
			                                              until_s, -1, &cache);
			++searched;
			ck_assert_msg(same_placement(expected, fresh) &&
			                  same_placement(fresh, kept),
			              "seed %lu step %d: start %ld, new %ld, kept %ld",
			              static_cast<unsigned long>(seed), step,
			              static_cast<long>(expected ? expected->start_s : -1),
			              static_cast<long>(fresh ? fresh->start_s : -1),
			              static_cast<long>(kept ? kept->start_s : -1));
			if (!kept)
				continue;
			++found;
			last_start_s[shape] = kept->start_s;
			booked.push_back(
			    {kept->allocations, kept->start_s, kept->start_s + job.limit_s, false});
			profile.book(booked.back().allocations, booked.back().start_s,
			             booked.back().end_s);
			if (random.chance(8)) { // a release: kept minima are dropped
				const Booking &back = booked.front();
				profile.release(back.allocations, back.start_s, back.end_s);
				booked.erase(booked.begin());
			} else if (random.chance(4)) {
				origin_s += random.between(1, 20);
				profile.advance_to(origin_s);
				for (int64_t &start_s : last_start_s)
					start_s = std::max(start_s, origin_s);
			}
		}
		reused += cache.reused();
	}
	ck_assert_uint_gt(found, searched / 3);
	ck_assert_uint_gt(reused, searched / 2); // most searches took kept minima
}
END_TEST

int main()
{
	Suite *suite = suite_create("plan_gap_index");
	TCase *tc = tcase_create("index");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_profile_free_equals_bookings_random);
	tcase_add_test(tc, test_gap_search_equals_slot_scan_random);
	tcase_add_test(tc, test_gap_search_with_busy_nodes_equals_slot_scan_random);
	tcase_add_test(tc, test_kept_minima_equal_new_ones_random);
	suite_add_tcase(suite, tc);
	return run_suite(suite);
}
