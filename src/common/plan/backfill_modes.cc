// The backfill mode table and its old aliases. No Slurm types.
#include "plan/backfill_modes.h"

#include <algorithm>
#include <array>

namespace campaign::plan
{
namespace
{

struct ModeEntry {
	BackfillMode mode;
	const char *name;
	bool in_sched_campaign; // sched/campaign runs it (no_backfill and slurm_backfill are
	                        // campsim's baselines only)
};

constexpr std::array<ModeEntry, 6> kModes = {{
    {BackfillMode::conservative, "conservative", true},
    {BackfillMode::easy, "easy", true},
    {BackfillMode::per_campaign, "per_campaign", true},
    {BackfillMode::greedy, "greedy", true},
    {BackfillMode::no_backfill, "no_backfill", false},
    // sched/campaign: any mode with campaign_whole_node_reservations=yes
    {BackfillMode::slurm_backfill, "slurm_backfill", false},
}};

// "none", the first release's name, meant a different mode in each reader.
constexpr const char *kOldNone = "none";

bool runs(const ModeEntry &entry, ModeReader reader)
{
	return reader == ModeReader::campsim || entry.in_sched_campaign;
}

std::string accepted(ModeReader reader)
{
	std::string names;
	for (const std::string &name : backfill_mode_names(reader))
		names += (names.empty() ? "" : ", ") + name;
	return names;
}

NamedMode old_none(ModeReader reader)
{
	if (reader == ModeReader::sched_campaign)
		return {BackfillMode::greedy,
		        "campaign_mode=none is an old name of campaign_mode=greedy (first fit, no "
		        "reservation): write greedy"};
	return {BackfillMode::no_backfill,
	        "backfill mode 'none' is an old name of no_backfill (start in order, stop at the "
	        "first job that does not fit): write no_backfill (greedy is sched/campaign's old "
	        "'none')"};
}

} // namespace

const char *to_string(BackfillMode mode)
{
	for (const ModeEntry &entry : kModes)
		if (entry.mode == mode)
			return entry.name;
	return "unknown";
}

Result<NamedMode> backfill_mode_named(std::string_view name, ModeReader reader)
{
	if (name == kOldNone)
		return old_none(reader);
	for (const ModeEntry &entry : kModes)
		if (name == entry.name && runs(entry, reader))
			return NamedMode{entry.mode, ""};
	return Error{"backfill mode '" + std::string(name) + "': expected " + accepted(reader)};
}

std::vector<std::string> backfill_mode_names(ModeReader reader)
{
	std::vector<std::string> names;
	for (const ModeEntry &entry : kModes)
		if (runs(entry, reader))
			names.emplace_back(entry.name);
	names.emplace_back(kOldNone);
	return names;
}

std::optional<ReservationMode> reservation_mode_of(BackfillMode mode)
{
	switch (mode) {
	case BackfillMode::no_backfill:
		return std::nullopt;
	case BackfillMode::greedy:
		return ReservationMode::greedy;
	case BackfillMode::easy:
		return ReservationMode::easy;
	case BackfillMode::conservative:
	case BackfillMode::slurm_backfill:
		return ReservationMode::conservative;
	case BackfillMode::per_campaign:
		return ReservationMode::per_campaign;
	}
	return std::nullopt;
}

} // namespace campaign::plan
