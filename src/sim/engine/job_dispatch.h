// Dispatchers: given the startable jobs in rank order at one instant, decide which start now.
// no_backfill is plain list scheduling; every other mode runs the core's PlanKeeper as
// sched/campaign does, with the mode of the same name (plan/backfill_modes.h).
#pragma once

#include "plan/backfill_modes.h"
#include "plan/plan_keeper.h"
#include "util/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace campaign::sim
{

// The backfill mode table's modes; names via plan::to_string and plan::backfill_mode_named.
using BackfillKind = plan::BackfillMode;

// What a dispatcher may know of a job (by workload index).
struct DispatchJobs {
	const std::vector<uint32_t> *cpus = nullptr;
	// The estimate the planner uses for a job starting now (a prediction may change).
	std::function<int64_t(uint32_t job)> estimate_s;
	std::function<uint64_t(uint32_t job)> campaign_of;
	std::function<int64_t(uint32_t job)> submit_s; // empty: unknown (the local search's now)
	// The run time the ranking core expects (PendingJob::expected_run_s); empty: unknown.
	std::function<int64_t(uint32_t job)> expected_run_s;
	// The CPUs of every pending job short for the planner's room (its estimate at most the
	// short limit), listed or not: a planner that plans only the head of the queue
	// (starts_only) sizes its room by blocked demand with it. Empty: unknown.
	std::function<int64_t()> short_pending_cpus;
	// SimulationOptions::planner_estimate: what a pending job books and when a started job is
	// planned to end, where they differ from estimate_s. Empty: estimate_s.
	std::function<int64_t(uint32_t job)> pending_estimate_s, running_estimate_s;
	// What of a job's estimate, campaign, submission and expected run time may differ from
	// one pass to the next: any (predictions: its PendingJob is made again at every pass),
	// campaign_only (the core's online campaigns move as jobs end: an entry holding the same
	// job needs only its campaign again) or none (made once). The PlanKeeper is told the
	// same.
	plan::PlanKeeper::ShapeChanges changes = plan::PlanKeeper::ShapeChanges::any;
};

// The pending jobs in rank order, one at a time, as plan::PendingSource asks (job indices): a
// job may be passed over only where the planner says it would take no place.
class JobWalk
{
public:
	virtual ~JobWalk() = default;
	virtual std::optional<uint32_t> next(const plan::Planner &planner) = 0;
	virtual plan::RestBound rest() const = 0;
	virtual void restart() = 0;
};

class JobDispatch
{
public:
	virtual ~JobDispatch() = default;
	// The jobs of `order` (startable, best first) to start now, in that order. With `rest`,
	// `order` is only the head of the queue; nullopt: a job below it might start now, so
	// nothing was decided (nor started): call again with a longer head.
	virtual Result<std::optional<std::vector<uint32_t>>>
	dispatch(const std::vector<uint32_t> &order, const std::optional<plan::RestBound> &rest,
	         int64_t now_s) = 0;
	// Whether a head of the queue can do (else dispatch wants the whole queue).
	virtual bool takes_heads() const { return true; }
	// Whether dispatch_walk can plan from a walked queue (the same starts as dispatch given
	// the whole of it).
	virtual bool takes_walks() const { return false; }
	virtual Result<std::vector<uint32_t>> dispatch_walk(JobWalk &walk, int64_t now_s)
	{
		(void)walk;
		(void)now_s;
		return Error{"this dispatcher plans no walked queue"};
	}
	// Slurm's main scheduler: the jobs of `order` (best first) that start now in that order,
	// up to the first that does not fit (no reservation, no backfill).
	virtual Result<std::vector<uint32_t>> dispatch_in_order(const std::vector<uint32_t> &order,
	                                                        int64_t now_s)
	{
		(void)order;
		(void)now_s;
		return Error{"this dispatcher has no main scheduler"};
	}
	// A started job (one dispatch returned) ended.
	virtual Status ended(uint32_t job, int64_t now_s) = 0;
	// A running job outlived its estimate: it now ends no earlier than `expected_end_s`.
	virtual Status extended(uint32_t job, int64_t expected_end_s, int64_t now_s) = 0;
	virtual uint64_t free_cpus() const = 0;
	// The earliest future start the last dispatch planned (a pass must run then even if no
	// job ends or arrives); -1: none.
	virtual int64_t next_planned_start_s() const { return -1; }
};

// The machine as nodes (campsim --nodes N --node-cpus C): a job takes any CPUs on any nodes,
// as select/cons_tres places `-n K` with CR_CPU. 0 nodes: one pool of machine_cpus CPUs (a
// single node: SWF traces count processors, not nodes).
struct MachineNodes {
	uint32_t nodes = 0;
	uint32_t node_cpus = 0;
};

// Plans to print whole (plan::describe_plan, as sched/campaign logs at BackfillMap): those made
// at from_s..to_s (simulated seconds), given to `line` with the plan's time.
struct PlanDump {
	int64_t from_s = 0;
	int64_t to_s = -1; // below from_s: none
	std::function<void(int64_t now_s, const std::string &line)> line;
	bool covers(int64_t now_s) const { return line && now_s >= from_s && now_s <= to_s; }
};

// no_backfill: list scheduling; greedy, easy, conservative, per_campaign, slurm_backfill: the
// PlanKeeper with `config` (its mode is set from `kind`), planning as sched/campaign does;
// slurm_backfill's reservations hold their nodes whole.
Result<std::unique_ptr<JobDispatch>> make_dispatch(uint32_t machine_cpus, BackfillKind kind,
                                                   plan::PlannerConfig config, DispatchJobs jobs,
                                                   MachineNodes nodes = {}, PlanDump dump = {});

} // namespace campaign::sim
