// Releasing unused run-TRES seconds at job end, the accounting priority/basic keeps.
#include "run_tres_release.h"

#include "ctld_lock.h"

#include <vector>

namespace campaign::slurm
{
namespace
{

void subtract_floor_zero(uint64_t *used, const std::vector<uint64_t> &unused, int count)
{
	for (int i = 0; i < count; i++)
		used[i] = unused[i] > used[i] ? 0 : used[i] - unused[i];
}

} // namespace

void release_unused_run_tres(job_record_t *job)
{
	if (!job || !job->tres_alloc_cnt || &slurmctld_tres_cnt == nullptr)
		return;
	const int count = slurmctld_tres_cnt;
	const uint64_t limit_s = static_cast<uint64_t>(job->time_limit) * 60;
	std::vector<uint64_t> unused(count, 0);
	for (int i = 0; i < count; i++)
		if (job->tres_alloc_cnt[i] != NO_CONSUME_VAL64)
			unused[i] = job->tres_alloc_cnt[i] * limit_s;

	AssocLock hold(kWriteAssocQosUsage); // assoc and QOS usage (was: the file and res locks)
	if (job->qos_ptr && job->qos_ptr->usage)
		subtract_floor_zero(job->qos_ptr->usage->grp_used_tres_run_secs, unused, count);
	for (slurmdb_assoc_rec_t *assoc = job->assoc_ptr; assoc && assoc->usage;
	     assoc = assoc->usage->parent_assoc_ptr)
		subtract_floor_zero(assoc->usage->grp_used_tres_run_secs, unused, count);
}

} // namespace campaign::slurm
