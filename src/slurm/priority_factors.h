// sprio support: keeps job_ptr->prio_factors so that sprio's client-side sum equals the
// priority we set, and builds the filtered list sprio asks for. Slurm memory via xmalloc only.
#pragma once

#include "slurm_api.h"

namespace campaign::slurm {

// Sets job->prio_factors so sprio's PRIORITY column equals `priority`; the value is carried by
// the factor columns (age = campaign score, site = remainder), never by direct_prio.
void set_priority_factors(job_record_t *job, uint32_t priority, uint32_t campaign_score);

// The sprio RPC body (22.05: called without locks; takes job/node/part read locks itself).
List priority_factors_list(priority_factors_request_msg_t *request, uid_t uid);

} // namespace campaign::slurm
