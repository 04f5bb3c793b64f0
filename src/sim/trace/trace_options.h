// What every trace reader (SWF, sacct, job list) is told: one struct, so campsim fills it once
// and a new option reaches every reader alike.
#pragma once

#include <cstdint>
#include <optional>

namespace campaign::sim
{

struct TraceOptions {
	// The machine's CPUs. SWF: overrides the MaxProcs/MaxNodes header; sacct: required (it
	// does not say); job list: required unless its JSON gives it, which this overrides.
	std::optional<uint32_t> machine_cpus;
	std::optional<int64_t> from_s; // keep jobs arriving at or after (the trace's seconds)
	std::optional<int64_t> to_s;   // ... and before this
	bool lenient = false;          // skip and count malformed lines or jobs instead of failing
	bool anonymise = false; // sacct only: user names -> u1, u2, ... in order of appearance
};

} // namespace campaign::sim
