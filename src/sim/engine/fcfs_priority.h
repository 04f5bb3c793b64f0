// FcfsPriority: the plain first-come-first-served queue, the floor campsim's speed is measured
// against. Submission order, nothing else: no campaigns, no core.
#pragma once

#include "engine/priority_source.h"

#include <vector>

namespace campaign::sim
{

class FcfsPriority final : public PrioritySource
{
public:
	Status submit(uint32_t job, const SimJob &fields, int64_t now_s) override;
	Status start(uint32_t job, int64_t now_s) override;
	Status end(uint32_t job, int64_t now_s) override;
	Result<std::vector<uint32_t>> rank(int64_t now_s) override;
	uint64_t campaign_of(uint32_t) const override { return 0; }

private:
	std::vector<uint32_t> queue_;  // submission order; started jobs removed at the next rank
	std::vector<uint8_t> started_; // by job
	size_t started_in_queue_ = 0;
};

} // namespace campaign::sim
