// Offered load and inter-arrival scaling (campsim run --load).
#include "workload/offered_load.h"

#include "engine/estimates.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace campaign::sim
{

namespace
{

struct Span {
	int64_t first_s = std::numeric_limits<int64_t>::max();
	int64_t last_s = std::numeric_limits<int64_t>::min();
};

Span submission_span(const Workload &workload)
{
	Span span;
	for (const SimJob &job : workload.jobs) {
		span.first_s = std::min(span.first_s, job.submit_s);
		span.last_s = std::max(span.last_s, job.submit_s);
	}
	return span;
}

} // namespace

double offered_load(const Workload &workload, const std::vector<int64_t> &runtimes_s)
{
	const Span span = submission_span(workload);
	if (workload.jobs.empty() || span.last_s <= span.first_s || workload.machine_cpus == 0)
		return 0;
	long double work = 0;
	for (size_t i = 0; i < workload.jobs.size(); ++i)
		work += static_cast<long double>(workload.jobs[i].cpus) * runtimes_s[i];
	return static_cast<double>(work / (static_cast<long double>(workload.machine_cpus) *
	                                   static_cast<long double>(span.last_s - span.first_s)));
}

Status scale_to_load(Workload &workload, double target)
{
	if (workload.closed_loop)
		return Error{"--load: " + workload.name +
		             " is a closed-loop workload (submissions follow completions)"};
	if (!(target > 0))
		return Error{"--load: the target must be above 0"};
	const double offered = offered_load(workload, effective_runtimes(workload));
	if (!(offered > 0))
		return Error{"--load: " + workload.name +
		             ": offered load unknown (no work, or every job submitted at once)"};
	const double factor = offered / target;
	const int64_t first_s = submission_span(workload).first_s;
	for (SimJob &job : workload.jobs) {
		if (job.log_submit_s < 0)
			job.log_submit_s = job.submit_s;
		job.submit_s =
		    first_s + std::llround(static_cast<double>(job.submit_s - first_s) * factor);
	}
	char note[200];
	std::snprintf(note, sizeof note,
	              "--load %.3g: inter-arrival times scaled by %.4f (offered load %.4f of the "
	              "machine in the log); campaigns scored as detected on the log",
	              target, factor, offered);
	workload.notes.emplace_back(note);
	return ok_status();
}

} // namespace campaign::sim
