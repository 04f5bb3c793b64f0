// Atomic writes of our files under StateSaveLocation: write "<name>.new", fsync, rename over
// "<name>", fsync the directory. Runtime layer: no Slurm types; never called under slurmctld locks.
#pragma once

#include "util/result.h"

#include <string>

namespace campaign
{

Status write_file_atomically(const std::string &directory, const std::string &name,
                             const std::string &content);

} // namespace campaign
