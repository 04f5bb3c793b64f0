// GresKinds: node GRES counts, running jobs' GRES and pending jobs' requests as plan kinds.
#include "gres_snapshot.h"

#include <atomic>

namespace campaign::slurm
{
namespace
{

std::string kind_name(const char *name, const char *type)
{
	std::string kind = name ? name : "";
	if (type && *type)
		kind += std::string(":") + type;
	return kind;
}

int32_t clamp_count(uint64_t count)
{
	return static_cast<int32_t>(std::min<uint64_t>(count, INT32_MAX));
}

// GRES a request needs on each node, and whether that count is only an even spread of a
// per-job or per-task total (then the plan keeps the node count it spread over).
struct PerNode {
	uint64_t count = 0;
	bool spread = false;
};

PerNode per_node_of(const gres_job_state_t *request, const job_details_t *details, int32_t nodes)
{
	const uint64_t node_count = static_cast<uint64_t>(std::max(nodes, 1));
	if (request->gres_per_node)
		return {request->gres_per_node, false};
	if (request->gres_per_task) {
		const uint16_t per_node = details->ntasks_per_node;
		if (per_node && per_node != NO_VAL16)
			return {request->gres_per_task * per_node, false};
		const uint32_t asked = details->num_tasks;
		const uint64_t tasks = asked && asked != NO_VAL ? asked : 1;
		return {request->gres_per_task * ((tasks + node_count - 1) / node_count), true};
	}
	if (request->gres_per_job)
		return {(request->gres_per_job + node_count - 1) / node_count, true};
	// --gres-per-socket: at least one socket's worth; Slurm checks the rest at the start.
	return {request->gres_per_socket, false};
}

} // namespace

int GresKinds::find(const std::string &name) const
{
	for (size_t kind = 0; kind < names_.size(); ++kind)
		if (names_[kind] == name)
			return static_cast<int>(kind);
	return -1;
}

int GresKinds::add(const std::string &name, const char *node_name)
{
	if (const int kind = find(name); kind >= 0)
		return kind;
	if (names_.size() < plan::gres_kinds_max) {
		names_.push_back(name);
		return static_cast<int>(names_.size()) - 1;
	}
	static std::atomic<bool> said{false}; // once per slurmctld: the configuration is the cause
	if (!said.exchange(true))
		error(
		    "sched/campaign: GRES '%s' of node %s is not planned: the plan counts at most "
		    "%zu GRES kinds (a name, and each name:type) and has %s%s%s%s%s%s%s; jobs "
		    "asking for it are left to Slurm's checks at their start",
		    name.c_str(), node_name, plan::gres_kinds_max, names_[0].c_str(),
		    names_.size() > 1 ? ", " : "", names_.size() > 1 ? names_[1].c_str() : "",
		    names_.size() > 2 ? ", " : "", names_.size() > 2 ? names_[2].c_str() : "",
		    names_.size() > 3 ? ", " : "", names_.size() > 3 ? names_[3].c_str() : "");
	return -1;
}

plan::GresCounts GresKinds::node_counts(const node_record_t *node)
{
	plan::GresCounts counts{};
	if (!node->gres_list)
		return counts;
	list_itr_t *states = list_iterator_create(node->gres_list);
	while (auto *state = static_cast<gres_state_t *>(list_next(states))) {
		const auto *gres = static_cast<const gres_node_state_t *>(state->gres_data);
		if (!gres || gres->no_consume)
			continue;
		if (const int kind = add(kind_name(state->gres_name, nullptr), node->name);
		    kind >= 0)
			counts[kind] = clamp_count(gres->gres_cnt_avail);
		for (uint16_t type = 0; type < gres->type_cnt; ++type) {
			if (!gres->type_name || !gres->type_name[type])
				continue;
			const int kind =
			    add(kind_name(state->gres_name, gres->type_name[type]), node->name);
			if (kind >= 0)
				counts[kind] = clamp_count(gres->type_cnt_avail[type]);
		}
	}
	list_iterator_destroy(states);
	return counts;
}

plan::GresCounts GresKinds::job_allocated(const job_record_t *job, int slot) const
{
	plan::GresCounts counts{};
	if (!job->gres_list_alloc || names_.empty())
		return counts;
	list_itr_t *states = list_iterator_create(job->gres_list_alloc);
	while (auto *state = static_cast<gres_state_t *>(list_next(states))) {
		const auto *gres = static_cast<const gres_job_state_t *>(state->gres_data);
		if (!gres || !gres->gres_cnt_node_alloc || slot < 0 ||
		    static_cast<uint32_t>(slot) >= gres->node_cnt)
			continue;
		const int32_t count = clamp_count(gres->gres_cnt_node_alloc[slot]);
		if (const int kind = find(kind_name(state->gres_name, nullptr)); kind >= 0)
			counts[kind] += count;
		if (gres->type_name)
			if (const int kind = find(kind_name(state->gres_name, gres->type_name));
			    kind >= 0)
				counts[kind] += count;
	}
	list_iterator_destroy(states);
	return counts;
}

bool GresKinds::add_request(const job_record_t *job, plan::PendingJob &pending,
                            bool memory_counted) const
{
	if (!job->gres_list_req)
		return true;
	const job_details_t *details = job->details;
	bool known = true, spread = false;
	int64_t cpus_for_gres = 0, memory_for_gres_mb = 0;
	list_itr_t *states = list_iterator_create(job->gres_list_req);
	while (auto *state = static_cast<gres_state_t *>(list_next(states))) {
		const auto *gres = static_cast<const gres_job_state_t *>(state->gres_data);
		if (!gres || !gres_request_consumes(gres))
			continue;
		const PerNode per_node = per_node_of(gres, details, pending.nodes_min);
		if (per_node.count == 0)
			continue;
		spread = spread || per_node.spread;
		const int32_t count = clamp_count(per_node.count);
		const int kind = find(kind_name(state->gres_name, nullptr));
		const int typed =
		    gres->type_name ? find(kind_name(state->gres_name, gres->type_name)) : kind;
		if (kind < 0 || typed < 0) {
			known = false;
			break;
		}
		pending.gres_per_node[kind] += count;
		if (typed != kind)
			pending.gres_per_node[typed] += count;
		// The job's own --cpus-per-gpu/--mem-per-gpu; partition defaults (DefCpuPerGPU,
		// DefMemPerGPU) are left to Slurm's checks at the start.
		cpus_for_gres += static_cast<int64_t>(gres->cpus_per_gres) * count;
		if (gres->mem_per_gres && gres->mem_per_gres != NO_VAL64)
			memory_for_gres_mb += static_cast<int64_t>(gres->mem_per_gres) * count;
	}
	list_iterator_destroy(states);
	if (!known)
		return false;
	if (spread)
		pending.nodes_max = pending.nodes_min;
	const int64_t nodes = std::max(pending.nodes_min, 1);
	pending.cpus = static_cast<int32_t>(
	    std::min<int64_t>(INT32_MAX, std::max<int64_t>(pending.cpus, cpus_for_gres * nodes)));
	// As select/cons_tres without --mem/--mem-per-cpu: memory per node = mem_per_gres x GRES.
	if (memory_counted && memory_for_gres_mb > 0) {
		pending.memory_per_node_mb = memory_for_gres_mb;
		pending.memory_per_cpu_mb = 0;
		pending.all_memory = false;
	}
	return true;
}

} // namespace campaign::slurm
