// NodeFree: what a node has free (CPUs, memory, GRES), shared by ResourceProfile and its
// per-node index NodeTimelines.
#pragma once

#include "plan/plan_types.h"

#include <cstddef>
#include <cstdint>

namespace campaign::plan
{

// True if `have` holds at least `need` of every GRES kind (no early exit: one vector compare).
inline bool gres_at_least(const GresCounts &have, const GresCounts &need)
{
	bool enough = true;
	for (size_t kind = 0; kind < gres_kinds_max; ++kind)
		enough &= have[kind] >= need[kind];
	return enough;
}

struct NodeFree {
	int32_t cpus = 0;
	int64_t memory_mb = 0;
	GresCounts gres{};
	bool operator==(const NodeFree &) const = default;
};

} // namespace campaign::plan
