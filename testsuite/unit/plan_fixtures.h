// Shared helpers for the plan unit tests: small cluster and job builders. Test code only; the
// brute-force checker lives in plan_checker.h and shares nothing with the planner's search.
#pragma once

#include "plan/planner.h"

#include <check.h>

#include <string>
#include <vector>

namespace plan_fixtures
{

using namespace campaign::plan;

inline Cluster uniform_cluster(int node_count, int32_t cpus, int64_t memory_mb = 64000)
{
	Cluster cluster;
	for (int i = 0; i < node_count; ++i)
		cluster.nodes.push_back({"n" + std::to_string(i), cpus, memory_mb, NodeState::up});
	return cluster;
}

inline PendingJob job(JobId id, int32_t cpus, int64_t limit_s, uint64_t campaign_id = 0)
{
	PendingJob pending;
	pending.id = id;
	pending.cpus = cpus;
	pending.limit_s = limit_s;
	pending.campaign_id = campaign_id;
	return pending;
}

inline RunningJob running(JobId id, NodeIndex node, int32_t cpus, int64_t end_s,
                          int64_t memory_mb = 0)
{
	return RunningJob{id, {{node, cpus, memory_mb}}, end_s};
}

inline PlannerConfig config(ReservationMode mode, int32_t depth = 100000,
                            int64_t horizon_s = 100000)
{
	PlannerConfig result;
	result.mode = mode;
	result.depth = depth;
	result.horizon_s = horizon_s;
	return result;
}

inline PlannedJob status_of(const Planner &planner, JobId id)
{
	for (const PlannedJob &planned : planner.queue())
		if (planned.id == id)
			return planned;
	return PlannedJob{};
}

// A planner rebuilt at t = 0 from this cluster, running set and queue (the rebuild must succeed).
inline Planner planned(const Cluster &cluster, const std::vector<RunningJob> &running,
                       const std::vector<PendingJob> &queue,
                       ReservationMode mode = ReservationMode::conservative)
{
	Planner planner(config(mode));
	auto status = planner.rebuild(cluster, running, queue, 0);
	ck_assert_msg(status.ok(), "%s", status.ok() ? "" : status.error().c_str());
	return planner;
}

} // namespace plan_fixtures
