// sched/campaign's calls into slurmctld: the queue copy, starts on the plan's nodes, and the
// estimates and reasons squeue shows. Jobs are always found again by id.
#include "sched_pass.h"

#include "dependency_snapshot.h"

#include "runtime/priority_plugin_parameters.h"

#include <algorithm>

namespace campaign::slurm
{
namespace
{

// Starts `job` on the plan's nodes: the other nodes are excluded for the call, as
// sched/backfill's _start_job does, then the job's own exclusions are put back.
// --time-min, as sched/backfill: the job runs with the shorter limit the plan found room for
// (whole minutes); a refused start gives it its own limit back.
StartOutcome start_shortened(job_record_t *job, part_record_t *partition, int64_t shortened_limit_s)
{
	const uint32_t own_limit = job->time_limit;
	const auto minutes = static_cast<uint32_t>(shortened_limit_s / 60);
	job->time_limit = minutes;
	StartOutcome outcome = start_job_now(job, partition, 1);
	if (!outcome.started)
		job->time_limit = own_limit;
	else
		info("sched/campaign: %pJ time limit %u -> %u minutes (--time-min)", job, own_limit,
		     minutes);
	return outcome;
}

// select_nodes takes no node in cg_node_bitmap (a job completing there, its epilog not done)
// or rs_node_bitmap (resuming) for a job that shares nodes, whatever CPUs are free: a planned
// start there would be refused. The plan counts the completing job's CPUs busy until now + 1,
// not the node's other CPUs.
bool on_nodes_in_transition(bitstr_t *planned_nodes)
{
	return (cg_node_bitmap && bit_overlap_any(planned_nodes, cg_node_bitmap)) ||
	       (rs_node_bitmap && bit_overlap_any(planned_nodes, rs_node_bitmap));
}

// A job with a task layout of its own is also required on every planned node (for the call,
// without a node list of its own): given only the nodes, cons_tres (22.05, CR_CPU) counts CPUs
// alone and put -n 4 -c 3 on 5 + 3 + 3 CPUs of three of the four planned nodes, its fourth task
// sharing the first's CPUs; on all four it places one task of 3 on each, as planned.
StartOutcome start_on(job_record_t *job, part_record_t *partition,
                      const std::vector<plan::NodeAllocation> &allocations,
                      int64_t shortened_limit_s)
{
	bitstr_t *excluded = node_bitmap_of(allocations);
	if (on_nodes_in_transition(excluded)) {
		FREE_NULL_BITMAP(excluded);
		return StartOutcome{.nodes_completing = true};
	}
	bitstr_t *saved = job->details->exc_node_bitmap;
	bit_not(excluded);
	if (saved)
		bit_or(excluded, saved);
	job->details->exc_node_bitmap = excluded;
	const bool require_planned = !job->details->req_node_bitmap && has_task_layout(job);
	if (require_planned)
		job->details->req_node_bitmap = node_bitmap_of(allocations);
	StartOutcome outcome = shortened_limit_s > 0
	                           ? start_shortened(job, partition, shortened_limit_s)
	                           : start_job_now(job, partition, 1);
	FREE_NULL_BITMAP(job->details->exc_node_bitmap);
	job->details->exc_node_bitmap = saved;
	if (require_planned)
		FREE_NULL_BITMAP(job->details->req_node_bitmap);
	return outcome;
}

// Forgets every pending job's published start and planned nodes, as backfill.c's
// _clear_job_estimates: build_job_queue zeroes start_time but keeps sched_nodes, so a job that
// lost its reservation would show its old nodes in squeue --start.
int clear_estimate(void *record, void *)
{
	auto *job = static_cast<job_record_t *>(record);
	if (IS_JOB_PENDING(job)) {
		job->start_time = 0;
		xfree(job->sched_nodes);
	}
	return SLURM_SUCCESS;
}

// "index:cpus ..." in node order, for the log.
std::string cpus_by_node(std::vector<plan::NodeAllocation> allocations)
{
	std::sort(allocations.begin(), allocations.end(),
	          [](const plan::NodeAllocation &a, const plan::NodeAllocation &b) {
		          return a.node < b.node;
	          });
	std::string text;
	for (const plan::NodeAllocation &allocation : allocations)
		text += (text.empty() ? "" : " ") + std::to_string(allocation.node) + ":" +
		        std::to_string(allocation.cpus);
	return text;
}

job_record_t *pending_job(plan::JobId id)
{
	job_record_t *job = find_job_record(job_id_of(id));
	return job && IS_JOB_PENDING(job) ? job : nullptr;
}

} // namespace

bool scheduling_stopped()
{
	return slurmctld_config.shutdown_time || slurmctld_config.scheduling_disabled;
}

bool plan_map_logged()
{
	return slurm_conf.debug_flags & DEBUG_FLAG_BACKFILL_MAP;
}

void log_plan_map(const std::string &line)
{
	log_flag(BACKFILL_MAP, "sched/campaign: plan %s", line.c_str());
}

UpdateStamps update_stamps()
{
	const diag_stats_t &stats = slurmctld_diag_stats;
	return {last_job_update, last_node_update,
	        stats.jobs_completed + stats.jobs_failed + stats.jobs_canceled};
}

PassInput copy_pass_input()
{
	PassInput input;
	list_for_each(job_list, clear_estimate, nullptr);
	list_t *queue = build_job_queue(true, false);
	queue_waiting_jobs(queue, time(nullptr)); // dependencies and begin times: planned later
	sort_job_queue(queue);
	input.now = time(nullptr);
	// Unset and INFINITE limits as the priority counts them (the config read lock is held).
	const int64_t limit_cap_s =
	    limit_cap_s_for(slurm_conf.priority_type ? slurm_conf.priority_type : "",
	                    slurm_conf.priority_params ? slurm_conf.priority_params : "");
	input.plan = plan_input_from(queue, input.now, limit_cap_s);
	FREE_NULL_LIST(queue);
	for (const std::vector<part_record_t *> &partitions : input.plan.partitions_of) {
		std::vector<std::string> &names = input.partitions.emplace_back();
		for (part_record_t *partition : partitions)
			names.push_back(partition && partition->name ? partition->name : "");
	}
	input.plan.partitions_of.clear(); // valid under this lock only
	input.conf_update = slurm_conf.last_update;
	input.node_count = static_cast<uint32_t>(node_record_count);
	input.nodes_completing = cg_node_bitmap && bit_ffs(cg_node_bitmap) >= 0;
	input.state_dir = slurm_conf.state_save_location ? slurm_conf.state_save_location : "";
	return input;
}

bool reconfigured_since(const PassInput &input)
{
	return slurm_conf.last_update != input.conf_update ||
	       static_cast<uint32_t>(node_record_count) != input.node_count;
}

std::optional<StartOutcome> start_planned(plan::JobId id, const std::string &partition_name,
                                          const std::vector<plan::NodeAllocation> &allocations,
                                          int64_t shortened_limit_s)
{
	// Found again by id: the job may have started, ended or moved while we planned.
	job_record_t *job = pending_job(id);
	std::string name = partition_name;
	part_record_t *partition = name.empty() ? nullptr : find_part_record(name.data());
	if (!job || !job->details || !partition)
		return std::nullopt;
	if (job->state_reason == WAIT_DEPENDENCY || job->details->begin_time > time(nullptr))
		return std::nullopt; // select_nodes does not test either: the plan never starts it
		                     // now
	StartOutcome outcome = start_on(job, partition, allocations, shortened_limit_s);
	// Slurm chooses the CPUs of each node itself, within the plan's nodes (start_job_now reads
	// back what it gave each task, OffPlanNodes compares). The two strings only for the line.
	if (outcome.started && (slurm_conf.debug_flags & DEBUG_FLAG_BACKFILL)) {
		const std::string planned = cpus_by_node(allocations);
		const std::string allocated = cpus_by_node(outcome.allocated);
		if (allocated != planned)
			log_flag(BACKFILL,
			         "sched/campaign: %pJ started with node:cpus %s, planned %s", job,
			         allocated.c_str(), planned.c_str());
	}
	if (!outcome.started && !outcome.preempting && !outcome.nodes_completing) {
		// Not behind a debug flag: the plan and Slurm disagree, rare, and the line is what
		// finds out why.
		char *nodes = node_names_of(allocations);
		// test_maint_plan and test_preemption_plan grep "start of JobId=N refused".
		info("sched/campaign: start of JobId=%u refused: %s (planned on %s, limit %u min)",
		     job->job_id, outcome.refusal.c_str(), nodes, job->time_limit);
		xfree(nodes);
	}
	return outcome;
}

int64_t ranking_eligible_s(plan::JobId id)
{
	const job_record_t *job = pending_job(id);
	if (!job || !job->details || job->direct_set_prio)
		return 0;
	return std::max(job->details->begin_time, job->details->submit_time);
}

bool publish_reservation(plan::JobId id, const plan::PlannedJob &planned)
{
	job_record_t *job = pending_job(id);
	if (!job)
		return false;
	job->start_time = static_cast<time_t>(planned.start_s);
	xfree(job->sched_nodes);
	job->sched_nodes = node_names_of(planned.allocations);
	return true;
}

// Pending reasons as the main scheduler gives them (sched_interval=-1 leaves them to us): a
// job the plan reserved, or could not place, waits for Resources; one behind the reservations
// for Priority. Slurm's own reasons (held, dependency, limits, ...) are left alone. Not a job
// update for due(): a reason alone must not trigger another pass.
void publish_reason(plan::JobId id, plan::JobStatus status)
{
	job_record_t *job = pending_job(id);
	if (!job)
		return;
	const uint32_t current = job->state_reason;
	if (current != WAIT_NO_REASON && current != WAIT_RESOURCES && current != WAIT_PRIORITY)
		return;
	if (status == plan::JobStatus::starts_now || status == plan::JobStatus::refused)
		return;
	const uint32_t reason = status == plan::JobStatus::waiting ? WAIT_PRIORITY : WAIT_RESOURCES;
	if (current != reason) {
		job->state_reason = reason;
		xfree(job->state_desc);
	}
}

} // namespace campaign::slurm
