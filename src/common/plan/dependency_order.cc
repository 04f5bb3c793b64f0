// order_after_waited_for: Kahn's topological order, taking jobs in rank order whenever free.
#include "plan/dependency_order.h"

#include <unordered_map>

namespace campaign::plan
{

DependencyOrder order_after_waited_for(const std::vector<PendingJob> &queue,
                                       const std::unordered_set<JobId> &running)
{
	DependencyOrder result;
	result.order.reserve(queue.size());
	std::unordered_map<JobId, size_t> index_of;
	for (size_t i = 0; i < queue.size(); ++i)
		index_of.emplace(queue[i].id, i);
	std::vector<size_t> waiting(queue.size(), 0);             // queued jobs not yet ordered
	std::vector<std::vector<size_t>> waited_by(queue.size()); // rank order
	std::vector<bool> dead(queue.size(), false);
	for (size_t i = 0; i < queue.size(); ++i)
		for (const JobId id : queue[i].after) {
			if (running.contains(id))
				continue;
			auto found = index_of.find(id);
			if (found == index_of.end()) {
				dead[i] = true; // neither running nor queued: never planned
				continue;
			}
			waiting[i]++;
			waited_by[found->second].push_back(i);
		}
	std::vector<bool> scanned(queue.size(), false), ordered(queue.size(), false);
	std::vector<size_t> ready; // a stack: each freed job goes right after the one it waited for
	for (size_t i = 0; i < queue.size(); ++i) {
		scanned[i] = true;
		if (dead[i] || waiting[i] > 0)
			continue;
		ready.push_back(i);
		while (!ready.empty()) {
			const size_t job = ready.back();
			ready.pop_back();
			ordered[job] = true;
			result.order.push_back(job);
			// Freed jobs already passed over follow in rank order: pushed last first.
			for (auto it = waited_by[job].rbegin(); it != waited_by[job].rend(); ++it)
				if (--waiting[*it] == 0 && scanned[*it] && !dead[*it])
					ready.push_back(*it);
		}
	}
	for (size_t i = 0; i < queue.size(); ++i)
		if (!ordered[i])
			result.dropped.push_back(i);
	return result;
}

} // namespace campaign::plan
