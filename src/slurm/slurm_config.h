// The slurm.conf values the plugins read, as strings ("" when unset). Reading them needs the
// config read lock, except in init() and fini() (Slurm holds its own locks around those).
#pragma once

#include <string>

namespace campaign::slurm
{

std::string priority_parameters_text();  // PriorityParameters
std::string scheduler_parameters_text(); // SchedulerParameters
std::string state_save_location();       // StateSaveLocation

} // namespace campaign::slurm
