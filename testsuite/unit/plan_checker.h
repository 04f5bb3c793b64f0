// Independent brute-force checker for plans: recomputes node usage at every event time and
// tries every candidate start by exhaustion. Test code only; shares no search code with plan/.
#pragma once

#include "plan/plan_types.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace plan_checker
{

using namespace campaign::plan;

struct Booking {
	int64_t start_s;
	int64_t end_s;
	std::vector<NodeAllocation> allocations;
};

// First over-commitment found (CPUs or memory of a node at some time >= now), or "".
inline std::string overcommit(const Cluster &cluster, const std::vector<Booking> &bookings,
                              int64_t now_s)
{
	std::set<int64_t> times{now_s};
	for (const Booking &booking : bookings)
		if (booking.start_s >= now_s)
			times.insert(booking.start_s);
	for (int64_t t : times) {
		std::vector<int64_t> cpus(cluster.nodes.size(), 0), memory(cluster.nodes.size(), 0);
		std::vector<GresCounts> gres(cluster.nodes.size(), GresCounts{});
		for (const Booking &booking : bookings) {
			if (booking.start_s > t || booking.end_s <= t)
				continue;
			for (const NodeAllocation &allocation : booking.allocations) {
				cpus[allocation.node] += allocation.cpus;
				memory[allocation.node] += allocation.memory_mb;
				for (size_t kind = 0; kind < gres_kinds_max; ++kind)
					gres[allocation.node][kind] += allocation.gres[kind];
			}
		}
		for (size_t node = 0; node < cluster.nodes.size(); ++node) {
			if (cpus[node] > cluster.nodes[node].cpus ||
			    memory[node] > cluster.nodes[node].memory_mb)
				return "node " + std::to_string(node) +
				       " over-committed at t=" + std::to_string(t) + ": " +
				       std::to_string(cpus[node]) + " CPUs, " +
				       std::to_string(memory[node]) + " MB";
			for (size_t kind = 0; kind < gres_kinds_max; ++kind)
				if (gres[node][kind] > cluster.nodes[node].gres[kind])
					return "node " + std::to_string(node) +
					       " over-committed at t=" + std::to_string(t) + ": " +
					       std::to_string(gres[node][kind]) + " of GRES kind " +
					       std::to_string(kind);
		}
	}
	return "";
}

// CPUs the job could hold on `node` during all of [start_s, start_s + limit), by exhaustion.
inline int64_t node_room(const Cluster &cluster, const std::vector<Booking> &bookings,
                         const PendingJob &job, size_t node, int64_t start_s)
{
	const NodeSpec &spec = cluster.nodes[node];
	if (spec.state != NodeState::up)
		return 0;
	if (!job.allowed_nodes.empty() &&
	    std::find(job.allowed_nodes.begin(), job.allowed_nodes.end(), node) ==
	        job.allowed_nodes.end())
		return 0;
	const int64_t end_s = start_s + job.limit_s;
	std::set<int64_t> times{start_s};
	for (const Booking &booking : bookings)
		if (booking.start_s > start_s && booking.start_s < end_s)
			times.insert(booking.start_s);
	int64_t room = spec.cpus;
	for (int64_t t : times) {
		int64_t cpus = spec.cpus, memory = spec.memory_mb;
		GresCounts gres = spec.gres;
		for (const Booking &booking : bookings)
			if (booking.start_s <= t && t < booking.end_s)
				for (const NodeAllocation &allocation : booking.allocations)
					if (static_cast<size_t>(allocation.node) == node) {
						cpus -= allocation.cpus;
						memory -= allocation.memory_mb;
						for (size_t kind = 0; kind < gres_kinds_max; ++kind)
							gres[kind] -= allocation.gres[kind];
					}
		bool gres_enough = true;
		for (size_t kind = 0; kind < gres_kinds_max; ++kind)
			gres_enough =
			    gres_enough && (job.exclusive ? spec.gres[kind] : gres[kind]) >=
			                       job.gres_per_node[kind];
		int64_t here;
		if (!gres_enough)
			here = 0;
		else if (job.exclusive)
			here = (cpus == spec.cpus && memory == spec.memory_mb && gres == spec.gres)
			           ? spec.cpus
			           : 0;
		else if (job.all_memory) // every MB of the node: nobody else's memory on it
			here = memory == spec.memory_mb ? cpus : 0;
		else if (memory < job.memory_per_node_mb)
			here = 0;
		else if (job.memory_per_cpu_mb > 0)
			here = std::min(cpus,
			                (memory - job.memory_per_node_mb) / job.memory_per_cpu_mb);
		else
			here = cpus;
		room = std::min(room, std::max<int64_t>(here, 0));
	}
	return room;
}

// Does some choice of nodes hold the job at start_s? (enough CPUs on few enough nodes)
inline bool fits_at(const Cluster &cluster, const std::vector<Booking> &bookings,
                    const PendingJob &job, int64_t start_s)
{
	std::vector<int64_t> rooms;
	for (size_t node = 0; node < cluster.nodes.size(); ++node)
		if (int64_t room = node_room(cluster, bookings, job, node, start_s); room > 0)
			rooms.push_back(room);
	std::sort(rooms.rbegin(), rooms.rend());
	const int64_t cpus = std::max(job.cpus, job.nodes_min);
	const size_t nodes_needed = static_cast<size_t>(std::max(job.nodes_min, 1));
	size_t used = 0;
	int64_t covered = 0;
	while (used < rooms.size() && covered < cpus)
		covered += rooms[used++];
	used = std::max(used, nodes_needed);
	if (covered < cpus || used > rooms.size())
		return false;
	return job.nodes_max <= 0 || used <= static_cast<size_t>(job.nodes_max);
}

// Earliest start in [now, until] by trying now and every booking end (the only times at
// which room can grow).
inline int64_t earliest_fit(const Cluster &cluster, const std::vector<Booking> &bookings,
                            const PendingJob &job, int64_t now_s, int64_t until_s)
{
	std::set<int64_t> candidates{now_s};
	for (const Booking &booking : bookings)
		if (booking.end_s > now_s && booking.end_s <= until_s)
			candidates.insert(booking.end_s);
	for (int64_t t : candidates)
		if (fits_at(cluster, bookings, job, t))
			return t;
	return never_s;
}

// Shape errors of one placement: node allowed and up, CPUs, memory rule, node counts.
inline std::string placement_error(const Cluster &cluster, const PendingJob &job,
                                   const std::vector<NodeAllocation> &allocations)
{
	const std::string who = "job " + std::to_string(job.id) + ": ";
	int64_t cpus = 0;
	for (const NodeAllocation &allocation : allocations) {
		const NodeSpec &spec = cluster.nodes[allocation.node];
		if (spec.state != NodeState::up)
			return who + "placed on a node that is not up";
		if (!job.allowed_nodes.empty() &&
		    std::find(job.allowed_nodes.begin(), job.allowed_nodes.end(),
		              allocation.node) == job.allowed_nodes.end())
			return who + "placed on a node it may not use";
		if (allocation.cpus <= 0)
			return who + "empty allocation";
		const int64_t memory =
		    job.exclusive || job.all_memory
		        ? spec.memory_mb
		        : job.memory_per_node_mb + job.memory_per_cpu_mb * allocation.cpus;
		if (allocation.memory_mb != memory ||
		    (job.exclusive && allocation.cpus != spec.cpus))
			return who + "wrong memory or CPUs on a node";
		if (allocation.gres != (job.exclusive ? spec.gres : job.gres_per_node))
			return who + "wrong GRES on a node";
		cpus += allocation.cpus;
	}
	const int64_t wanted = std::max(job.cpus, job.nodes_min);
	if (job.exclusive ? cpus < wanted : cpus != wanted)
		return who + "wrong CPU total";
	if (allocations.size() < static_cast<size_t>(std::max(job.nodes_min, 1)) ||
	    (job.nodes_max > 0 && allocations.size() > static_cast<size_t>(job.nodes_max)))
		return who + "wrong node count";
	return "";
}

} // namespace plan_checker
