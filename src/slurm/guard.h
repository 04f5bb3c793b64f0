// Exception barrier for every entry point Slurm calls: C frames have no unwind tables, so an
// escaping exception would abort slurmctld. Logs the failure with the entry point's name.
#pragma once

#include "slurm_api.h"

#include <exception>
#include <string>

namespace campaign::slurm
{

template <typename Result, typename Body>
Result guarded(const char *where, Result on_failure, Body &&body) noexcept
{
	try {
		return body();
	} catch (const std::exception &failure) {
		error("%s: %s", where, failure.what());
	} catch (...) {
		error("%s: unknown exception", where);
	}
	return on_failure;
}

template <typename Body> void guarded_void(const char *where, Body &&body) noexcept
{
	try {
		body();
	} catch (const std::exception &failure) {
		error("%s: %s", where, failure.what());
	} catch (...) {
		error("%s: unknown exception", where);
	}
}

// A plugin worker's pass that threw (PeriodicWorker's FailureReport), in slurmctld's log.
inline void log_worker_failure(const std::string &name, const std::string &what)
{
	error("%s: %s", name.c_str(), what.c_str());
}

} // namespace campaign::slurm
