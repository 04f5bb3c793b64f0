// Backfill mode names: the one table that sched/campaign's campaign_mode and campsim's
// --policy PRIORITY/MODE read, so a name means one thing everywhere. No Slurm types.
#pragma once

#include "plan/plan_types.h"
#include "util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace campaign::plan
{

enum class BackfillMode {
	no_backfill,  // jobs start in rank order; the first that does not fit stops the queue
	greedy,       // every job that fits now starts; no reservation (planner depth 0)
	easy,         // the first job that cannot start gets a reservation
	conservative, // every job that cannot start gets one, up to the depth
	per_campaign, // the first such job of each campaign gets one, up to the depth
	// Slurm's sched/backfill: conservative up to the depth (bf_max_job_test), each
	// reservation holding its nodes whole (PlannerConfig::whole_node_reservations).
	slurm_backfill,
};

// Who reads a name: the old alias "none" meant greedy in sched/campaign and no_backfill in
// campsim, and keeps that meaning (with a warning) where it was written.
enum class ModeReader { sched_campaign, campsim };

struct NamedMode {
	BackfillMode mode;
	std::string warning; // non-empty: an old name, accepted; the caller logs this
};

const char *to_string(BackfillMode mode);
// A name of the table (or an old alias) for `reader`; an unknown name, or one `reader` does not
// run (no_backfill in sched/campaign), is an error naming it and the accepted names.
Result<NamedMode> backfill_mode_named(std::string_view name, ModeReader reader);
// Every name `reader` accepts, the old aliases last (a parameter schema's choices).
std::vector<std::string> backfill_mode_names(ModeReader reader);
// The planner's reservation mode of a mode; none for no_backfill (plain list scheduling).
// slurm_backfill is conservative (with whole_node_reservations).
std::optional<ReservationMode> reservation_mode_of(BackfillMode mode);

} // namespace campaign::plan
