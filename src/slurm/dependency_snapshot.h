// Jobs that wait for a dependency (afterok, afterany, afternotok, singleton) or a begin time
// later than now, as planner input. build_job_queue leaves them out (job_independent) and
// sched/backfill never plans them; sched/campaign plans each after the expected end of the jobs
// it waits for and not before its begin time, so squeue --start shows when it can run. Caller
// holds the job read lock at least (kSchedule in sched/campaign's pass).
#pragma once

#include "slurm_api.h"

#include "plan/plan_types.h"

#include <ctime>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace campaign::slurm
{

// Appends a queue record (one per partition, as build_job_queue does) for each pending job
// build_job_queue did not queue because of a dependency, a begin time or a reservation that
// starts later alone (plan_snapshot plans the last inside the reservation): not held, revoked,
// completing or heterogeneous. Call after build_job_queue, before sort_job_queue.
void queue_waiting_jobs(list_t *queue, time_t now);

// What a pending job waits for, in plan terms (plan ids: plan_snapshot.h).
struct Waits {
	int64_t earliest_start_s = 0;      // 0: now
	std::vector<plan::JobId> after;    // running or pending jobs whose end it waits for
	const char *not_planned = nullptr; // a left-out reason: the plan cannot model the wait
};

class WaitReader
{
public:
	explicit WaitReader(time_t now) : now_(now) {}
	// A job waiting for a running job is never planned to start now (the planner places it
	// after that job's end, at least a second from now). One whose predecessors all ended is
	// made eligible by Slurm's next test; sched_pass never starts a job still waiting, as
	// select_nodes does not check dependencies or begin times.
	Waits waits_of(const job_record_t *job);

private:
	void add_singleton(const job_record_t *job, Waits &waits);
	void add_one(const depend_spec_t *dependency, Waits &waits);

	time_t now_;
	// singleton: the jobs of each (user, name), built at the first singleton seen
	bool indexed_ = false;
	std::map<std::pair<uint32_t, std::string>, std::vector<const job_record_t *>> by_name_;
};

} // namespace campaign::slurm
