// Several runs' metrics on one workload side by side: rows are metrics, columns are the runs'
// labels, as aligned text or as CSV. Formatting only.
#pragma once

#include "metrics/run_metrics.h"

#include <string>
#include <vector>

namespace campaign::sim
{

struct ComparisonRow {
	std::string metric;         // a dotted key, e.g. "campaign_stretch.p90"
	std::vector<double> values; // one per run
};

// The rows, in report order (profile rows for every profile any run has).
std::vector<ComparisonRow> comparison_rows(const std::vector<RunMetrics> &runs);

// "workload: NAME" (names joined by " | " if the runs differ), then the table: the metric
// column left-aligned, one right-aligned column per run headed by its label.
std::string comparison_table_text(const std::vector<RunMetrics> &runs);
// Header "metric,<label>,...", one line per row, full precision.
std::string comparison_table_csv(const std::vector<RunMetrics> &runs);

} // namespace campaign::sim
