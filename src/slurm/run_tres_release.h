// priority_p_job_end's duty, as priority/basic does it: release the unused part of a job's
// time_limit x TRES from its QOS and association chain (GrpTRESRunMins accounting).
#pragma once

#include "slurm_api.h"

namespace campaign::slurm
{

// Called with the job write lock held (acct_policy_job_fini); takes the assoc_mgr locks itself.
void release_unused_run_tres(job_record_t *job);

} // namespace campaign::slurm
