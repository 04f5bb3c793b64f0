// The one include point of Slurm's headers (22.05, 24.11 and 26.05), wrapped for C++, plus weak
// references to slurmctld-only data so the plugins also load in clients (sshare). Only src/slurm
// and the plugin folders include this, and nothing else includes a Slurm header (check_layers.sh).
// Headers that moved between releases are chosen here; every other release difference is one
// definition in slurm_compat.h (doc/slurm-internals.md P.13).
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
#include "slurm/slurm_version.h"

#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
// struct elem has a member named `operator`, a C++ keyword. Renamed for this one inclusion (we
// never use the member; the layout is unchanged); the include guard keeps the later inclusions
// through job_record.h, node_conf.h and slurmctld.h from seeing the original text.
#define operator extra_constraints_operator
#include "src/common/extra_constraints.h"
#undef operator
#endif

#include "src/common/assoc_mgr.h"
#include "src/common/bitstring.h"
#include "src/common/list.h"
#include "src/common/log.h"
#include "src/common/xmalloc.h"
#include "src/common/xstring.h"
#include "src/slurmctld/acct_policy.h"
#include "src/slurmctld/fed_mgr.h"
#include "src/slurmctld/job_scheduler.h"
#include "src/slurmctld/licenses.h"
#include "src/slurmctld/locks.h"
#include "src/slurmctld/node_scheduler.h"
#include "src/slurmctld/slurmctld.h"
#if SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0)
#include "src/common/job_state_reason.h"
// gres.h brings in slurmstepd_job.h, which defines _GNU_SOURCE again (g++ already has it as 1).
#undef _GNU_SOURCE
#include "src/interfaces/auth.h"
#include "src/interfaces/gres.h"
#include "src/interfaces/preempt.h"
#include "src/interfaces/priority.h"
#include "src/slurmctld/proc_req.h" // srun_allocate
#else
#include "src/common/gres.h"
#include "src/common/power.h"
#include "src/common/slurm_auth.h"
#include "src/common/slurm_priority.h"
#include "src/slurmctld/preempt.h"
#include "src/slurmctld/srun_comm.h"
#endif
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
#pragma weak cg_node_bitmap
#pragma weak rs_node_bitmap
#pragma weak up_node_bitmap // in slurmctld only from 24.11 (22.05: libslurmfull)
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

#include "slurm_compat.h"
