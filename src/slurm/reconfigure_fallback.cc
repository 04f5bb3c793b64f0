#include "reconfigure_fallback.h"

#include "slurm_api.h"
#include "slurm_config.h"

#include "runtime/state_file.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace campaign::slurm
{

bool started_by_reconfigure()
{
#if SC_SLURM_24
	// _try_to_reconfig() sets it for the new process, which keeps it.
	return std::getenv("SLURMCTLD_RECONF") != nullptr;
#else
	return false;
#endif
}

void remember_good_parameters(const std::string &state_dir, const char *file,
                              const std::string &text)
{
	if (!SC_SLURM_24 || state_dir.empty()) // 22.05 reconfigures in process: nothing to keep
		return;
	Status saved = write_file_atomically(state_dir, file, text);
	if (!saved.ok())
		error("slurm-campaign: %s not saved: %s", file, saved.error().c_str());
}

std::optional<std::string> last_good_parameters(const char *file)
{
	std::ifstream in(state_save_location() + "/" + file);
	if (!in)
		return std::nullopt;
	std::ostringstream text;
	text << in.rdbuf();
	return text.str();
}

} // namespace campaign::slurm
