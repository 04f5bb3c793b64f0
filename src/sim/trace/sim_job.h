// The simulator's workload model: jobs as a trace or a generator gives them, before any
// policy runs. Plain values only; no policy, no Slurm types.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace campaign::sim
{

// One job of a workload. Times are seconds from the workload's origin.
struct SimJob {
	uint64_t id = 0;        // the trace's job number (unique within the workload)
	uint32_t user = 0;      // user number (SWF field 12)
	uint32_t group = 0;     // group number (SWF field 13; 0 unknown), the "account"
	uint32_t partition = 0; // SWF field 16 (0 unknown); campsim uses one domain
	int64_t submit_s = 0;
	uint32_t cpus = 1;
	int64_t runtime_s = 0;      // actual run time (>= 0)
	int64_t limit_s = -1;       // requested time (-1 unknown: the estimate model decides)
	int64_t trace_start_s = -1; // the log's own start (submit + wait); -1 unknown
	int64_t log_submit_s = -1;  // the log's own submission when --load moved submit_s; -1: same
	int32_t status = 1;         // SWF status: 1 done, 0 failed, 5 cancelled, -1 unknown
	// Closed-loop workloads (the papers' generators): the job belongs to explicit campaign
	// `campaign` (1, 2, ... over the workload; 0 = none) and is submitted when the user's
	// previous campaign has completed plus `think_s`; submit_s is then ignored.
	uint64_t campaign = 0;
	int64_t think_s = 0;
};

// What reading or generating a workload kept and dropped, for the report.
struct InputCounts {
	uint64_t lines = 0;               // data lines read (comments excluded)
	uint64_t kept = 0;                // jobs in the workload
	uint64_t placeholder_dropped = 0; // SWF lines with every field -1 (dropped)
	uint64_t unknown_submit = 0;      // SWF submit time -1 (dropped)
	uint64_t cancelled_dropped = 0;   // status 5 with no run time
	uint64_t zero_runtime = 0;        // run time 0 (kept, run 0 s)
	uint64_t unknown_runtime = 0;     // run time -1 (dropped)
	uint64_t unknown_cpus = 0;        // allocated and requested processors -1 (dropped)
	uint64_t clamped_cpus = 0;        // more CPUs than the machine: clamped to the machine
	uint64_t outside_window = 0;      // outside --from/--to
	uint64_t malformed_skipped = 0;   // --lenient only
	uint64_t limit_below_runtime = 0; // requested time < run time (kept; cut at the limit)
	uint64_t zero_limit_unknown = 0;  // requested time 0 (kept, read as unknown: -1)
	uint64_t status_outside_swf = 0;  // SWF status outside -1..5 (kept, read as -1)
	uint64_t work_cpu_s = 0;          // kept jobs' run time x CPUs, as in the log
	uint64_t cut_at_limit_cpu_s = 0;  // of which lost when jobs are cut at their limit
	// sacct only.
	uint64_t steps_dropped = 0;         // job steps (123.batch, 123.0, 123.extern)
	uint64_t unfinished_dropped = 0;    // pending, running, ... at export time
	uint64_t earlier_runs_dropped = 0;  // --duplicates: a requeued job's earlier records
	uint64_t array_tasks = 0;           // array tasks (123_4) kept, one job each
	uint64_t eligible_after_submit = 0; // kept jobs that arrive at Eligible, after Submit
};

struct Workload {
	std::string name;          // file name or generator name with its seed
	uint32_t machine_cpus = 0; // MaxProcs (SWF header), the generator's m, or an option
	bool closed_loop = false;  // campaigns released one after another (SimJob::campaign)
	std::vector<SimJob> jobs;  // sorted by submit_s, then id (closed loop: campaign, then id)
	InputCounts counts;
	std::vector<std::string> notes;             // the stated input policies, one line each
	std::map<uint32_t, std::string> user_names; // sacct: user number -> name (or pseudonym)
};

} // namespace campaign::sim
