// `campsim rank`: replays a captured job list (submit, and start/end where known) through the
// core up to one instant and prints the order of the jobs still pending at it, best first.
// Lets the cluster tests check that Slurm's ranks and the simulator's are the same.
#pragma once

#include "cli/campsim_options.h"
#include "trace/sim_job.h"

#include <vector>

namespace campaign::sim
{

// The trace ids of the jobs pending at `at_s`, best first, under core `parameters`.
Result<std::vector<uint64_t>> rank_at(const Workload &workload, const std::string &parameters,
                                      int64_t at_s);

int rank_command(const CampsimOptions &options);

} // namespace campaign::sim
