// What one simulated run produced: every job's times under one policy, and what the run cost.
// Plain values, read by the metrics and the report. No policy logic here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace campaign::sim
{

struct JobOutcome {
	uint32_t job = 0;     // index into Workload::jobs
	int64_t submit_s = 0; // as simulated (closed loop: when its campaign was released)
	int64_t start_s = -1; // -1: never started (the run stopped first)
	int64_t end_s = -1;
	uint64_t campaign = 0; // the shared campaign the metrics score (same for every policy)
};

struct RunResult {
	std::string label;    // e.g. "ostrich/per_campaign"
	std::string priority; // fifo, fairshare, fairtree, ostrich, ostrich-strict, faircamp, ...
	std::string backfill; // none, easy, conservative, per_campaign
	std::string estimate; // exact, requested, fmodel, predicted
	uint32_t machine_cpus = 0;
	std::vector<JobOutcome> jobs;  // in workload order
	uint64_t scheduler_events = 0; // scheduling decisions (passes) taken
	uint64_t dependent_jobs = 0;   // dependency replay: jobs that waited for others
	uint64_t pieces = 1;           // pieces replayed (downtime split)
	double scheduler_cpu_s = 0;    // CPU time spent ranking and planning
	double wall_s = 0;             // the whole run
	uint64_t peak_rss_kb = 0;      // of the process after the run
	// The campsim command line that made the run (arguments after the program name), kept in
	// its report so that a result file says how to make it again; empty where no command did.
	std::vector<std::string> command;
};

} // namespace campaign::sim
