// Writing priorities into slurmctld's job records: at submit (Slurm's call, job write lock held)
// and after a ranking pass (takes the job write lock itself, finds each job again by id).
#pragma once

#include "slurm_api.h"

#include <cstdint>
#include <vector>

namespace campaign::slurm
{

// The priority of a job Slurm is submitting or updating (caller holds the job write lock): an
// administrator's value stays; a job we ranked keeps its rank, with today's nice; any other job
// goes below every ranked job until the next pass ranks it. Also fills sprio's factors.
uint32_t priority_at_submit(job_record_t *job, uint32_t last_priority);

// Writes the ranking (job ids, best first) into the jobs still pending, unheld and not set by an
// administrator since the snapshot; returns how many priorities changed.
size_t write_ranked_priorities(const std::vector<uint32_t> &order);

} // namespace campaign::slurm
