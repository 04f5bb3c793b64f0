// Delta(zeta) for the FairCamp user stretch: the makespan of an LPT list schedule of one
// campaign's jobs on the whole machine, computed by the core (policy/faircamp_deadlines.h).
#pragma once

#include <cstdint>
#include <vector>

namespace campaign::sim
{

struct LptJob {
	int64_t runtime_s = 0; // < 0 counts as 0
	uint32_t cpus = 1;     // clamped to [1, machine_cpus]
};

// Longest first (ties keep the given order), each job on its CPU count, a job never starting
// before the one listed before it: the same list schedule as the core's FairCamp Delta
// (policy/faircamp_deadlines.h), so the metric's denominator is the one the policy's deadlines
// use. For 1-CPU jobs this is Graham's LPT on m machines (each job on the least loaded one).
// O(n log n), independent of machine_cpus. 0 for no jobs.
int64_t lpt_makespan_s(std::vector<LptJob> jobs, uint32_t machine_cpus);

} // namespace campaign::sim
