// The value formats of `sacct --parsable2` output: times, durations, time limits and job states,
// each parsed strictly. No column or drop rule here (sacct_reader does that).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/result.h"

namespace campaign::sim
{

// "2026-11-25T19:20:01" read as UTC (run sacct with TZ=UTC: no daylight-saving jump) -> seconds
// since the epoch; "Unknown", "None" and "" -> nullopt.
Result<std::optional<int64_t>> parse_sacct_time(std::string_view text);

// Slurm's durations, "[D-]HH:MM:SS", "D-HH:MM", "D-HH", "MM:SS" and "MM", in seconds.
Result<int64_t> parse_sacct_duration(std::string_view text);

// A time limit: Timelimit (a duration) or TimelimitRaw (minutes); "UNLIMITED",
// "Partition_Limit" and "" -> nullopt (no limit of the job's own).
Result<std::optional<int64_t>> parse_sacct_limit(std::string_view text, bool raw_minutes);

// What campsim does with a record of a job in that state.
enum class SacctStateKind {
	finished,  // ran and ended: COMPLETED, FAILED, TIMEOUT, NODE_FAIL, ...
	cancelled, // CANCELLED (ran or not: the run time decides)
	unfinished // PENDING, RUNNING, REQUEUED, SUSPENDED, ... at export time
};

// The State column ("CANCELLED by 1001" reads as CANCELLED); an unknown state is an error.
Result<SacctStateKind> parse_sacct_state(std::string_view text);

} // namespace campaign::sim
