// One fuzz input of the core's two text readers: first byte 'S' -> the state loader, anything
// else -> the PriorityParameters parser. Shared by the libFuzzer target and the seed test; it
// must never crash, and traps when an accepted input misbehaves or an error names nothing.
#pragma once

#include "policy/campaign_core.h"
#include "policy/priority_parameters.h"

#include <cstdint>
#include <string>

namespace campaign_fuzz
{

using namespace campaign;

inline void require(bool condition)
{
	if (!condition)
		__builtin_trap();
}

// A loaded state must rank, take events and round-trip through save/load.
inline void exercise_loaded(CampaignCore core)
{
	const std::string saved = core.save();
	auto again = CampaignCore::load(saved);
	require(again.ok() && again.value().save() == saved);
	Ranking ranking = core.rank(0);
	require(ranking.order.size() == ranking.explanations.size());
	JobFields job;
	job.job_id = 4000000000u;
	job.partitions = {"p"};
	job.eligible_s = 0;
	job.limit = TimeLimit::of_seconds(60);
	require(core.submit(job, 0).ok());
	(void)core.start(1, 10);
	(void)core.end(2, 20);
	(void)core.rank(30);
}

// The error text ("" when the input was accepted).
inline std::string exercise_core_input(const uint8_t *data, size_t size)
{
	const bool state = size > 0 && data[0] == 'S';
	const std::string text(reinterpret_cast<const char *>(data) + (size > 0 ? 1 : 0),
	                       size > 0 ? size - 1 : 0);
	if (state) {
		auto loaded = CampaignCore::load(text);
		if (!loaded.ok()) {
			require(loaded.error().rfind("state", 0) == 0);
			return loaded.error();
		}
		exercise_loaded(std::move(loaded).value());
		return "";
	}
	auto parsed = priority_parameter_schema().parse(text);
	if (!parsed.ok()) {
		require(!parsed.error().empty());
		return parsed.error();
	}
	require(CampaignCore::create(parsed.value()).ok());
	return "";
}

} // namespace campaign_fuzz
