// The SchedulerParameters keys of sched/campaign. Every key starts with "campaign_" and contains
// no Slurm SchedulerParameters keyword as a substring (Slurm finds its keys with xstrcasestr).
#pragma once

#include "plan/plan_types.h"
#include "util/parameters.h"

#include <string>

namespace campaign
{

ParameterSchema scheduler_parameter_schema();

// sched/campaign's planner configuration (mode from the backfill mode table, depth, horizon).
struct SchedulerPlanConfig {
	plan::PlannerConfig planner;
	std::string warning; // non-empty: campaign_mode is an old name (logged by the plugin)
};
Result<SchedulerPlanConfig> scheduler_plan_config(const ParameterValues &values);

} // namespace campaign
