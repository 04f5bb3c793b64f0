// A trace cut at its downtimes (Pinheiro's thesis, Sec. 5.4: periods when, in the log, no job
// ran and none was submitted), so that each piece is replayed on its own and a replay's backlog
// never runs through a time the machine was down. No policy here.
#pragma once

#include "trace/sim_job.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace campaign::sim
{

// [first, last) job ranges of a submit-ordered workload, cut before every job submitted at
// least `gap_s` after the end (in the log) of every job before it. One range if none.
std::vector<std::pair<size_t, size_t>>
downtime_pieces(const Workload &workload, const std::vector<int64_t> &runtimes_s, int64_t gap_s);

} // namespace campaign::sim
