// One fuzz input of the core ('S' state loader, 'E' byte-coded events, else parameter parser):
// must never crash; traps when an accepted input misbehaves or an error names nothing.
#pragma once

#include "config/priority_parameters.h"
#include "policy/campaign_core.h"
#include "state/core_state_json.h"

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
	const std::string saved = CoreStateCodec::save(core);
	auto again = CoreStateCodec::load(saved);
	require(again.ok() && CoreStateCodec::save(again.value()) == saved);
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

// Events decoded from bytes (4 per event: kind, job, time step, value) applied to a core; the
// core must stay consistent: every ranking is total and a save/load round trip is exact.
inline void exercise_events(const uint8_t *data, size_t size)
{
	const char *configurations[] = {"policy=ostrich", "policy=ostrich,mode=strict,resizing=yes",
	                                "policy=faircamp", "policy=fifo,rule=window,window_s=5"};
	CampaignCore core =
	    CampaignCore::create(configurations[size > 1 ? data[1] % 4 : 0]).value();
	int64_t now_s = 0;
	for (size_t at = 2; at + 4 <= size; at += 4) {
		const uint8_t kind = data[at] % 10, value = data[at + 3];
		const uint32_t job_id = 1 + data[at + 1] % 32;
		now_s += data[at + 2] % 16;
		const std::string partition = value % 2 ? "p" : "q";
		if (kind == 0)
			(void)core.capacity({partition, value, std::nullopt, std::nullopt}, now_s);
		if (kind == 1 || kind == 2) {
			JobFields job;
			job.job_id = job_id;
			job.user_id = value % 5;
			job.partitions = {partition};
			job.submit_s = now_s;
			job.eligible_s = now_s + (value % 7 == 0 ? 3 : 0);
			job.cpus = 1 + value % 9;
			job.limit =
			    value % 11 == 0 ? TimeLimit::infinite() : TimeLimit::of_seconds(value);
			(void)core.submit(job, now_s);
		}
		if (kind == 3)
			(void)core.start(job_id, now_s);
		if (kind == 4)
			(void)core.end(job_id, now_s);
		if (kind == 5)
			(void)(value % 2 ? core.hold(job_id, now_s) : core.release(job_id, now_s));
		if (kind == 6)
			(void)core.update({.job_id = job_id, .limit = TimeLimit::of_seconds(value)},
			                  now_s);
		if (kind == 7) {
			JobUpdate move{.job_id = job_id};
			move.partitions = std::vector<std::string>{partition};
			(void)core.update(move, now_s);
		}
		if (kind == 8)
			(void)core.eligible(job_id, now_s);
		if (kind == 9) {
			const Ranking ranking = core.rank(now_s);
			require(ranking.error.empty() &&
			        ranking.order.size() == ranking.explanations.size());
		}
	}
	const std::string saved = CoreStateCodec::save(core);
	auto again = CoreStateCodec::load(saved);
	require(again.ok() && CoreStateCodec::save(again.value()) == saved);
	require(again.value().rank(now_s + 1).order == core.rank(now_s + 1).order);
}

// The error text ("" when the input was accepted).
// events_on false: an 'E' input goes to the parameter parser like any other, so a run meant for
// the loader and the parser spends every input on them.
inline std::string exercise_core_input(const uint8_t *data, size_t size, bool events_on = true)
{
	if (events_on && size > 0 && data[0] == 'E') {
		exercise_events(data, size);
		return "";
	}
	const bool state = size > 0 && data[0] == 'S';
	const std::string text(reinterpret_cast<const char *>(data) + (size > 0 ? 1 : 0),
	                       size > 0 ? size - 1 : 0);
	if (state) {
		auto loaded = CoreStateCodec::load(text);
		if (!loaded.ok()) {
			require(loaded.error().rfind("state", 0) == 0);
			return loaded.error();
		}
		exercise_loaded(std::move(loaded).value());
		return "";
	}
	auto parsed = core_parameter_schema().parse(text);
	if (!parsed.ok()) {
		require(!parsed.error().empty());
		return parsed.error();
	}
	require(CampaignCore::create(parsed.value()).ok());
	return "";
}

} // namespace campaign_fuzz
