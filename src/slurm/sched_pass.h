// The Slurm side of a sched/campaign pass: what the pass copies out of slurmctld, and how it
// starts, reserves and explains jobs there. Only plain values and plan ids cross this boundary,
// never a Slurm pointer. Every function except the unlocked reads needs kSchedule held.
#pragma once

#include "slurm_api.h"

#include "job_starter.h"
#include "plan_snapshot.h"

#include "plan/plan_types.h"

#include <ctime>
#include <optional>
#include <string>
#include <vector>

namespace campaign::slurm
{

// What crosses the unlocked planning step: plain values only.
struct PassInput {
	PlanInput plan;
	// plan.pending[i]'s partitions by name, one per node set (PlanInput::partitions_of)
	std::vector<std::vector<std::string>> partitions;
	time_t now = 0;
	time_t conf_update = 0; // slurm.conf's last update: a reconfigure renumbers nodes
	uint32_t node_count = 0;
	std::string state_dir;
	// Some node was still completing a job (its epilog not done): its CPUs come free without
	// a change the stamps would show within the second, so the next pass comes sooner.
	bool nodes_completing = false;
};

// Unlocked reads, as sched/backfill's _more_work(): a stale value only delays a pass.
bool scheduling_stopped();
// DebugFlags=BackfillMap: whether the pass logs its plan (read before building the line).
bool plan_map_logged();
// Logs one pass's plan line at BackfillMap.
void log_plan_map(const std::string &line);
// last_job_update and last_node_update change by whole seconds, so a job end in the second of
// the last copy leaves them as they were; sdiag's job end counters (completed, failed,
// cancelled) change with every end.
struct UpdateStamps {
	time_t jobs = 0, nodes = 0;
	uint32_t job_ends = 0;
	bool operator==(const UpdateStamps &) const = default;
};
UpdateStamps update_stamps();

// Forgets every pending job's published estimate, then copies the sorted queue, the nodes and
// the running jobs.
PassInput copy_pass_input();
// True when slurm.conf was re-read or nodes renumbered since `input` was copied.
bool reconfigured_since(const PassInput &input);
// Starts the planned job `id`, found again by id, on the plan's nodes only; nullopt when it
// is no longer a pending job or its partition is gone. shortened_limit_s: 0, or the shorter
// limit the plan gave a --time-min job, which it then runs with.
std::optional<StartOutcome> start_planned(plan::JobId id, const std::string &partition,
                                          const std::vector<plan::NodeAllocation> &allocations,
                                          int64_t shortened_limit_s);
// A pending job's eligibility (the later of its begin and submit times), the moment a ranking
// must have seen for it to be ranked; 0 for a job with an admin-set priority, which no ranking
// lists, or one no longer pending. Read when the pass applies its plan, for the jobs it would
// start only.
int64_t ranking_eligible_s(plan::JobId id);
// Publishes a reserved job's start and nodes (squeue --start); false when it is gone.
bool publish_reservation(plan::JobId id, const plan::PlannedJob &planned);
// Sets a still-pending job's reason from its status in the plan.
void publish_reason(plan::JobId id, plan::JobStatus status);

} // namespace campaign::slurm
