// plan_input_from: Slurm's nodes, allocations and queue as plan types. Memory is planned when
// the select plugin counts it (CR_*_Memory); otherwise node and job memory are 0. GRES are
// planned as counts per node (gres_snapshot.h), and a job that may preempt with the running jobs
// it may preempt (preemption.h). As sched/backfill, jobs whose licenses are not free now and
// jobs of unschedulable partitions are left out of the pass, and advanced reservations, active now
// or to come, are windows of their nodes until their end that no job outside them may use
// (job_test_resv's rule; sched/backfill too plans other jobs there after the end). Unlike
// sched/backfill, which defers a job of a reservation that starts later, such a job is planned
// inside its reservation's window.
#include "plan_snapshot.h"

#include "allocated_nodes.h"
#include "dependency_snapshot.h"
#include "gres_snapshot.h"
#include "job_snapshot.h"
#include "preemption.h"

#include "plan/dependency_order.h"
#include "plan/window_ends.h"

#include "runtime/campaign_directory.h"

#include <map>
#include <unordered_set>

namespace campaign::slurm
{
namespace
{

constexpr uint32_t kMaxArrayTasks = 256;

// The select plugin counts memory (SelectTypeParameters=CR_*_Memory).
bool memory_counted()
{
	return slurm_conf.select_type_param & kSelectMemory;
}

plan::Cluster cluster_now(GresKinds &gres_kinds)
{
	plan::Cluster cluster;
	cluster.nodes.resize(node_record_count);
	for (int i = 0; i < node_record_count; i++)
		cluster.nodes[i].state = plan::NodeState::down; // holes in the node table
	node_record_t *node;
	for (int i = 0; (node = next_node(&i)); i++) {
		plan::NodeSpec &spec = cluster.nodes[node->index];
		spec.name = node->name;
		spec.cpus = node->cpus;
		if (memory_counted()) // what select/cons_tres offers: RealMemory less MemSpecLimit
			spec.memory_mb =
			    static_cast<int64_t>(node->real_memory > node->mem_spec_limit
			                             ? node->real_memory - node->mem_spec_limit
			                             : 0);
		spec.gres = gres_kinds.node_counts(node);
		// Select fills the lightest nodes first, by the weight of the node's config record
		// (node sets are built from it; scontrol update Weight= changes only that one).
		spec.weight = node->config_ptr ? node->config_ptr->weight : node->weight;
		if (bit_test(avail_node_bitmap, node->index))
			spec.state = plan::NodeState::up;
		else if (bit_test(up_node_bitmap, node->index))
			spec.state = plan::NodeState::drain;
	}
	cluster.gres_kinds = gres_kinds.names();
	return cluster;
}

// A node's ResumeTimeout (the most of its partitions' as power_save.c sets it, else slurm.conf's),
// in seconds.
int64_t resume_timeout_s(const node_record_t *node)
{
	if (node->resume_timeout && node->resume_timeout != NO_VAL16 &&
	    node->resume_timeout != INFINITE16)
		return node->resume_timeout;
	return slurm_conf.resume_timeout;
}

// The most ResumeTimeout over `nodes` (a job's): Slurm waits for each node by its own (power_save.c
// downs a node not resumed within it), so the last one is ready by then. slurm.conf's when none.
int64_t resume_timeout_s(bitstr_t *nodes)
{
	if (!nodes)
		return slurm_conf.resume_timeout;
	int64_t most = 0;
	const int64_t last = bit_fls(nodes);
	for (int64_t index = bit_ffs(nodes); index >= 0 && index <= last; index++)
		if (bit_test(nodes, index))
			if (const node_record_t *node = node_record_table_ptr[index])
				most = std::max(most, resume_timeout_s(node));
	return most ? most : int64_t{slurm_conf.resume_timeout};
}

// Powered-down nodes (power saving: POWERED_DOWN, idle, not POWERING_UP) are usable from now +
// ResumeTimeout: each is a running job of its own, holding the whole node until then, that every
// pending job may preempt (Cluster::preemptable_by_any). So a job that fits nowhere powered up
// starts now over it (Slurm's start resumes the node, as select_nodes does when it picks one;
// Slurm itself also prefers powered-up nodes), and every reservation on it starts at now +
// ResumeTimeout at the earliest. Their ids are above every job and array task id (plan_id).
std::vector<plan::RunningJob> powered_down_nodes(time_t now)
{
	std::vector<plan::RunningJob> resuming;
	node_record_t *node;
	for (int i = 0; (node = next_node(&i)); i++) {
		if (!IS_NODE_POWERED_DOWN(node) || IS_NODE_POWERING_UP(node) ||
		    !IS_NODE_IDLE(node) || !bit_test(avail_node_bitmap, node->index))
			continue;
		plan::RunningJob power_up{.id = power_up_id(node->index)};
		power_up.expected_end_s = now + std::max<int64_t>(1, resume_timeout_s(node));
		power_up.allocations.push_back(
		    {.node = static_cast<plan::NodeIndex>(node->index),
		     .cpus = static_cast<int32_t>(node->cpus),
		     .memory_mb =
		         memory_counted()
		             ? static_cast<int64_t>(node->real_memory > node->mem_spec_limit
		                                        ? node->real_memory - node->mem_spec_limit
		                                        : 0)
		             : 0});
		resuming.push_back(std::move(power_up));
	}
	return resuming;
}

// CPUs, memory and GRES a running job holds on each of its nodes (job_resrcs lists them in node
// order).
plan::RunningJob running_of(const job_record_t *job, time_t now, const GresKinds &gres_kinds)
{
	plan::RunningJob running{.id = job->job_id};
	// A job past its limit (or completing) ends "soon": one second from now. One waiting for
	// its nodes to power up runs its limit from their boot (Slurm then resets its start): at
	// the latest ResumeTimeout after its start.
	running.expected_end_s = std::max<int64_t>(job->end_time, now + 1);
	if (IS_JOB_POWER_UP_NODE(job))
		running.expected_end_s += resume_timeout_s(job->node_bitmap);
	const job_resources_t *resources = job->job_resrcs;
	for_each_allocated_node(resources, [&](int64_t index, int slot) {
		running.allocations.push_back(
		    {.node = static_cast<plan::NodeIndex>(index),
		     .cpus = resources->cpus ? resources->cpus[slot] : 0,
		     .memory_mb = memory_counted() && resources->memory_allocated
		                      ? static_cast<int64_t>(resources->memory_allocated[slot])
		                      : 0,
		     .gres = gres_kinds.job_allocated(job, slot)});
	});
	return running;
}

// The priority's mapping of unset and INFINITE limits (resolve_limit_s); at least a minute.
int64_t limit_s_of(const job_record_t *job, const part_record_t *part, int64_t limit_cap_s)
{
	PartitionCapacity times;
	if (part) {
		times.max_time_s = minutes_to_seconds(part->max_time);
		times.default_time_s = minutes_to_seconds(part->default_time);
	}
	return std::max<int64_t>(
	    60, resolve_limit_s(limit_of(job->time_limit), part ? &times : nullptr, limit_cap_s));
}

struct BitmapFree {
	void operator()(bitstr_t *bitmap) const { FREE_NULL_BITMAP(bitmap); }
};
using Bitmap = std::unique_ptr<bitstr_t, BitmapFree>;

// An advanced reservation, active now or to come, that keeps its nodes (ANY_NODES ones excepted):
// a window of the plan. An active one's window starts in the past (the planner counts from now),
// so it stays the same from pass to pass and the kept plan is kept.
bool is_window(const slurmctld_resv_t *resv, time_t now)
{
	return resv->node_bitmap && resv->end_time > now && resv->end_time > resv->start_time &&
	       !(resv->flags & RESERVE_FLAG_ANY_NODES);
}

// ResvOverRun: how long after the end Slurm lets a job of the reservation run (job_time_limit;
// INFINITE: a year, as there). A FLEX one's jobs stay planned inside it, as before (0).
int64_t overrun_s(const slurmctld_resv_t *resv)
{
	if (resv->flags & RESERVE_FLAG_FLEX)
		return 0;
	const uint16_t minutes = slurm_conf.resv_over_run;
	return minutes == INFINITE16 ? int64_t{365} * 86400 : int64_t{minutes} * 60;
}

// The advanced reservations, active or to come, as windows of their nodes up to their end: as
// job_test_resv, a job not in one may not run into it there (MAINT or not; a reservation of some
// cores is taken as its nodes; one with no end lasts Slurm's year). Their own jobs are planned
// inside (window_of).
std::vector<plan::UnavailableWindow> unavailable_windows(time_t now)
{
	std::vector<plan::UnavailableWindow> windows;
	if (!resv_list)
		return windows;
	list_itr_t *reservations = list_iterator_create(resv_list);
	while (auto *resv = static_cast<slurmctld_resv_t *>(list_next(reservations))) {
		if (!is_window(resv, now))
			continue;
		plan::UnavailableWindow window{.start_s = resv->start_time,
		                               .end_s = resv->end_time,
		                               .id = resv->resv_id,
		                               .overrun_s = overrun_s(resv)};
		const int64_t last = bit_fls(resv->node_bitmap);
		for (int64_t index = bit_ffs(resv->node_bitmap); index >= 0 && index <= last;
		     index++)
			if (bit_test(resv->node_bitmap, index))
				window.nodes.push_back(static_cast<plan::NodeIndex>(index));
		windows.push_back(std::move(window));
	}
	list_iterator_destroy(reservations);
	return windows;
}

// A job that asked for a reservation that starts later: Slurm starts it only inside it
// (job_test_resv), so it is planned in the reservation's window (PendingJob::window_id).
bool asked_for_later(const job_record_t *job, time_t now)
{
	return job->resv_ptr && job->resv_ptr->start_time > now;
}

// The window a job of a reservation is planned in; 0: none. A job of a reservation that starts
// later and is FLEX (bound neither to its nodes nor to its time) or ANY_NODES (no window) is
// left out with Slurm's own reason (Reservation); a job of an active FLEX one is planned inside
// it all the same, as it was bound to its nodes before windows had an end. A job of several
// reservations (--reservation=a,b) is planned in the one its record names now (resv_ptr).
uint32_t window_of(const job_record_t *job, time_t now)
{
	const slurmctld_resv_t *resv = job->resv_ptr;
	if (!resv || !is_window(resv, now) ||
	    (resv->start_time > now && (resv->flags & RESERVE_FLAG_FLEX)))
		return 0;
	return resv->resv_id;
}

// The window of the reservation a running job runs in, which Slurm ends it with at the window's
// end plus ResvOverRun (not a FLEX one's: job_time_limit lets those run on); 0: none.
uint32_t window_ending(const job_record_t *job, time_t now)
{
	return job->resv_ptr && !(job->resv_ptr->flags & RESERVE_FLAG_FLEX) ? window_of(job, now)
	                                                                    : 0;
}

// Only the nodes whose active features satisfy the job's constraint (valid_feature_counts;
// XOR terms and node counts are left to Slurm when it starts the job).
void keep_featured_nodes(job_record_t *job, std::vector<plan::NodeIndex> &allowed)
{
	if (!job->details->feature_list || allowed.empty())
		return;
	const Bitmap nodes(bit_alloc(node_record_count));
	for (const plan::NodeIndex index : allowed)
		bit_set(nodes.get(), index);
	bool has_xor = false;
	if (valid_feature_counts(job, true, nodes.get(), &has_xor) != SLURM_SUCCESS)
		return; // counts not met: Slurm refuses the start and says why
	std::erase_if(allowed,
	              [&](plan::NodeIndex index) { return !bit_test(nodes.get(), index); });
}

// One list per distinct allowed-node set in a pass: the jobs of a partition and constraint set
// share it (plan::NodeSet), rather than each carrying a copy of thousands of nodes.
class SharedNodeSets
{
public:
	plan::NodeSet shared(std::vector<plan::NodeIndex> nodes)
	{
		auto [found, added] = sets_.try_emplace(std::move(nodes));
		if (added)
			found->second = plan::NodeSet(found->first);
		return found->second;
	}

private:
	std::map<std::vector<plan::NodeIndex>, plan::NodeSet> sets_;
};

// Partition nodes, less excluded ones, within the required ones, with the features asked for; a
// job of a reservation only on its nodes (any other job is kept off them by their window until
// its end). Empty: no node will do (the planner reads an empty list as "any node", so the caller
// skips the job).
plan::NodeSet allowed_nodes_of(job_record_t *job, const part_record_t *part,
                               SharedNodeSets &node_sets)
{
	std::vector<plan::NodeIndex> allowed;
	const job_details_t *details = job->details;
	bitstr_t *own_reservation = job->resv_ptr ? job->resv_ptr->node_bitmap : nullptr;
	node_record_t *node;
	for (int i = 0; (node = next_node(&i)); i++) {
		const int index = node->index;
		if (part && part->node_bitmap && !bit_test(part->node_bitmap, index))
			continue;
		if (own_reservation && !bit_test(own_reservation, index))
			continue;
		if (details->exc_node_bitmap && bit_test(details->exc_node_bitmap, index))
			continue;
		if (details->req_node_bitmap && !bit_test(details->req_node_bitmap, index))
			continue;
		allowed.push_back(index);
	}
	keep_featured_nodes(job, allowed);
	return node_sets.shared(std::move(allowed));
}

// --exclusive, or any job of an OverSubscribe=EXCLUSIVE partition (max_share 0): Slurm gives it
// whole nodes (_resolve_shared_status sets whole_node at the start).
bool takes_whole_nodes(const job_record_t *job, const part_record_t *part)
{
	return (job->details->whole_node & WHOLE_NODE_REQUIRED) || (part && part->max_share == 0);
}

// The task layout select/cons_tres gives the job (PendingJob::cpus_per_task, tasks_per_node,
// spread): whole tasks of --cpus-per-task CPUs on a node, --ntasks-per-node of them on each node
// used, and --spread-job over as many nodes as its max_nodes (which job_mgr.c sets to the
// tasks, at most the node count). Not with --overcommit (tasks share CPUs) or --cpus-per-gpu
// (the CPUs follow the GPUs, not the tasks): there only the CPU total counts, as before.
plan::PendingJob task_layout_of(const job_record_t *job)
{
	plan::PendingJob layout;
	const job_details_t *details = job->details;
	if (!details || details->overcommit || job->cpus_per_tres)
		return layout;
	if (details->cpus_per_task > 1 && details->cpus_per_task != NO_VAL16)
		layout.cpus_per_task = details->cpus_per_task;
	// As _select_cores: a node takes exactly ntasks_per_node tasks (job_mgr.c sets pn_min_cpus
	// to them only for a job of several tasks; one task is any node's).
	if (details->ntasks_per_node && details->ntasks_per_node != NO_VAL16 &&
	    details->ntasks_per_node != INFINITE16 && details->num_tasks > 1 &&
	    details->num_tasks != NO_VAL)
		layout.tasks_per_node = details->ntasks_per_node;
	layout.spread = job->bit_flags & SPREAD_JOB;
	return layout;
}

void add_task_layout(const job_record_t *job, plan::PendingJob &pending)
{
	const plan::PendingJob layout = task_layout_of(job);
	pending.cpus_per_task = layout.cpus_per_task;
	pending.tasks_per_node = layout.tasks_per_node;
	pending.spread = layout.spread;
}

// nullopt: the job asks for a GRES kind the plan does not count (no node has it, or beyond
// plan::gres_kinds_max): it is left out of the plan, to Slurm's own checks.
std::optional<plan::PendingJob> pending_of(job_record_t *job, const part_record_t *part,
                                           int64_t limit_cap_s, const GresKinds &gres_kinds,
                                           SharedNodeSets &node_sets)
{
	const job_details_t *details = job->details;
	plan::PendingJob pending{.id = job->job_id};
	pending.cpus = static_cast<int32_t>(std::max<uint32_t>(1, details->min_cpus));
	pending.nodes_min = static_cast<int32_t>(std::max<uint32_t>(1, details->min_nodes));
	if (details->max_nodes && details->max_nodes != NO_VAL && details->max_nodes != INFINITE)
		pending.nodes_max = static_cast<int32_t>(details->max_nodes);
	pending.limit_s = limit_s_of(job, part, limit_cap_s);
	if (job->time_min && job->time_min != NO_VAL && job->time_min != INFINITE)
		pending.limit_min_s =
		    std::min<int64_t>(pending.limit_s, int64_t{job->time_min} * 60);
	pending.allowed_nodes = allowed_nodes_of(job, part, node_sets);
	pending.exclusive = takes_whole_nodes(job, part);
	add_task_layout(job, pending);
	if (memory_counted()) { // pn_min_memory as select/cons_tres reads it
		const uint64_t memory = details->pn_min_memory;
		if (memory & MEM_PER_CPU)
			pending.memory_per_cpu_mb = static_cast<int64_t>(memory & ~MEM_PER_CPU);
		else if (memory == 0)
			pending.all_memory = true; // --mem=0: all of each node's memory
		else
			pending.memory_per_node_mb = static_cast<int64_t>(memory);
	}
	if (!gres_kinds.add_request(job, pending, memory_counted()))
		return std::nullopt;
	// 0 (one pseudo-campaign, no expected run time) unless priority/campaign published them.
	const CampaignDirectory::Entry published =
	    process_campaign_directory().entry_of(job->job_id);
	pending.campaign_id = published.campaign_id;
	pending.expected_run_s = published.expected_run_s;
	pending.submit_s = static_cast<int64_t>(details->submit_time); // local search's objective
	return pending;
}

// A pending array record stands for its tasks: plan up to kMaxArrayTasks of them (within the
// array's own run limit), so several can start in one pass.
uint32_t array_tasks_to_plan(const job_record_t *job)
{
	const job_array_struct_t *array = job->array_recs;
	if (!array || job->array_task_id != NO_VAL)
		return 1;
	uint32_t tasks = std::max<uint32_t>(1, array->task_cnt);
	if (array->max_run_tasks)
		tasks = std::min(tasks, array->max_run_tasks > array->tot_run_tasks
		                            ? array->max_run_tasks - array->tot_run_tasks
		                            : 0);
	return std::clamp<uint32_t>(tasks, 1, kMaxArrayTasks);
}

// As backfill.c: a job that a QOS or association limit holds now (MaxJobsPerUser, GrpJobs,
// GrpTRES, MaxTRESPerUser, ...) gets neither a reservation nor a start attempt; acct_policy sets
// Slurm's own pending reason, and the job is planned again in the first pass after the limit
// clears. Its requested TRES stand in for the nodes not chosen yet. Limits are per partition
// (its QOS), so the record's partition is the job's for the test.
bool held_by_limits(job_record_t *job, part_record_t *part)
{
	part_record_t *own = job->part_ptr;
	if (part)
		job->part_ptr = part;
	const bool held = !acct_policy_job_runnable_pre_select(job, false) ||
	                  (job->tres_req_cnt &&
	                   !acct_policy_job_runnable_post_select(job, job->tres_req_cnt, false));
	job->part_ptr = own;
	return held;
}

// The partitions of each job queued in several (-p a,b), in queue order: build_job_queue makes
// a record per partition, sort_job_queue orders them by tier and priority.
using PartitionsOf = std::unordered_map<uint32_t, std::vector<part_record_t *>>;
PartitionsOf partitions_of_multi_partition_jobs(list_t *queue)
{
	PartitionsOf partitions;
	list_itr_t *records = list_iterator_create(queue);
	while (auto *record = static_cast<job_queue_rec_t *>(list_next(records)))
		if (record->job_ptr && record->job_ptr->part_ptr_list && record->part_ptr)
			partitions[record->job_ptr->job_id].push_back(record->part_ptr);
	list_iterator_destroy(records);
	return partitions;
}

// A job queued in several partitions is planned in whichever starts it first, as backfill.c
// tries each of its records: the node sets of its other (scheduling) partitions go with the
// first, and `partitions` names the partition of each set. A partition no node of which will do
// adds no set. If the first has none, the first that has takes its place.
void add_other_partitions(job_record_t *job, part_record_t *first, const PartitionsOf &later,
                          plan::PendingJob &pending, std::vector<part_record_t *> &partitions,
                          SharedNodeSets &node_sets)
{
	auto found = later.find(job->job_id);
	if (found == later.end())
		return;
	for (part_record_t *part : found->second) {
		// One job shape for every set: a partition that would give it whole nodes when
		// the first does not (or the other way round) is left to Slurm's checks.
		if (part == first || !(part->state_up & PARTITION_SCHED) ||
		    takes_whole_nodes(job, part) != pending.exclusive)
			continue;
		plan::NodeSet nodes = allowed_nodes_of(job, part, node_sets);
		if (nodes.empty())
			continue;
		if (pending.allowed_nodes.empty()) {
			pending.allowed_nodes = std::move(nodes);
			partitions[0] = part;
		} else {
			pending.other_node_sets.push_back(std::move(nodes));
			partitions.push_back(part);
		}
	}
}

// A pending job's id and Slurm's pending reason, as the job list walk saw them.
struct PendingReason {
	uint32_t job_id = 0;
	uint32_t reason = 0;
};

// The one walk of job_list in a pass's snapshot: the running jobs (with their windows' ends) into
// `input`, and every pending job's reason for count_unqueued (the queue is read after it).
std::vector<PendingReason> read_job_list(time_t now, const GresKinds &gres_kinds, PlanInput &input)
{
	std::vector<PendingReason> pending;
	list_itr_t *jobs = list_iterator_create(job_list);
	while (auto *job = static_cast<job_record_t *>(list_next(jobs))) {
		if (IS_JOB_RUNNING(job) || IS_JOB_SUSPENDED(job) || IS_JOB_COMPLETING(job)) {
			input.running.push_back(running_of(job, now, gres_kinds));
			input.running.back().window_id = window_ending(job, now);
		}
		if (IS_JOB_PENDING(job)) // also a requeued one still completing
			pending.push_back({job->job_id, job->state_reason});
	}
	list_iterator_destroy(jobs);
	plan::end_with_windows(input.running, input.cluster.unavailable, now);
	return pending;
}

// Pending jobs build_job_queue did not queue (dependency, begin time, held, ...), by Slurm's
// pending reason: the plan never sees them.
void count_unqueued(const std::vector<PendingReason> &pending,
                    const std::unordered_set<uint32_t> &queued, ReasonCounts &left_out)
{
	for (const PendingReason &job : pending)
		if (!queued.contains(job.job_id))
			left_out[reason_name(job.reason)]++;
}

// Each job after the pending jobs it waits for (plan/dependency_order.h); one that waits for a
// job the plan leaves out is left out too.
void order_by_dependencies(PlanInput &input)
{
	std::unordered_set<plan::JobId> running;
	for (const plan::RunningJob &job : input.running)
		running.insert(job.id);
	const plan::DependencyOrder order = plan::order_after_waited_for(input.pending, running);
	if (order.dropped.empty() && std::is_sorted(order.order.begin(), order.order.end()))
		return;
	std::vector<plan::PendingJob> pending;
	std::vector<std::vector<part_record_t *>> partitions_of;
	for (const size_t index : order.order) {
		pending.push_back(std::move(input.pending[index]));
		partitions_of.push_back(std::move(input.partitions_of[index]));
	}
	for (const size_t index : order.dropped)
		if (first_task(input.pending[index].id))
			input.left_out["PredecessorNotPlanned"]++;
	input.pending = std::move(pending);
	input.partitions_of = std::move(partitions_of);
}

} // namespace

PlanInput plan_input_from(list_t *queue, time_t now, int64_t limit_cap_s)
{
	PlanInput input;
	GresKinds gres_kinds;
	input.cluster = cluster_now(gres_kinds);
	input.cluster.unavailable = unavailable_windows(now);
	const std::vector<PendingReason> pending_reasons = read_job_list(now, gres_kinds, input);
	std::vector<plan::RunningJob> resuming = powered_down_nodes(now);
	for (const plan::RunningJob &power_up : resuming) // ids above every job's: sorted
		input.cluster.preemptable_by_any.push_back(power_up.id);
	SharedNodeSets node_sets;

	PreemptableJobs preemptable;
	WaitReader wait_reader(now);
	const PartitionsOf later_partitions = partitions_of_multi_partition_jobs(queue);
	std::unordered_set<uint32_t> seen; // multi-partition jobs: planned at their first record
	list_itr_t *records = list_iterator_create(queue);
	while (auto *record = static_cast<job_queue_rec_t *>(list_next(records))) {
		job_record_t *job = record->job_ptr;
		if (!job || !job->details || seen.contains(job->job_id))
			continue;
		const part_record_t *part = record->part_ptr;
		if (part && !(part->state_up & PARTITION_SCHED) && job->part_ptr_list)
			continue; // planned at its next record, in a partition that schedules
		seen.insert(job->job_id);
		if (job->het_job_id) {
			input.left_out["HeterogeneousJob"]++;
			continue;
		}
		if (part && !(part->state_up & PARTITION_SCHED)) {
			input.left_out["PartitionNotScheduling"]++;
			continue; // as backfill.c: a partition that schedules nothing now
		}
		if (job->license_list && license_job_test(job, now, true) != SLURM_SUCCESS) {
			input.left_out["Licenses"]++;
			continue; // as backfill.c (without bf_licenses): not runnable now, no plan
		}
		const bool later = asked_for_later(job, now);
		const uint32_t window_id = window_of(job, now);
		if (later && !window_id) {
			input.left_out["ReservationLater"]++;
			continue;
		}
		Waits waits = wait_reader.waits_of(job);
		if (waits.not_planned) {
			input.left_out[waits.not_planned]++;
			continue;
		}
		// A limit that holds now says nothing of a job that waits (and its test would
		// replace Slurm's Dependency or BeginTime reason).
		const bool waits_now = waits.earliest_start_s > now || later;
		if (!waits_now && held_by_limits(job, record->part_ptr)) {
			input.left_out[reason_name(job->state_reason)]++; // acct_policy set it
			continue;
		}
		std::optional<plan::PendingJob> planned =
		    pending_of(job, part, limit_cap_s, gres_kinds, node_sets);
		if (!planned) {
			input.left_out["GresNotCounted"]++;
			continue; // a GRES kind the plan does not count: Slurm's own checks
		}
		plan::PendingJob pending = *planned;
		std::vector<part_record_t *> partitions{record->part_ptr};
		add_other_partitions(job, record->part_ptr, later_partitions, pending, partitions,
		                     node_sets);
		if (pending.allowed_nodes.empty()) {
			input.left_out["NoUsableNodes"]++;
			continue; // no node will do now: Slurm's own reason stays
		}
		pending.preemptable = preemptable.of(job, record->part_ptr, now);
		pending.earliest_start_s = waits.earliest_start_s;
		pending.window_id = window_id; // the planner adds the window's start and end
		pending.after = std::move(waits.after);
		const uint32_t tasks = array_tasks_to_plan(job);
		for (uint32_t task = 0; task < tasks; task++) {
			input.pending.push_back(pending);
			input.pending.back().id = plan_id(job->job_id, task);
			input.partitions_of.push_back(partitions);
		}
	}
	list_iterator_destroy(records);
	count_unqueued(pending_reasons, seen, input.left_out);
	input.running.insert(input.running.end(), resuming.begin(), resuming.end());
	order_by_dependencies(input);
	return input;
}

bool has_task_layout(const job_record_t *job)
{
	const plan::PendingJob layout = task_layout_of(job);
	return layout.cpus_per_task > 1 || layout.tasks_per_node > 0 || layout.spread;
}

bitstr_t *node_bitmap_of(const std::vector<plan::NodeAllocation> &allocations)
{
	bitstr_t *bitmap = bit_alloc(node_record_count);
	for (const plan::NodeAllocation &allocation : allocations)
		bit_set(bitmap, allocation.node);
	return bitmap;
}

char *node_names_of(const std::vector<plan::NodeAllocation> &allocations)
{
	bitstr_t *bitmap = node_bitmap_of(allocations);
	char *names = bitmap2node_name(bitmap);
	FREE_NULL_BITMAP(bitmap);
	return names;
}

} // namespace campaign::slurm
