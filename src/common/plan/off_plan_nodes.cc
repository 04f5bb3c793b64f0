// OffPlanNodes: see off_plan_nodes.h.
#include "plan/off_plan_nodes.h"

#include <algorithm>

namespace campaign::plan
{

bool OffPlanNodes::started(const std::vector<NodeAllocation> &planned,
                           const std::vector<NodeAllocation> &allocated)
{
	bool over = false;
	for (const NodeAllocation &taken : allocated) {
		const auto same_node = [&](const NodeAllocation &given) {
			return given.node == taken.node;
		};
		const auto given = std::find_if(planned.begin(), planned.end(), same_node);
		if (taken.cpus > (given == planned.end() ? 0 : given->cpus)) {
			nodes_.insert(taken.node);
			over = true;
		}
	}
	return over;
}

bool OffPlanNodes::touches(const std::vector<NodeAllocation> &planned) const
{
	return std::any_of(planned.begin(), planned.end(), [&](const NodeAllocation &allocation) {
		return nodes_.contains(allocation.node);
	});
}

} // namespace campaign::plan
