// sched/campaign's SchedulerParameters schema. Note "campaign_period", not "..._interval":
// sched/builtin looks for "interval=" anywhere in the string.
#include "config/scheduler_parameters.h"

#include <sstream>
#include <string>

#include "plan/backfill_modes.h"
#include "plan/scheduler_defaults.h"
#include "plan/short_room_demand.h"

namespace campaign
{

namespace
{

namespace defaults = plan::scheduler_defaults;

// A default as the schema prints it: 0.05, not 0.050000.
std::string text_of(double value)
{
	std::ostringstream text;
	text << value;
	return text.str();
}

} // namespace

ParameterSchema scheduler_parameter_schema()
{
	return ParameterSchema(
	    "SchedulerParameters", "campaign_",
	    {
	        {.key = "campaign_period",
	         .kind = ParameterKind::Integer,
	         .default_value = "5",
	         .description = "seconds between planning passes (sooner after job ends and "
	                        "other job or node changes)",
	         .min_integer = 1,
	         .max_integer = 3600},
	        {.key = "campaign_min_gap_ms",
	         .kind = ParameterKind::Integer,
	         .default_value = "250",
	         .description = "least milliseconds from one pass's start to the next: a burst "
	                        "of job ends within it costs one pass",
	         .min_integer = 50,
	         .max_integer = 60000},
	        {.key = "campaign_max_starts",
	         .kind = ParameterKind::Integer,
	         .default_value = "1000",
	         .description = "most jobs started in one pass",
	         .min_integer = 1,
	         .max_integer = 1000000},
	        {.key = "campaign_mode",
	         .kind = ParameterKind::Choice,
	         .default_value = "conservative",
	         .description = "which waiting jobs get a reservation no later job may delay",
	         .choices = plan::backfill_mode_names(plan::ModeReader::sched_campaign)},
	        {.key = "campaign_depth",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::depth),
	         .description = "most reservations (conservative and per_campaign)",
	         .min_integer = 1,
	         .max_integer = 10000000},
	        {.key = "campaign_horizon",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::horizon_s),
	         .description = "seconds ahead a reservation may start",
	         .min_integer = 60,
	         .max_integer = 31622400},
	        {.key = "campaign_short_room",
	         .kind = ParameterKind::Real,
	         .default_value = text_of(defaults::short_room),
	         .description = "part of the CPUs a job with a limit over campaign_short_limit "
	                        "leaves free for shorter jobs (0: none)",
	         .min_real = 0,
	         .max_real = 0.5},
	        {.key = "campaign_short_limit",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::short_limit_s),
	         .description = "seconds of limit up to which a job may use campaign_short_room",
	         .min_integer = 1,
	         .max_integer = 31622400},
	        {.key = "campaign_short_room_wide",
	         .kind = ParameterKind::Real,
	         .default_value = text_of(defaults::short_room_wide),
	         .description = "part of the CPUs from which a longer job may use "
	                        "campaign_short_room too",
	         .min_real = 0,
	         .max_real = 1},
	        {.key = "campaign_short_room_recent",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::short_room_recent_s),
	         .description = "seconds over which short pending jobs' CPUs size "
	                        "campaign_short_room, which is then at most that (0: fixed room)",
	         .min_integer = 0,
	         .max_integer = 31622400},
	        {.key = "campaign_whole_node_reservations",
	         .kind = ParameterKind::Boolean,
	         .default_value = "no",
	         .description = "a reservation holds every CPU of its nodes from its start to "
	                        "its end, as sched/backfill's do (no: only its own CPUs)"},
	        {.key = "campaign_short_room_demand",
	         .kind = ParameterKind::Choice,
	         .default_value = plan::short_room_demand_name(defaults::short_room_demand),
	         .description = "short jobs that size the adaptive room: every pending one, "
	                        "only those a plan could not start now (blocked), or only those "
	                        "of them no wider than the room (fitting)",
	         .choices = {"pending", "blocked", "fitting"}},
	        {.key = "campaign_short_room_by",
	         .kind = ParameterKind::Choice,
	         .default_value = defaults::short_by_expected ? "expected" : "limit",
	         .description = "what tells a pending job short for campaign_short_room: its "
	                        "limit, or its run time expected from its user's recent runs "
	                        "(expected; needs priority/campaign, else the limit)",
	         .choices = {"limit", "expected"}},
	        {.key = "campaign_local_search",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::local_search_iterations),
	         .description = "moves a local search tries on each plan made afresh, kept where "
	                        "campaigns' predicted stretch improves (0: off)",
	         .min_integer = 0,
	         .max_integer = 100000},
	        {.key = "campaign_local_search_ms",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::local_search_ms),
	         .description = "milliseconds one local search may take at most",
	         .min_integer = 1,
	         .max_integer = 60000},
	        {.key = "campaign_freeze_slip",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::freeze_slip_s),
	         .description = "seconds a reservation's start may slip past the start it was "
	                        "first reserved at before it is kept there on later plans (0: off)",
	         .min_integer = 0,
	         .max_integer = 31622400},
	        {.key = "campaign_freeze_wide",
	         .kind = ParameterKind::Real,
	         .default_value = text_of(defaults::freeze_wide),
	         .description = "part of the CPUs from which a job may be frozen by "
	                        "campaign_freeze_slip (0: any job)",
	         .min_real = 0,
	         .max_real = 1},
	        {.key = "campaign_freeze_room",
	         .kind = ParameterKind::Choice,
	         .default_value = defaults::freeze_keeps_room ? "cap" : "now",
	         .description = "room for short jobs a frozen job is booked to leave: the "
	                        "adaptive room as sized now, or campaign_short_room's cap (cap)",
	         .choices = {"now", "cap"}},
	        {.key = "campaign_freeze_skip_first",
	         .kind = ParameterKind::Integer,
	         .default_value = std::to_string(defaults::freeze_skip_first),
	         .description = "jobs of the first this many campaigns in rank order are not "
	                        "frozen by campaign_freeze_slip (0: any campaign)",
	         .min_integer = 0,
	         .max_integer = 1000000},
	    });
}

Result<SchedulerPlanConfig> scheduler_plan_config(const ParameterValues &values)
{
	auto named = plan::backfill_mode_named(values.text("campaign_mode"),
	                                       plan::ModeReader::sched_campaign);
	if (!named.ok())
		return Error{"SchedulerParameters: campaign_mode: " + named.error()};
	SchedulerPlanConfig config;
	config.planner.mode = *plan::reservation_mode_of(named.value().mode);
	config.planner.depth = static_cast<int32_t>(values.integer("campaign_depth"));
	config.planner.horizon_s = values.integer("campaign_horizon");
	config.planner.short_room = values.real("campaign_short_room");
	config.planner.short_limit_s = values.integer("campaign_short_limit");
	config.planner.short_room_wide = values.real("campaign_short_room_wide");
	config.planner.short_room_recent_s = values.integer("campaign_short_room_recent");
	config.planner.whole_node_reservations = values.boolean("campaign_whole_node_reservations");
	config.planner.short_room_demand =
	    plan::short_room_demand_named(values.text("campaign_short_room_demand"))
	        .value_or(plan::ShortRoomDemand::pending);
	config.planner.short_by_expected = values.text("campaign_short_room_by") == "expected";
	config.planner.local_search_iterations =
	    static_cast<int32_t>(values.integer("campaign_local_search"));
	config.planner.local_search_ms = values.integer("campaign_local_search_ms");
	config.planner.freeze_slip_s = values.integer("campaign_freeze_slip");
	config.planner.freeze_wide = values.real("campaign_freeze_wide");
	config.planner.freeze_keeps_room = values.text("campaign_freeze_room") == "cap";
	config.planner.freeze_skip_first =
	    static_cast<int32_t>(values.integer("campaign_freeze_skip_first"));
	config.warning = named.value().warning;
	return config;
}

} // namespace campaign
