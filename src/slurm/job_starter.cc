// start_job_now: the start sequence of job_scheduler.c's _schedule(), for one job.
#include "job_starter.h"

#include "allocated_nodes.h"
#include "preemption.h"

#include <algorithm>
#include <ctime>

namespace campaign::slurm
{
namespace
{

enum class Runnable { yes, no, licenses_busy };

// The checks _schedule() makes before select_nodes(), which itself tests neither licenses nor
// these limits.
Runnable runnable_now(job_record_t *job)
{
	if (!IS_JOB_PENDING(job) || job->priority == 0 || job->het_job_id)
		return Runnable::no;
	if (job_limits_check(&job, false) != WAIT_NO_REASON)
		return Runnable::no;
	if ((job->array_task_id != NO_VAL || job->array_recs) && !job_array_start_test(job))
		return Runnable::no;
	if (held_by_qos_or_assoc(job) && !acct_policy_job_runnable_pre_select(job, false))
		return Runnable::no;
	// Several jobs of one pass may each have seen the license free in the snapshot.
	if (license_job_test(job, time(nullptr), true) != SLURM_SUCCESS) {
		job->state_reason = WAIT_LICENSES; // as _schedule() sets it
		xfree(job->state_desc);
		last_job_update = time(nullptr);
		return Runnable::licenses_busy;
	}
	return Runnable::yes;
}

// The nodes and CPUs select_nodes gave a started job (job_resrcs lists them in node order), added
// to `into` node by node (several array tasks of one call sum up).
void add_allocated(const job_record_t *job, std::vector<plan::NodeAllocation> &into)
{
	const job_resources_t *resources = job->job_resrcs;
	if (!resources || !resources->cpus)
		return;
	for_each_allocated_node(resources, [&](int64_t index, int slot) {
		const auto node = static_cast<plan::NodeIndex>(index);
		const auto cpus = static_cast<int32_t>(resources->cpus[slot]);
		auto same_node = [&](const plan::NodeAllocation &given) {
			return given.node == node;
		};
		if (auto found = std::find_if(into.begin(), into.end(), same_node);
		    found != into.end())
			found->cpus += cpus;
		else
			into.push_back({.node = node, .cpus = cpus});
	});
}

int select_and_launch(job_record_t *job)
{
	if (fed_mgr_job_lock(job))
		return ESLURM_FED_JOB_LOCK;
	const int rc = select_nodes_to_start(job);
	if (rc != SLURM_SUCCESS) {
		fed_mgr_job_unlock(job);
		return rc;
	}
	fed_mgr_job_start(job, job->start_time);
	last_job_update = time(nullptr);
	info("sched/campaign: started %pJ in %s on %s", job, job->part_ptr->name, job->nodes);
	power_job_start(job);
	if (job->batch_flag == 0)
		srun_allocate(job);
	else if (!IS_JOB_CONFIGURING(job))
		launch_job(job);
	rebuild_job_part_list(job);
	return rc;
}

} // namespace

StartOutcome start_job_now(job_record_t *job, part_record_t *partition, uint32_t max_starts)
{
	StartOutcome outcome;
	const bool array_head = job->array_recs && job->array_task_id == NO_VAL;
	while (job && outcome.started < max_starts) {
		if (partition)
			job->part_ptr = partition;
		if (const Runnable runnable = runnable_now(job); runnable != Runnable::yes) {
			outcome.rc = ESLURM_NOT_SUPPORTED;
			outcome.licenses_busy = runnable == Runnable::licenses_busy;
			outcome.refusal =
			    outcome.licenses_busy
			        ? "Licenses"
			        : std::string("NotRunnable: ") + reason_name(job->state_reason);
			break;
		}
		outcome.rc = select_and_launch(job);
		if (outcome.rc != SLURM_SUCCESS) {
			outcome.preempting = preemption_under_way(job, outcome.rc, time(nullptr));
			if (!outcome.preempting)
				outcome.refusal = slurm_strerror(outcome.rc);
			break;
		}
		outcome.started++;
		// `job` is now the task started (an array's last task keeps array_recs): read
		// before moving on to the rest of the array.
		add_allocated(job, outcome.allocated);
		// select_nodes split one task off an array record; the rest stays pending under the
		// array's job id (job_scheduler.c's next_task loop).
		if (!array_head || job->array_task_id == NO_VAL)
			break;
		job_record_t *rest = find_job_record(job->array_job_id);
		job = (rest && rest != job && IS_JOB_PENDING(rest)) ? rest : nullptr;
	}
	return outcome;
}

} // namespace campaign::slurm
