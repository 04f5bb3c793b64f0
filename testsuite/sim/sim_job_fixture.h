// A trace job for the engine and workload tests: run time as given, limit equal to it.
#pragma once

#include "trace/sim_job.h"

#include <cstdint>

namespace campaign::sim
{

inline SimJob sim_job(uint64_t id, uint32_t user, int64_t submit_s, uint32_t cpus,
                      int64_t runtime_s)
{
	SimJob made;
	made.id = id;
	made.user = user;
	made.submit_s = submit_s;
	made.cpus = cpus;
	made.runtime_s = runtime_s;
	made.limit_s = runtime_s;
	return made;
}

} // namespace campaign::sim
