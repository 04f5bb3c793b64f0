// CandidateCache: node lists and empty-machine fits computed once per partition and job shape.
#include "plan/candidate_cache.h"

#include "plan/gap_search.h"

namespace campaign::plan
{

NodeList CandidateCache::candidates(const NodeSet &allowed_sorted, const ResourceProfile &profile)
{
	if (allowed_sorted.empty())
		return candidates_of(allowed_sorted.nodes(), every_node_, profile);
	auto known = by_list_.find(allowed_sorted.identity());
	if (known != by_list_.end())
		return known->second.second;
	NodeList found =
	    candidates_of(allowed_sorted.nodes(), by_allowed_[allowed_sorted.nodes()], profile);
	if (by_list_.size() >= kMaxLists)
		by_list_.clear(); // a kept plan's updates bring new lists each pass: hold a few
	by_list_.emplace(allowed_sorted.identity(), std::make_pair(allowed_sorted, found));
	return found;
}

NodeList CandidateCache::candidates_of(const std::vector<NodeIndex> &allowed_sorted,
                                       NodeList &cached, const ResourceProfile &profile)
{
	if (cached)
		return cached;
	auto nodes = std::make_shared<std::vector<NodeIndex>>();
	if (allowed_sorted.empty()) {
		for (size_t node = 0; node < profile.node_count(); ++node)
			if (profile.usable(static_cast<NodeIndex>(node)))
				nodes->push_back(static_cast<NodeIndex>(node));
	} else {
		for (NodeIndex node : allowed_sorted)
			if (profile.usable(node))
				nodes->push_back(node);
	}
	cached = std::move(nodes);
	return cached;
}

bool CandidateCache::fits_empty_machine(const PendingJob &job, const NodeList &candidates,
                                        const ResourceProfile &profile)
{
	const Shape shape{candidates.get(),       job.cpus,
	                  job.nodes_min,          job.nodes_max,
	                  job.memory_per_node_mb, job.memory_per_cpu_mb,
	                  job.exclusive,          job.all_memory,
	                  job.gres_per_node,      job.cpus_per_task,
	                  job.tasks_per_node,     job.spread};
	auto found = fits_.find(shape);
	if (found != fits_.end())
		return found->second;
	std::vector<int32_t> empty_machine;
	empty_machine.reserve(candidates->size());
	for (NodeIndex node : *candidates)
		empty_machine.push_back(
		    usable_cpus(job, profile.capacity(node), profile.capacity(node)));
	const bool fits = !choose_nodes(job, *candidates, empty_machine, profile).empty();
	fits_.emplace(shape, fits);
	return fits;
}

void CandidateCache::clear()
{
	every_node_.reset();
	by_allowed_.clear();
	by_list_.clear();
	fits_.clear();
}

} // namespace campaign::plan
