// ReservationPolicy: the reservation depth of each mode, and the per-campaign rule. No resources.
#include "plan/reservation_policy.h"

#include <algorithm>

namespace campaign::plan
{

namespace
{
int32_t depth_of(const PlannerConfig &config)
{
	switch (config.mode) {
	case ReservationMode::greedy:
		return 0;
	case ReservationMode::easy:
		return 1;
	case ReservationMode::conservative:
	case ReservationMode::per_campaign:
		return std::max(config.depth, 0);
	}
	return 0;
}
} // namespace

ReservationPolicy::ReservationPolicy(const PlannerConfig &config)
    : depth_(depth_of(config)), one_per_campaign_(config.mode == ReservationMode::per_campaign)
{
}

// A job of a later reservation is always placed inside it, and takes no slot: it holds back
// none of the jobs outside the window (which keeps them off its nodes anyway). A job waiting for
// others' ends (PendingJob::after) is placed while a slot is free but takes none either: it can
// start only after its predecessor, and the slot (easy's one, its campaign's one) stays for the
// job that can start first.
bool ReservationPolicy::may_reserve(const PendingJob &job) const
{
	if (job.window_id != 0)
		return true;
	if (reservations_ >= depth_)
		return false;
	return !one_per_campaign_ || !campaigns_reserved_.contains(job.campaign_id);
}

void ReservationPolicy::record_reservation(const PendingJob &job)
{
	if (job.window_id != 0 || !job.after.empty())
		return;
	++reservations_;
	if (one_per_campaign_)
		campaigns_reserved_.insert(job.campaign_id);
}

void ReservationPolicy::reset()
{
	reservations_ = 0;
	campaigns_reserved_.clear();
}

const char *to_string(JobStatus status)
{
	switch (status) {
	case JobStatus::starts_now:
		return "starts_now";
	case JobStatus::reserved:
		return "reserved";
	case JobStatus::waiting:
		return "waiting";
	case JobStatus::beyond_horizon:
		return "beyond_horizon";
	case JobStatus::cannot_run:
		return "cannot_run";
	case JobStatus::refused:
		return "refused";
	case JobStatus::blocked:
		return "blocked";
	}
	return "unknown";
}

const char *to_string(ReservationMode mode)
{
	switch (mode) {
	case ReservationMode::greedy:
		return "greedy";
	case ReservationMode::easy:
		return "easy";
	case ReservationMode::conservative:
		return "conservative";
	case ReservationMode::per_campaign:
		return "per_campaign";
	}
	return "unknown";
}

} // namespace campaign::plan
