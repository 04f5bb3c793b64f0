// From 24.11 `scontrol reconfigure` execs a new slurmctld whose init reads the new slurm.conf, so
// a bad PriorityParameters or SchedulerParameters would stop the new process and the whole
// reconfigure. As on 22.05, where the old values stay, such an init falls back to the last text
// that parsed, kept under StateSaveLocation. Used by init only: no lock, no job read.
#pragma once

#include <optional>
#include <string>

namespace campaign::slurm
{

// True in a slurmctld that `scontrol reconfigure` started (24.11+); never on 22.05.
bool started_by_reconfigure();

// Keeps `text` as the last good value of one parameter string (`file` under `state_dir`, the
// StateSaveLocation init read); a failure is logged, not fatal. From a plugin thread: it syncs.
void remember_good_parameters(const std::string &state_dir, const char *file,
                              const std::string &text);

// The text remember_good_parameters kept under StateSaveLocation, or nothing. In init.
std::optional<std::string> last_good_parameters(const char *file);

} // namespace campaign::slurm
