// MinimaCache: WindowMinima kept across the searches of one pass that only books.
#include "plan/minima_cache.h"

namespace campaign::plan
{

WindowMinima &MinimaCache::minima_for(const PendingJob &job,
                                      const std::vector<NodeIndex> &candidates, int64_t from_s,
                                      const ResourceProfile &profile)
{
	if (profile_ != &profile) {
		entries_.clear();
		profile_ = &profile;
	}
	const Key key(job.exclusive, job.all_memory, job.gres_per_node, job.memory_per_node_mb,
	              job.memory_per_cpu_mb, job.cpus_per_task, job.tasks_per_node, job.limit_s,
	              &candidates);
	const BookingLog &log = profile.booking_log();
	std::unique_ptr<Entry> &entry = entries_[key];
	if (entry && log.holds(entry->seen) &&
	    (entry->minima->start_s() == never_s || entry->minima->start_s() <= from_s)) {
		entry->minima->refresh(log.since(entry->seen), log.end());
		entry->seen = log.mark();
		return *entry->minima;
	}
	entry = std::make_unique<Entry>();
	entry->job = job;
	entry->minima = std::make_unique<WindowMinima>(entry->job, candidates, profile, true);
	entry->seen = log.mark();
	return *entry->minima;
}

} // namespace campaign::plan
