// Summaries of a set of values for the run metrics: count, mean, nearest-rank percentiles, max;
// and Jain's fairness index. Plain arithmetic; no workload or policy types.
#include "metrics/distribution.h"

#include <algorithm>
#include <cmath>

namespace campaign::sim
{

double percentile_of_sorted(const std::vector<double> &sorted, double percent)
{
	if (sorted.empty())
		return 0;
	const double rank = std::ceil(percent * static_cast<double>(sorted.size()) / 100.0);
	const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
	return sorted[std::min(index, sorted.size() - 1)];
}

Distribution summarize(std::vector<double> values)
{
	Distribution out;
	if (values.empty())
		return out;
	std::sort(values.begin(), values.end());
	double sum = 0;
	for (const double value : values)
		sum += value;
	out.count = values.size();
	out.mean = sum / static_cast<double>(values.size());
	out.p50 = percentile_of_sorted(values, 50);
	out.p90 = percentile_of_sorted(values, 90);
	out.p95 = percentile_of_sorted(values, 95);
	out.p99 = percentile_of_sorted(values, 99);
	out.max = values.back();
	return out;
}

double jain_index(const std::vector<double> &values)
{
	if (values.empty())
		return 0;
	double sum = 0;
	double sum_of_squares = 0;
	for (const double value : values) {
		sum += value;
		sum_of_squares += value * value;
	}
	if (sum_of_squares == 0)
		return 1;
	return sum * sum / (static_cast<double>(values.size()) * sum_of_squares);
}

} // namespace campaign::sim
