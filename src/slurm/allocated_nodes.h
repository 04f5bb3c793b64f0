// The nodes of a job's allocation, walked as job_resrcs lists them: its per-node arrays (cpus,
// memory_allocated, GRES) have one slot per node of node_bitmap, in node order, in 22.05, 24.11
// and 26.05 alike (26.05's node_ranks only orders task layouts).
#pragma once

#include "slurm_api.h"

#include <cstdint>

namespace campaign::slurm
{

// Calls fn(node_index, slot) for each node of `resources` (none when it or its bitmap is
// missing); slot indexes the per-node arrays.
template <typename Fn> void for_each_allocated_node(const job_resources_t *resources, Fn &&fn)
{
	if (!resources || !resources->node_bitmap)
		return;
	int slot = 0;
	const int64_t last = bit_fls(resources->node_bitmap);
	for (int64_t index = bit_ffs(resources->node_bitmap); index >= 0 && index <= last; index++)
		if (bit_test(resources->node_bitmap, index))
			fn(index, slot++);
}

} // namespace campaign::slurm
