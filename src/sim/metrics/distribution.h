// Summaries of a set of values for the run metrics: count, mean, nearest-rank percentiles, max;
// and Jain's fairness index. Plain arithmetic; no workload or policy types.
#pragma once

#include <cstdint>
#include <vector>

namespace campaign::sim
{

// Every distribution the metrics report. All zero when count == 0.
struct Distribution {
	uint64_t count = 0;
	double mean = 0;
	double p50 = 0; // nearest rank: the smallest value with at least 50% of values <= it
	double p90 = 0;
	double p95 = 0;
	double p99 = 0;
	double max = 0;
};

// Summarizes `values` (taken by value: they are sorted in place).
Distribution summarize(std::vector<double> values);

// Nearest-rank percentile of sorted values: sorted[ceil(percent / 100 * n) - 1] (the first
// value for percent 0). 0 for an empty vector.
double percentile_of_sorted(const std::vector<double> &sorted, double percent);

// Jain's fairness index (sum x)^2 / (n * sum x^2): 1 when all values are equal, 1/n when one
// value holds everything. 1 for all-zero values (equal), 0 for an empty vector.
double jain_index(const std::vector<double> &values);

} // namespace campaign::sim
