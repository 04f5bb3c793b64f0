// The planner's guarantees as checks over a whole plan, written with the brute-force checker:
// no over-commitment, valid shapes, and the rank rules of a freshly built plan. Test code only.
#pragma once

#include "plan/planner.h"
#include "plan_checker.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace plan_rules
{

using namespace campaign::plan;
using plan_checker::Booking;

inline std::vector<Booking> running_bookings(const std::vector<RunningJob> &running, int64_t now_s)
{
	std::vector<Booking> bookings;
	for (const RunningJob &job : running)
		bookings.push_back({now_s, job.expected_end_s, job.allocations}); // ends then
	return bookings;
}

// Over-commitment and placement shapes of every planned job.
inline std::string resource_error(const Cluster &cluster, const std::vector<RunningJob> &running,
                                  const std::vector<PendingJob> &pending, const Planner &planner)
{
	std::map<JobId, PendingJob> jobs;
	for (const PendingJob &job : pending)
		jobs[job.id] = job;
	std::vector<Booking> bookings = running_bookings(running, planner.now_s());
	for (const PlannedJob &planned : planner.queue()) {
		const bool placed = planned.status == JobStatus::starts_now ||
		                    planned.status == JobStatus::reserved;
		if (placed != (planned.start_s != never_s))
			return "job " + std::to_string(planned.id) + ": status and start disagree";
		if (!placed)
			continue;
		const PendingJob &job = jobs.at(planned.id);
		if (planned.start_s < planner.now_s())
			return "job " + std::to_string(job.id) + " planned in the past";
		std::string shape =
		    plan_checker::placement_error(cluster, job, planned.allocations);
		if (!shape.empty())
			return shape;
		bookings.push_back(
		    {planned.start_s, planned.start_s + job.limit_s, planned.allocations});
	}
	return plan_checker::overcommit(cluster, bookings, planner.now_s());
}

// The rules of a plan built in one pass: each job is judged against running jobs and the
// placements of the jobs ranked above it only, so no lower-ranked job can delay it.
inline std::string rank_rule_error(const Cluster &cluster, const std::vector<RunningJob> &running,
                                   const std::vector<PendingJob> &pending, const Planner &planner)
{
	const PlannerConfig &config = planner.config();
	const int64_t now_s = planner.now_s();
	const int32_t depth = config.mode == ReservationMode::greedy ? 0
	                      : config.mode == ReservationMode::easy ? 1
	                                                             : config.depth;
	std::vector<Booking> above = running_bookings(running, now_s);
	std::vector<PlannedJob> queue = planner.queue();
	int32_t reservations = 0;
	std::set<uint64_t> campaigns;
	for (size_t i = 0; i < queue.size(); ++i) {
		const PendingJob &job = pending[i];
		const PlannedJob &planned = queue[i];
		const std::string who =
		    "job " + std::to_string(job.id) + " (" + to_string(planned.status) + "): ";
		if (planned.id != job.id)
			return who + "queue order changed";
		if (!plan_checker::fits_at(cluster, {}, job, now_s)) {
			if (planned.status != JobStatus::cannot_run)
				return who + "cannot run even on an empty machine";
			continue;
		}
		if (planned.status == JobStatus::starts_now) {
			above.push_back({now_s, now_s + job.limit_s, planned.allocations});
			continue;
		}
		const bool entitled =
		    reservations < depth && (config.mode != ReservationMode::per_campaign ||
		                             !campaigns.contains(job.campaign_id));
		const int64_t earliest = plan_checker::earliest_fit(
		    cluster, above, job, now_s, entitled ? now_s + config.horizon_s : now_s);
		if (earliest == now_s)
			return who + "fits now given the jobs ranked above it";
		if (!entitled) {
			if (planned.status != JobStatus::waiting)
				return who + "beyond the depth but not waiting";
			continue;
		}
		++reservations;
		campaigns.insert(job.campaign_id);
		if (earliest == never_s) {
			if (planned.status != JobStatus::beyond_horizon)
				return who + "no start within the horizon exists";
			continue;
		}
		if (planned.status != JobStatus::reserved || planned.start_s != earliest)
			return who + "reserved start " + std::to_string(planned.start_s) +
			       " but the earliest given higher ranks is " +
			       std::to_string(earliest);
		above.push_back(
		    {planned.start_s, planned.start_s + job.limit_s, planned.allocations});
	}
	return "";
}

} // namespace plan_rules
