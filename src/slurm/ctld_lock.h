// RAII guards for slurmctld's locks and the assoc_mgr locks, so no exception or early return
// can leave a lock held. Never construct one in init, priority_p_set or a reconfig hook.
#pragma once

#include "slurm_api.h"

namespace campaign::slurm
{

class CtldLock
{
public:
	explicit CtldLock(slurmctld_lock_t locks) : locks_(locks) { lock_slurmctld(locks_); }
	~CtldLock() { unlock_slurmctld(locks_); }
	CtldLock(const CtldLock &) = delete;
	CtldLock &operator=(const CtldLock &) = delete;

private:
	slurmctld_lock_t locks_;
};

class AssocLock
{
public:
	explicit AssocLock(assoc_mgr_lock_t locks) : locks_(locks) { assoc_mgr_lock(&locks_); }
	~AssocLock() { assoc_mgr_unlock(&locks_); }
	AssocLock(const AssocLock &) = delete;
	AssocLock &operator=(const AssocLock &) = delete;

private:
	assoc_mgr_lock_t locks_;
};

// The lock sets we use, named for what they allow.
inline constexpr slurmctld_lock_t kReadJobs = {NO_LOCK, READ_LOCK, READ_LOCK, READ_LOCK, NO_LOCK};
inline constexpr slurmctld_lock_t kWriteJobs = {NO_LOCK, WRITE_LOCK, READ_LOCK, READ_LOCK, NO_LOCK};
inline constexpr slurmctld_lock_t kReadConfigAndJobs = {READ_LOCK, READ_LOCK, READ_LOCK, READ_LOCK,
                                                        NO_LOCK};
inline constexpr slurmctld_lock_t kReadConfig = {READ_LOCK, NO_LOCK, NO_LOCK, NO_LOCK, NO_LOCK};
// The assoc_mgr locks to change association and QOS usage counters.
inline constexpr assoc_mgr_lock_t kWriteAssocQosUsage = {
    .assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK};
// What a scheduler needs to start jobs (sched/backfill's set).
inline constexpr slurmctld_lock_t kSchedule = {READ_LOCK, WRITE_LOCK, WRITE_LOCK, READ_LOCK,
                                               READ_LOCK};

} // namespace campaign::slurm
