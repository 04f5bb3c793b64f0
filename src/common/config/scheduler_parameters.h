// The SchedulerParameters keys of sched/campaign. Every key starts with "campaign_" and contains
// no Slurm SchedulerParameters keyword as a substring (Slurm finds its keys with xstrcasestr).
#pragma once

#include "util/parameters.h"

namespace campaign {

ParameterSchema scheduler_parameter_schema();

} // namespace campaign
