#include "plan/plan_text.h"

#include <algorithm>

namespace campaign::plan
{
namespace
{

std::string node_name(const Cluster &cluster, NodeIndex node)
{
	if (node >= 0 && static_cast<size_t>(node) < cluster.nodes.size())
		return cluster.nodes[static_cast<size_t>(node)].name;
	return "#" + std::to_string(node);
}

void append_allocations(std::string &out, const std::vector<NodeAllocation> &allocations,
                        const Cluster &cluster)
{
	for (size_t k = 0; k < allocations.size(); k++) {
		out += k == 0 ? ":" : "+";
		out += node_name(cluster, allocations[k].node) + "x" +
		       std::to_string(allocations[k].cpus);
	}
}

} // namespace

std::string describe_plan(const Plan &plan, const std::vector<RunningJob> &running,
                          const Cluster &cluster, int64_t room_cpus)
{
	std::string out = "room=" + std::to_string(room_cpus) + " running=";
	std::vector<const RunningJob *> by_end;
	by_end.reserve(running.size());
	for (const RunningJob &job : running)
		by_end.push_back(&job);
	std::stable_sort(by_end.begin(), by_end.end(),
	                 [](const RunningJob *a, const RunningJob *b) {
		                 return a->expected_end_s < b->expected_end_s;
	                 });
	for (size_t k = 0; k < by_end.size(); k++) {
		if (k > 0)
			out += ",";
		out += std::to_string(by_end[k]->id) + ">+" +
		       std::to_string(by_end[k]->expected_end_s - plan.now_s);
	}
	out += " planned=";
	std::vector<const PlannedJob *> by_start;
	by_start.reserve(plan.planned.size());
	for (const auto &[id, job] : plan.planned)
		by_start.push_back(&job); // the map's order: by id
	std::stable_sort(
	    by_start.begin(), by_start.end(),
	    [](const PlannedJob *a, const PlannedJob *b) { return a->start_s < b->start_s; });
	for (size_t k = 0; k < by_start.size(); k++) {
		const PlannedJob &job = *by_start[k];
		if (k > 0)
			out += ",";
		out += std::to_string(job.id) + "@+" + std::to_string(job.start_s - plan.now_s) +
		       "/" + std::to_string(job.limit_s);
		append_allocations(out, job.allocations, cluster);
	}
	return out;
}

} // namespace campaign::plan
