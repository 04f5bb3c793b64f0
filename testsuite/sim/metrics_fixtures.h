// Hand-made runs for the metrics and report tests: a job is (user, cpus, campaign, submit,
// start, end), its run time end - start. No engine: the outcomes are written down directly.
#pragma once

#include "check_main.h"
#include "engine/run_result.h"
#include "trace/sim_job.h"

#include <cmath>
#include <filesystem>
#include <unistd.h>

namespace metrics_test
{

using namespace campaign::sim;

struct Row {
	uint32_t user = 1;
	uint32_t cpus = 1;
	uint64_t campaign = 0;
	int64_t submit_s = 0;
	int64_t start_s = -1; // -1: never started
	int64_t end_s = -1;   // -1: never ended
};

struct Run {
	Workload workload;
	RunResult result;
};

inline Run make_run(uint32_t machine_cpus, const std::vector<Row> &rows,
                    const std::string &label = "fifo/no_backfill")
{
	Run run;
	run.workload.name = "hand-made";
	run.workload.machine_cpus = machine_cpus;
	run.result.label = label;
	run.result.priority = label.substr(0, label.find('/'));
	run.result.backfill = "none";
	run.result.estimate = "exact";
	run.result.machine_cpus = machine_cpus;
	for (const Row &row : rows) {
		SimJob job;
		job.id = run.workload.jobs.size() + 1;
		job.user = row.user;
		job.cpus = row.cpus;
		job.submit_s = row.submit_s;
		job.runtime_s = row.end_s >= 0 && row.start_s >= 0 ? row.end_s - row.start_s : 0;
		job.limit_s = job.runtime_s;
		job.campaign = row.campaign;
		JobOutcome outcome;
		outcome.job = static_cast<uint32_t>(run.workload.jobs.size());
		outcome.submit_s = row.submit_s;
		outcome.start_s = row.start_s;
		outcome.end_s = row.end_s;
		outcome.campaign = row.campaign;
		run.workload.jobs.push_back(job);
		run.result.jobs.push_back(outcome);
	}
	run.workload.counts.lines = rows.size();
	run.workload.counts.kept = rows.size();
	return run;
}

inline bool near(double actual, double expected, double tolerance = 1e-9)
{
	return std::abs(actual - expected) <= tolerance;
}

// A fresh directory under /tmp, removed with everything in it when the test ends.
struct TemporaryDirectory {
	std::string path;
	TemporaryDirectory()
	{
		char name[] = "/tmp/campsim-test-XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(name));
		path = name;
	}
	~TemporaryDirectory()
	{
		std::error_code ignored;
		std::filesystem::remove_all(path, ignored);
	}
};

#define ck_assert_near(actual, expected)                                                           \
	ck_assert_msg(metrics_test::near((actual), (expected)), "%s = %.12g, expected %.12g",      \
	              #actual, static_cast<double>(actual), static_cast<double>(expected))

} // namespace metrics_test
