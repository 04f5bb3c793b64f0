// Starting a pending job now through Slurm's own allocation path (select_nodes), as the main
// scheduler does: federation lock, launch or srun allocation, array task splitting.
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"

#include <string>
#include <vector>

namespace campaign::slurm
{

struct StartOutcome {
	int rc = SLURM_SUCCESS;     // select_nodes' answer for the last task tried
	uint32_t started = 0;       // jobs (array tasks count one each) started
	bool licenses_busy = false; // not started: its licenses are taken (rc ESLURM_NOT_SUPPORTED)
	// Not started yet: select_nodes preempted for it (or its preemption is still under way)
	// and answered ESLURM_NODES_BUSY while the preemptees are removed. Progress, not a refusal.
	bool preempting = false;
	// Not tried in this pass: a planned node is still completing a job (its epilog) or
	// resuming, where select_nodes would answer busy; as backfill.c, it waits a second.
	bool nodes_completing = false;
	// Not started: why, as a metric's reason: select_nodes' error text, or the pre-start check
	// that failed ("Licenses", "NotRunnable: " and the job's pending reason).
	std::string refusal;
	// Started: the nodes and CPUs select_nodes gave it, every task started summed per node
	// (memory and GRES left 0); within the plan's nodes, they may differ from the plan's.
	std::vector<plan::NodeAllocation> allocated;
};

// Caller holds kSchedule locks. Starts `job` in `partition`; for a pending array record, starts
// as many tasks as fit (up to `max_starts`). Never keeps the pointer after returning.
StartOutcome start_job_now(job_record_t *job, part_record_t *partition, uint32_t max_starts);

} // namespace campaign::slurm
