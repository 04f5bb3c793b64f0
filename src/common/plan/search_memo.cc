// SearchMemo: pruning bounds for gap searches within one pass that only adds load.
// Never used across a release of resources.
#include "plan/search_memo.h"

#include <algorithm>
#include <limits>

namespace campaign::plan
{

namespace
{
constexpr size_t shapes_per_key = 128;

int64_t upper_node_bound(int32_t nodes_max)
{
	return nodes_max > 0 ? nodes_max : std::numeric_limits<int32_t>::max();
}
} // namespace

SearchMemo::Key SearchMemo::key_of(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                                   int64_t long_cpus_limit)
{
	return Key(job.exclusive, job.all_memory, job.gres_per_node, job.cpus_per_task,
	           job.tasks_per_node, job.spread, &candidates, long_cpus_limit);
}

bool SearchMemo::needs_at_least(const PendingJob &job, const Shape &shape)
{
	return job.cpus >= shape.cpus && job.nodes_min >= shape.nodes_min &&
	       upper_node_bound(job.nodes_max) <= upper_node_bound(shape.nodes_max) &&
	       job.memory_per_node_mb >= shape.memory_per_node_mb &&
	       job.memory_per_cpu_mb >= shape.memory_per_cpu_mb && job.limit_s >= shape.limit_s;
}

int64_t SearchMemo::lower_bound(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                                int64_t long_cpus_limit) const
{
	if (!job.other_node_sets.empty())
		return 0; // the key names one node set: such a job is never pruned
	auto found = shapes_.find(key_of(job, candidates, long_cpus_limit));
	if (found == shapes_.end())
		return 0;
	int64_t bound = 0;
	for (const Shape &shape : found->second.entries)
		if (shape.earliest_bound_s > bound && needs_at_least(job, shape))
			bound = shape.earliest_bound_s;
	return bound;
}

void SearchMemo::record(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                        int64_t long_cpus_limit, int64_t earliest_bound_s)
{
	Shapes &shapes = shapes_[key_of(job, candidates, long_cpus_limit)];
	const Shape shape{job.cpus,
	                  job.nodes_min,
	                  job.nodes_max,
	                  job.memory_per_node_mb,
	                  job.memory_per_cpu_mb,
	                  job.limit_s,
	                  earliest_bound_s};
	for (Shape &known : shapes.entries) {
		const bool same_shape = known.cpus == shape.cpus &&
		                        known.nodes_min == shape.nodes_min &&
		                        known.nodes_max == shape.nodes_max &&
		                        known.memory_per_node_mb == shape.memory_per_node_mb &&
		                        known.memory_per_cpu_mb == shape.memory_per_cpu_mb &&
		                        known.limit_s == shape.limit_s;
		if (same_shape) {
			known.earliest_bound_s = std::max(known.earliest_bound_s, earliest_bound_s);
			return;
		}
	}
	if (shapes.entries.size() < shapes_per_key) {
		shapes.entries.push_back(shape);
		return;
	}
	shapes.entries[shapes.next_overwrite] = shape;
	shapes.next_overwrite = (shapes.next_overwrite + 1) % shapes_per_key;
}

} // namespace campaign::plan
