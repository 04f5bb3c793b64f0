// The one include point of Slurm's headers (22.05 today), wrapped for C++, plus weak references
// to slurmctld-only data so the plugins also load in clients (sshare). Only src/slurm and the
// plugin folders include this, and nothing else includes a Slurm header (check_layers.sh). A
// release difference goes here, behind SLURM_VERSION_NUMBER, or in the one src/slurm unit that
// makes the call (doc/architecture.md).
#pragma once

// C++ standard headers must come before Slurm's, which define macros such as info/debug/MIN.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
#include "config.h"

#include "slurm/slurm.h"
#include "slurm/slurm_errno.h"
#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/gres.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/power.h"
#include "src/common/slurm_priority.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/fed_mgr.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#include "src/slurmctld/srun_comm.h"
}

// Data that exists only inside slurmctld. Weak, so that a client loading the plugin (sshare loads
// PriorityType) does not fail on unresolved data symbols; test with in_slurmctld() before use.
#pragma weak job_list
#pragma weak last_job_update
#pragma weak slurmctld_config
#pragma weak slurmctld_diag_stats
#pragma weak slurmctld_tres_cnt
#pragma weak acct_db_conn
#pragma weak check_bf_running_lock
#pragma weak part_list
#pragma weak avail_node_bitmap
#pragma weak resv_list
#pragma weak backup_inx

namespace campaign::slurm
{

// True inside slurmctld (its job list symbol resolved), false in clients such as sshare.
inline bool in_slurmctld()
{
	return &job_list != nullptr && &slurmctld_config != nullptr;
}

} // namespace campaign::slurm
