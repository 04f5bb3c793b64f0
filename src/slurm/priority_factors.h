// sprio support: keeps job_ptr->prio_factors so that sprio's client-side sum equals the
// priority we set, and builds the filtered list sprio asks for. Slurm memory via xmalloc only.
#pragma once

#include "slurm_api.h"

#include <optional>

namespace campaign::slurm
{

// Sets job->prio_factors so sprio's PRIORITY column equals `priority`; the value is carried by
// the factor columns (age = campaign score, site = remainder), never by direct_prio.
void set_priority_factors(job_record_t *job, uint32_t priority, uint32_t campaign_score);

// What Slurm subtracts from a computed priority for the job's nice: nice - NICE_OFFSET.
int64_t nice_of(const job_record_t *job);

// The campaign score sprio shows for a job we ranked (its AGE column), or 0.
uint32_t campaign_score_of(const job_record_t *job);

// The rank value behind the job's current priority when that priority is still the one we
// published (factors ours and summing to it); nothing when an administrator set it since, the job
// was held, or it was never ranked.
std::optional<int64_t> ranked_priority_of(const job_record_t *job);

#if SC_SLURM_24
// The sprio RPC body (24.11: called with job/node/part read locks held; sprio filters itself).
list_t *priority_factors_list(uid_t uid);
#else
// The sprio RPC body (22.05: called without locks; takes job/node/part read locks itself).
list_t *priority_factors_list(priority_factors_request_msg_t *request, uid_t uid);
#endif

} // namespace campaign::slurm
