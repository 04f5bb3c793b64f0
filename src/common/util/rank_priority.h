// Maps a total order of pending jobs to Slurm priority values: rank 0 gets the top value, each
// later rank one less, never below 1 (Slurm reads 0 as "held"). No Slurm types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace campaign {

inline constexpr uint32_t kTopPriority = 1'000'000'000;

uint32_t priority_for_rank(size_t rank);

// A pending job as the FIFO order sees it.
struct FifoEntry {
	uint32_t job_id = 0;
	int64_t submit_s = 0;
};

// Submit order, ties by job id: the order priority/campaign gives with policy=fifo.
std::vector<uint32_t> fifo_order(std::vector<FifoEntry> jobs);

} // namespace campaign
