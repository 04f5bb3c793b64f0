// ReservationPolicy: which queued jobs get a reservation; modes differ only in depth and "one per
// campaign" (as flux-sched's queue policies). Knows nothing about resources.
#pragma once

#include "plan/plan_types.h"

#include <cstdint>
#include <set>

namespace campaign::plan
{

class ReservationPolicy
{
public:
	explicit ReservationPolicy(const PlannerConfig &config);

	// Walking the queue in rank order: may this job (which cannot start now) get a reservation?
	bool may_reserve(const PendingJob &job) const;
	// No job outside a window may get a reservation any more in this walk (the depth is
	// used up): may_reserve is false for every one of them.
	bool exhausted() const { return reservations_ >= depth_; }
	void record_reservation(const PendingJob &job);
	void reset();
	int32_t depth() const { return depth_; }
	int32_t reservations() const { return reservations_; }

private:
	int32_t depth_;
	bool one_per_campaign_;
	int32_t reservations_ = 0;
	std::set<uint64_t> campaigns_reserved_;
};

} // namespace campaign::plan
