// Maps a total order of pending jobs to Slurm priority values: rank 0 gets the top value, each
// later rank one less, never below 1 (Slurm reads 0 as "held"); a job's nice moves its value as
// Slurm defines nice. No Slurm types.
#pragma once

#include <cstddef>
#include <cstdint>

namespace campaign
{

inline constexpr uint32_t kTopPriority = 1'000'000'000;

// Highest value we publish: below NO_VAL (0xfffffffe) and INFINITE, which Slurm reads as "unset"
// and "release".
inline constexpr uint32_t kHighestPriority = 0xfffffffd;

uint32_t priority_for_rank(size_t rank);

// The value Slurm sees: the rank's value less the job's nice (nice - NICE_OFFSET: positive lowers,
// an operator's negative nice raises), within [1, kHighestPriority], as priority/basic and
// priority/multifactor subtract nice from the value they compute.
uint32_t published_priority(uint32_t rank_priority, int64_t nice);

// The rank value behind a published one, given the nice it was published with: the inverse of
// published_priority while no clamp applied.
int64_t rank_priority_of(uint32_t published, int64_t nice);

} // namespace campaign
