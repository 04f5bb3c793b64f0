// The job list a replay on a real cluster submits: a workload's window mapped to the local
// cluster's CPUs and users and compressed in time, with Slurm's whole-minute limits. campsim
// predicts the replay from the same list (`campsim run --jobs`), so both see the same rounding.
// Plain values; no Slurm here.
#pragma once

#include "trace/sim_job.h"
#include "util/result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace campaign::sim
{

// How a job's CPUs become the cluster's: `scale` multiplies them by cluster CPUs / trace
// machine CPUs (rounded to nearest, at least 1), which keeps the offered load; `identity` keeps
// them as logged, and a job wider than the cluster is dropped or clamped (`wide`).
enum class CpuMap { scale, identity };
enum class WideJobs { drop, clamp };

struct ReplayOptions {
	uint32_t nodes = 0;
	uint32_t cpus_per_node = 0;
	double compression = 1; // trace seconds per replay second (>= 1)
	CpuMap cpu_map = CpuMap::scale;
	WideJobs wide = WideJobs::drop;
	std::string user_prefix = "rp"; // local login = prefix + the trace's user number
};

struct ReplayJob {
	uint64_t id = 0;         // the trace's job id
	std::string login;       // local user (one per trace user, never shared)
	uint32_t trace_user = 0; // the trace's user number
	int64_t submit_s = 0;    // replay seconds from the window's first submission
	uint32_t cpus = 1;       // on the cluster
	int64_t limit_min = 1;   // Slurm --time, whole minutes, rounded up, >= 1
	int64_t runtime_s = 0;   // how long the job sleeps (<= limit_min x 60)
	// As logged, for the record.
	int64_t trace_submit_s = 0;
	uint32_t trace_cpus = 1;
	int64_t trace_runtime_s = 0; // min(run time, limit) where the limit is known
	int64_t trace_limit_s = -1;
};

struct ReplayCounts {
	uint64_t workload_jobs = 0;
	uint64_t wide_dropped = 0;     // identity map, --wide drop
	uint64_t wide_clamped = 0;     // identity map, --wide clamp
	uint64_t unknown_limit = 0;    // no limit logged: the run time (compressed) is the limit
	uint64_t limit_rounded_up = 0; // compressed limit not a whole minute: rounded up
	uint64_t runtime_below_1s = 0; // a run time > 0 that compresses to less than 1 s: 1 s
	uint64_t closed_loop_jobs = 0; // generated workload unrolled (see replay_plan)
	double limit_added_s = 0;      // replay seconds the rounding added, over all jobs
};

inline constexpr const char *kDefaultRoomNote = "sched/campaign default room, compressed: ";

struct ReplayPlan {
	uint32_t cluster_cpus = 0;
	uint32_t trace_cpus = 0;
	double cpu_factor = 1;       // cluster CPUs per trace CPU under CpuMap::scale
	std::vector<ReplayJob> jobs; // in submission order
	ReplayCounts counts;
	// The mapping and every rounding, one line each, and the default room's line
	// (kDefaultRoomNote + replay_default_room).
	std::vector<std::string> notes;
};

// Ceil(limit_s / compression / 60), at least 1: Slurm's --time is whole minutes.
int64_t replay_limit_minutes(int64_t limit_s, double compression);
// Round(cpus x factor), at least 1, at most cluster_cpus.
uint32_t scaled_cpus(uint32_t cpus, double factor, uint32_t cluster_cpus);

// sched/campaign's default room for short jobs as SchedulerParameters for a replay compressed
// by `compression`: plan/scheduler_defaults.h's values with its two times compressed as the
// jobs' are (the short limit whole minutes, at least one; the recent window at least 1 s), so a
// replay's cluster runs the default the simulator plans with. replay.py reads it from the notes.
std::string replay_default_room(double compression);

// Closed-loop workloads (the generators) are unrolled first: each user's campaigns one after
// another, the next released when the previous one's longest job would end had it started at
// once, plus the think time. The replay is then open loop (stated in the notes).
Result<ReplayPlan> plan_replay(const Workload &workload, const ReplayOptions &options);

// CSV with a header that `campsim run --jobs` reads (id,user,submit,cpus,limit,runtime; limit
// in seconds = limit_min x 60) plus limit_min and the logged values.
std::string replay_plan_csv(const ReplayPlan &plan);

} // namespace campaign::sim
