// Random planner instances for the property tests: a small cluster, running jobs that fit it,
// and a ranked queue of mixed jobs. Deterministic (own generator, fixed seeds). Test code only.
#pragma once

#include "plan/plan_types.h"

#include <cstdint>
#include <vector>

namespace plan_random
{

using namespace campaign::plan;

class Random
{
public:
	explicit Random(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
	uint64_t next()
	{
		state_ ^= state_ << 13;
		state_ ^= state_ >> 7;
		state_ ^= state_ << 17;
		return state_;
	}
	int64_t between(int64_t low, int64_t high) // inclusive
	{
		return low + static_cast<int64_t>(next() % static_cast<uint64_t>(high - low + 1));
	}
	bool chance(int percent) { return between(1, 100) <= percent; }

private:
	uint64_t state_;
};

struct Instance {
	Cluster cluster;
	std::vector<RunningJob> running;
	std::vector<PendingJob> pending;
	PlannerConfig config;
};

inline PendingJob random_pending(Random &random, JobId id, size_t node_count)
{
	PendingJob job;
	job.id = id;
	job.cpus = static_cast<int32_t>(random.between(1, 8));
	job.nodes_min = static_cast<int32_t>(random.between(0, 2));
	if (random.chance(20))
		job.nodes_max = std::max<int32_t>(1, job.nodes_min);
	if (random.chance(30))
		job.memory_per_node_mb = random.between(1, 4) * 1000;
	if (random.chance(20))
		job.memory_per_cpu_mb = random.between(1, 3) * 500;
	job.limit_s = random.between(5, 80);
	if (random.chance(30)) {
		std::vector<NodeIndex> allowed;
		for (size_t node = 0; node < node_count; ++node)
			if (random.chance(60))
				allowed.push_back(static_cast<NodeIndex>(node));
		job.allowed_nodes = std::move(allowed);
	}
	job.exclusive = random.chance(12);
	if (random.chance(8)) { // Slurm's --mem=0: all of each node's memory, nothing else
		job.all_memory = true;
		job.memory_per_node_mb = job.memory_per_cpu_mb = 0;
	}
	job.campaign_id = static_cast<uint64_t>(random.between(0, 3));
	if (random.chance(25)) // GPUs per node, some of one type (kind 1)
		job.gres_per_node[0] = static_cast<int32_t>(random.between(1, 3));
	if (random.chance(10))
		job.gres_per_node[1] = job.gres_per_node[0] =
		    std::max<int32_t>(1, job.gres_per_node[0]);
	return job;
}

inline Cluster random_cluster(Random &random)
{
	Cluster cluster;
	const int64_t node_count = random.between(1, 5);
	for (int64_t i = 0; i < node_count; ++i) {
		NodeSpec node{"n" + std::to_string(i),
		              static_cast<int32_t>(2 << random.between(0, 2)),
		              random.between(1, 2) * 8000, NodeState::up};
		if (random.chance(8))
			node.state = random.chance(50) ? NodeState::down : NodeState::drain;
		if (random.chance(60)) { // GPUs (kind 0), all of one type (kind 1) on some nodes
			node.gres[0] = static_cast<int32_t>(random.between(1, 4));
			if (random.chance(50))
				node.gres[1] = node.gres[0];
		}
		cluster.nodes.push_back(node);
	}
	return cluster;
}

inline std::vector<RunningJob> random_running(Random &random, const Cluster &cluster, int64_t now_s,
                                              JobId &next_id)
{
	std::vector<RunningJob> running;
	for (size_t node = 0; node < cluster.nodes.size(); ++node) {
		int32_t cpus_left = cluster.nodes[node].cpus;
		int64_t memory_left = cluster.nodes[node].memory_mb;
		GresCounts gres_left = cluster.nodes[node].gres;
		while (cpus_left > 0 && random.chance(55)) {
			const auto cpus = static_cast<int32_t>(random.between(1, cpus_left));
			const int64_t memory = random.between(0, memory_left / 1000) * 1000;
			GresCounts gres{};
			gres[0] = static_cast<int32_t>(random.between(0, gres_left[0]));
			if (gres_left[1] > 0) // a typed node: its GPUs are of that type
				gres[1] = gres[0];
			running.push_back(
			    RunningJob{next_id++,
			               {{static_cast<NodeIndex>(node), cpus, memory, gres}},
			               now_s + random.between(1, 100)});
			for (size_t kind = 0; kind < gres_kinds_max; ++kind)
				gres_left[kind] -= gres[kind];
			cpus_left -= cpus;
			memory_left -= memory;
		}
	}
	return running;
}

inline PlannerConfig random_config(Random &random)
{
	PlannerConfig config;
	config.mode = static_cast<ReservationMode>(random.between(0, 3));
	config.depth = random.chance(50) ? static_cast<int32_t>(random.between(1, 4)) : 100000;
	config.horizon_s = random.between(40, 400);
	config.refusal_hold_s = random.between(1, 30);
	config.compress_search_depth = static_cast<int32_t>(random.between(0, 3));
	return config;
}

inline Instance random_instance(uint64_t seed, int64_t now_s)
{
	Random random(seed);
	Instance instance;
	instance.cluster = random_cluster(random);
	JobId next_id = 1000;
	instance.running = random_running(random, instance.cluster, now_s, next_id);
	const int64_t pending_count = random.between(1, 14);
	for (int64_t i = 0; i < pending_count; ++i)
		instance.pending.push_back(random_pending(random, static_cast<JobId>(i + 1),
		                                          instance.cluster.nodes.size()));
	instance.config = random_config(random);
	return instance;
}

} // namespace plan_random
