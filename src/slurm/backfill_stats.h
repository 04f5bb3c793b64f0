// sdiag's "Backfilling stats" for sched/campaign: the same diag_stats_t fields sched/backfill
// fills. Caller holds the job write lock.
#pragma once

#include "slurm_api.h"

namespace campaign::slurm
{

struct CycleFigures {
	uint32_t cycle_us = 0;     // wall time of the planning cycle, lock waits excluded
	uint32_t queue_length = 0; // pending (job, partition) records considered
	uint32_t depth_tried = 0;  // records tested for a start or a reservation
	uint32_t jobs_started = 0;
	uint32_t plan_records = 0; // size of the plan (reservations held)
};

void record_cycle(const CycleFigures &figures);

// A cycle marked running (bf_active: purge_old_job is skipped while set), as backfill does, from
// construction until end() or destruction; the end wakes whoever waits for the cycle to end
// (26.05's shutdown and reconfigure sleep until then). A guard, so that an exception inside a
// pass cannot leave bf_active set, or 26.05's slurmctld would never finish a shutdown or a
// reconfigure.
class ActiveCycle
{
public:
	ActiveCycle();
	~ActiveCycle() { end(); }
	ActiveCycle(const ActiveCycle &) = delete;
	ActiveCycle &operator=(const ActiveCycle &) = delete;
	void end();

private:
	bool active_ = true;
};

} // namespace campaign::slurm
