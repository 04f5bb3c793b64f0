// OffPlanNodes: the nodes where a start of this pass took more CPUs than the plan gave it.
// Slurm is told only which nodes a job may use, not how many CPUs on each: a job the plan split
// over two nodes (to leave CPUs for a later reservation) may be packed onto one by select. The
// pass's later starts on such a node were planned on CPUs that may be gone; they wait for the
// next pass, planned from the allocations Slurm made, rather than being refused and held out.
#pragma once

#include "plan/plan_types.h"

#include <unordered_set>
#include <vector>

namespace campaign::plan
{

class OffPlanNodes
{
public:
	// A job started: `allocated` is what Slurm gave it (node and CPUs; other fields unread).
	// Records each node where it holds more CPUs than `planned` gave it there (a node the plan
	// did not give it counts with 0). True if there was one.
	bool started(const std::vector<NodeAllocation> &planned,
	             const std::vector<NodeAllocation> &allocated);
	// True when a job planned on `planned` would use a recorded node.
	bool touches(const std::vector<NodeAllocation> &planned) const;
	bool empty() const { return nodes_.empty(); }

private:
	std::unordered_set<NodeIndex> nodes_;
};

} // namespace campaign::plan
