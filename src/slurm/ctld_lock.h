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
inline constexpr slurmctld_lock_t kReadJobs = {
    .job = READ_LOCK, .node = READ_LOCK, .part = READ_LOCK};
inline constexpr slurmctld_lock_t kWriteJobs = {
    .job = WRITE_LOCK, .node = READ_LOCK, .part = READ_LOCK};
inline constexpr slurmctld_lock_t kReadConfigAndJobs = {
    .conf = READ_LOCK, .job = READ_LOCK, .node = READ_LOCK, .part = READ_LOCK};
inline constexpr slurmctld_lock_t kReadConfig = {.conf = READ_LOCK};
// The assoc_mgr locks to change association and QOS usage counters.
inline constexpr assoc_mgr_lock_t kWriteAssocQosUsage = {
    .assoc = WRITE_LOCK, .qos = WRITE_LOCK, .tres = READ_LOCK};
// What a scheduler needs to start jobs: sched/backfill's set, which in 26.05 adds the select
// node lock that select_nodes() expects held for writing.
inline constexpr slurmctld_lock_t kSchedule = {.conf = READ_LOCK,
                                               .job = WRITE_LOCK,
                                               .node = WRITE_LOCK,
                                               .part = READ_LOCK,
                                               .fed = READ_LOCK,
#if SC_SLURM_26
                                               .select_node = WRITE_LOCK
#endif
};

} // namespace campaign::slurm
