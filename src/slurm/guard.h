// Exception barrier for every entry point Slurm calls: C frames have no unwind tables, so an
// escaping exception would abort slurmctld. Logs the failure with the entry point's name.
#pragma once

#include "slurm_api.h"

#include <exception>

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

} // namespace campaign::slurm
