// One run's report files: the metrics as JSON (with the workload's input counts and the metric
// options), and CSV tables of per-job outcomes, per-campaign and per-user rows. Formatting only.
#pragma once

#include "engine/run_result.h"
#include "metrics/run_metrics.h"
#include "trace/sim_job.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace campaign::sim
{

// The run's metrics as indented JSON text (format "campsim-run-metrics", version 1).
std::string run_json(const Workload &workload, const RunResult &run, const RunMetrics &metrics,
                     const MetricOptions &options);
Status write_run_json(const std::string &path, const Workload &workload, const RunResult &run,
                      const RunMetrics &metrics, const MetricOptions &options);

// Writes <directory>/<stem>.jobs.csv (one row per outcome, in run order),
// <stem>.campaigns.csv (one row per scored campaign) and <stem>.users.csv (one row per user
// with a finished job). Returns the paths written, in that order.
Result<std::vector<std::string>> write_run_csv(const std::string &directory,
                                               const std::string &stem, const Workload &workload,
                                               const RunResult &run, const RunMetrics &metrics,
                                               const MetricOptions &options);

// The CSV texts themselves (header line first).
std::string jobs_csv(const Workload &workload, const RunResult &run, const MetricOptions &options);
std::string campaigns_csv(const RunMetrics &metrics);
std::string users_csv(const RunMetrics &metrics);

} // namespace campaign::sim
