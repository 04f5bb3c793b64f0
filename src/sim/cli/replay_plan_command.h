// `campsim replay-plan`: the job list scripts/replay.py submits to a real cluster.
#pragma once

#include "cli/campsim_options.h"

namespace campaign::sim
{

int replay_plan_command(const CampsimOptions &options);

} // namespace campaign::sim
