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
// Key's ==, the list's address first (the likeliest to differ) and the GRES counts element by
// element: the tuple's own == called memcmp for the counts, at every look-up.
bool same_key(const SearchMemo::Key &a, const SearchMemo::Key &b)
{
	if (!same_gres(std::get<2>(a), std::get<2>(b)))
		return false;
	return std::get<6>(a) == std::get<6>(b) && std::get<7>(a) == std::get<7>(b) &&
	       std::get<0>(a) == std::get<0>(b) && std::get<1>(a) == std::get<1>(b) &&
	       std::get<3>(a) == std::get<3>(b) && std::get<4>(a) == std::get<4>(b) &&
	       std::get<5>(a) == std::get<5>(b);
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
	const Shapes *found = shapes_of(key_of(job, candidates, long_cpus_limit), false);
	if (!found)
		return 0;
	int64_t bound = 0;
	for (const Shape &shape : found->entries)
		if (shape.earliest_bound_s > bound && needs_at_least(job, shape))
			bound = shape.earliest_bound_s;
	return bound;
}

SearchMemo::Shapes *SearchMemo::shapes_of(const Key &key, bool add) const
{
	if (last_ && same_key(last_->first, key))
		return &last_->second;
	auto found = add ? shapes_.try_emplace(key).first : shapes_.find(key);
	if (found == shapes_.end())
		return nullptr;
	last_ = &*found;
	return &found->second;
}

void SearchMemo::record(const PendingJob &job, const std::vector<NodeIndex> &candidates,
                        int64_t long_cpus_limit, int64_t earliest_bound_s)
{
	Shapes &shapes = *shapes_of(key_of(job, candidates, long_cpus_limit), true);
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
