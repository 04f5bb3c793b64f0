// The adaptive room sized by blocked short demand (PlannerConfig::short_room_demand blocked):
// only short jobs that a plan could not start now ask for room, so a log whose short jobs
// start anyway keeps none (doc/fairness-results.md, "Room sized by blocked demand").
#include "plan/planner.h"

#include <algorithm>

namespace campaign::plan
{

bool Planner::keep_room_for_blocked_short_jobs()
{
	if (config_.short_room_demand == ShortRoomDemand::pending ||
	    config_.short_room_recent_s <= 0 || room_cap_cpus_ == 0)
		return false;
	// fitting: only short jobs the room could hold ask for it. Under blocked, short jobs wider
	// than the room kept it open for days on CTC-SP2 (32- to 128-CPU jobs, a 17-CPU room)
	// while its CPUs idled and 5- to 16-CPU long jobs waited up to 6 days; but the room also
	// helps such jobs start when long jobs end, so fitting loses light users' gains on
	// KTH-SP2 and SDSC-SP2 (doc/fairness-results.md).
	const bool fitting_only = config_.short_room_demand == ShortRoomDemand::fitting;
	int64_t blocked_cpus = 0;
	int64_t listed_cpus = 0;
	for (const Entry &entry : queue_) {
		const int64_t cpus = short_cpus(entry.job);
		listed_cpus += cpus;
		if (entry.status == JobStatus::reserved || entry.status == JobStatus::waiting ||
		    entry.status == JobStatus::beyond_horizon || entry.status == JobStatus::blocked)
			if (!fitting_only || cpus <= room_cap_cpus_)
				blocked_cpus += cpus;
	}
	// A head of the queue (starts_only): the short jobs below it could not start now either.
	if (config_.starts_only && !fitting_only && short_pending_cpus_ >= 0)
		blocked_cpus += std::max<int64_t>(short_pending_cpus_ - listed_cpus, 0);
	record_short_demand(blocked_cpus);
	const int64_t room_before = short_room_cpus_;
	size_room();
	if (short_room_cpus_ <= room_before)
		return false;
	// The room grew: plan again so the blocked short jobs may start in it now, not a pass
	// later. A walked queue (starts_only) is walked again by the caller.
	if (config_.starts_only)
		return true;
	for (Entry &entry : queue_)
		entry.long_cpus_limit = long_cpus_limit_of(entry.job);
	plan_from(0);
	return false;
}

} // namespace campaign::plan
