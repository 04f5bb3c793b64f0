// `campsim reproduce NAME`: the papers' experiments, fixed in advance, with PASS/FAIL bands.
#pragma once

#include "cli/campsim_options.h"

namespace campaign::sim
{
int reproduce_command(const CampsimOptions &options);
}
