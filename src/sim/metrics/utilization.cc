// Utilization of the machine over the run: the overall figure and a series of busy fractions in
// fixed bins (for a plot). Part of compute_metrics; O(jobs + bins).
#include "metrics/metrics_parts.h"

#include <algorithm>
#include <cmath>

namespace campaign::sim::metrics_detail
{
namespace
{

constexpr size_t kMaxBins = 100000;

struct Bins {
	double origin_s = 0;
	double width_s = 1;
	size_t count = 0;
};

Bins choose_bins(const RunMetrics &out, const MetricOptions &options)
{
	Bins bins;
	const double span_s = static_cast<double>(out.last_end_s - out.first_submit_s);
	bins.origin_s = static_cast<double>(out.first_submit_s);
	bins.width_s =
	    options.utilization_bin_s > 0
	        ? options.utilization_bin_s
	        : std::max(1.0,
	                   std::ceil(span_s / std::max<uint32_t>(1, options.utilization_bins)));
	if (span_s / bins.width_s > kMaxBins)
		bins.width_s = std::ceil(span_s / kMaxBins);
	bins.count = static_cast<size_t>(std::ceil(span_s / bins.width_s));
	return bins;
}

// Busy CPU-seconds per bin: partial first and last bins directly, the full bins between them
// through a difference array.
std::vector<double> busy_cpu_s(const ScoredRun &scored, const Bins &bins)
{
	std::vector<double> busy(bins.count, 0), full_bins(bins.count + 1, 0);
	for (size_t i = 0; i < scored.run.jobs.size(); i++) {
		const JobTimes &times = scored.times[i];
		if (times.state != JobState::Finished || times.run_s == 0)
			continue;
		const double cpus = scored.cpus(i);
		const double start = scored.run.jobs[i].start_s - bins.origin_s;
		const double end = scored.run.jobs[i].end_s - bins.origin_s;
		const size_t first =
		    std::min(bins.count - 1, static_cast<size_t>(start / bins.width_s));
		const size_t last = static_cast<size_t>(end / bins.width_s);
		if (first >= last) {
			busy[first] += (end - start) * cpus;
			continue;
		}
		busy[first] += ((first + 1) * bins.width_s - start) * cpus;
		if (last < bins.count)
			busy[last] += (end - last * bins.width_s) * cpus;
		full_bins[first + 1] += bins.width_s * cpus;
		full_bins[std::min(last, bins.count)] -= bins.width_s * cpus;
	}
	double running = 0;
	for (size_t bin = 0; bin < bins.count; bin++) {
		running += full_bins[bin];
		busy[bin] += running;
	}
	return busy;
}

} // namespace

void score_utilization(const ScoredRun &scored, const MetricOptions &options, RunMetrics &out)
{
	bool any = false;
	double area_cpu_s = 0;
	for (size_t i = 0; i < scored.run.jobs.size(); i++) {
		if (scored.times[i].state != JobState::Finished)
			continue;
		const JobOutcome &outcome = scored.run.jobs[i];
		out.first_submit_s =
		    any ? std::min(out.first_submit_s, outcome.submit_s) : outcome.submit_s;
		out.last_end_s = any ? std::max(out.last_end_s, outcome.end_s) : outcome.end_s;
		any = true;
		area_cpu_s += static_cast<double>(scored.times[i].run_s) * scored.cpus(i);
	}
	const double span_s = static_cast<double>(out.last_end_s - out.first_submit_s);
	if (span_s <= 0)
		return;
	out.utilization = area_cpu_s / (scored.machine_cpus * span_s);
	const Bins bins = choose_bins(out, options);
	out.utilization_bin_s = bins.width_s;
	const std::vector<double> busy = busy_cpu_s(scored, bins);
	out.utilization_series.reserve(bins.count);
	bool over_committed = false;
	for (size_t bin = 0; bin < bins.count; bin++) {
		const double bin_start_s = bins.origin_s + bin * bins.width_s;
		const double width_s = std::min(bins.width_s, out.last_end_s - bin_start_s);
		const double busy_fraction = busy[bin] / (scored.machine_cpus * width_s);
		over_committed |= busy_fraction > 1 + 1e-9;
		out.utilization_series.push_back({bin_start_s, busy_fraction});
	}
	if (over_committed)
		out.notes.push_back("busy fraction above 1 in the utilization series: the run uses "
		                    "more CPUs than the machine's " +
		                    std::to_string(scored.machine_cpus));
}

} // namespace campaign::sim::metrics_detail
