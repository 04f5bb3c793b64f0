// Limits against runs over a workload's jobs (see the header).
#include "trace/limit_accuracy.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace campaign::sim
{

LimitAccuracy limit_accuracy(const Workload &workload)
{
	LimitAccuracy accuracy;
	std::vector<double> parts;
	double used_cpu_s = 0, asked_cpu_s = 0;
	uint64_t under_tenth = 0;
	for (const SimJob &job : workload.jobs) {
		if (job.limit_s <= 0 || job.runtime_s <= 0)
			continue; // unknown limit, or a job that never ran: nothing to compare
		const int64_t run_s = std::min(job.runtime_s, job.limit_s);
		const double part = static_cast<double>(run_s) / static_cast<double>(job.limit_s);
		parts.push_back(part);
		used_cpu_s += static_cast<double>(run_s) * job.cpus;
		asked_cpu_s += static_cast<double>(job.limit_s) * job.cpus;
		under_tenth += part < 0.1;
	}
	accuracy.jobs = parts.size();
	if (parts.empty())
		return accuracy;
	accuracy.used_part = used_cpu_s / asked_cpu_s;
	// The lower median: a part some job really has.
	auto middle = parts.begin() + static_cast<std::ptrdiff_t>((parts.size() - 1) / 2);
	std::nth_element(parts.begin(), middle, parts.end());
	accuracy.median_part = *middle;
	accuracy.under_tenth = static_cast<double>(under_tenth) / static_cast<double>(parts.size());
	return accuracy;
}

std::string limit_accuracy_note(const LimitAccuracy &accuracy)
{
	if (accuracy.jobs == 0)
		return "limits against runs: no job with a known limit and a run";
	char text[400];
	std::snprintf(
	    text, sizeof text,
	    "limits against runs: %llu jobs with a known limit used %.0f %% of the "
	    "CPU-seconds they asked for; the median job used %.1f %% of its limit, %.0f %% "
	    "of the jobs under a tenth (--estimate fmodel --f F gives every job a limit F "
	    "times its run)",
	    static_cast<unsigned long long>(accuracy.jobs), 100 * accuracy.used_part,
	    100 * accuracy.median_part, 100 * accuracy.under_tenth);
	return text;
}

} // namespace campaign::sim
