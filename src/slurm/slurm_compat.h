// Slurm release differences (22.05, 24.11, 26.05), one definition each, chosen at compile time
// from SLURM_VERSION_NUMBER. Included by slurm_api.h after Slurm's headers; the rest of the
// adapter uses these names and never tests the version itself (doc/slurm-internals.md P.13).
#pragma once

#include <algorithm>

#define SC_SLURM_24 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(24, 11, 0))
#define SC_SLURM_26 (SLURM_VERSION_NUMBER >= SLURM_VERSION_NUM(26, 5, 0))

#if SC_SLURM_26
#pragma weak check_bf_running_cond // slurmctld's own, as the data in slurm_api.h
#endif

#if !SC_SLURM_24
// 24.11 renamed List/ListIterator to list_t */list_itr_t * and dropped the old names; 22.05 has
// the same structs under their tags. job_details lost its tag and gained the typedef.
typedef struct xlist list_t;
typedef struct listIterator list_itr_t;
typedef struct job_details job_details_t;
#endif

namespace campaign::slurm
{

// The factors cached on the job record (job->prio_factors): the whole sprio object in 22.05,
// only its numeric part from 24.11.
#if SC_SLURM_24
using JobFactors = priority_factors_t;
#else
using JobFactors = priority_factors_object_t;
#endif

// The end of a backfill cycle (bf_active cleared, under check_bf_running_lock): from 26.05
// slurmctld's shutdown and reconfigure sleep on check_bf_running_cond until bf_active is 0 and
// are woken only by a broadcast (sched/backfill sends one); 22.05 and 24.11 poll the flag.
#if SC_SLURM_26
inline void wake_cycle_waiters()
{
	slurm_cond_broadcast(&check_bf_running_cond);
}
#else
inline void wake_cycle_waiters() {}
#endif

// select/cons_tres counts memory: CR_MEMORY until 24.11, SELECT_MEMORY from 26.05.
#if SC_SLURM_26
inline constexpr uint64_t kSelectMemory = SELECT_MEMORY;
#else
inline constexpr uint64_t kSelectMemory = CR_MEMORY;
#endif

// A queue record carries the QOS it is for from 24.11 (a job may ask for several); 22.05 has
// no such field. build_job_queue's records name the job's own.
inline void set_queue_record_qos(job_queue_rec_t *record, job_record_t *job)
{
#if SC_SLURM_24
	record->qos_ptr = job->qos_ptr;
#else
	(void)record;
	(void)job;
#endif
}

// A job's priority in the index-th partition of its part_ptr_list, as build_job_queue gives its
// records: job->priority_array in 22.05; from 24.11 one value per partition and QOS (part_prio in
// 24.11, prio_mult in 26.05), indexed partition x QOS, of which the job's first QOS is taken.
inline uint32_t partition_priority(const job_record_t *job, int index)
{
#if SC_SLURM_24
#if SC_SLURM_26
	const auto *multi = job->prio_mult;
#else
	const auto *multi = job->part_prio;
#endif
	const int qos_count = job->qos_list ? std::max(1, list_count(job->qos_list)) : 1;
	return multi && multi->priority_array ? multi->priority_array[index * qos_count]
	                                      : job->priority;
#else
	return job->priority_array ? job->priority_array[index] : job->priority;
#endif
}

// The direct_prio of cached factors: 22.05 keeps one there; 24.11 has none (the job's
// direct_set_prio alone says so).
inline uint32_t cached_direct_prio(const JobFactors *factors)
{
#if SC_SLURM_24
	(void)factors;
	return 0;
#else
	return factors->direct_prio;
#endif
}

inline void clear_cached_direct_prio(JobFactors *factors)
{
#if SC_SLURM_24
	(void)factors;
#else
	factors->direct_prio = 0;
#endif
}

// Copies the job's cached factors into an sprio object.
inline void copy_job_factors(priority_factors_object_t *object, const job_record_t *job)
{
#if SC_SLURM_24
	object->prio_factors =
	    static_cast<priority_factors_t *>(xmalloc(sizeof(priority_factors_t)));
	slurm_copy_priority_factors(object->prio_factors, job->prio_factors);
#else
	slurm_copy_priority_factors_object(object, job->prio_factors);
#endif
}

// The job id of an sprio object: job_id until 24.11, the job's step_id (with its SLUID) in 26.05.
inline void set_factors_job_id(priority_factors_object_t *object, const job_record_t *job)
{
#if SC_SLURM_26
	object->step_id = job->step_id;
#else
	object->job_id = job->job_id;
#endif
}

// 24.11 added is_locked (whether the caller holds assoc_mgr's user read lock); we hold none.
inline bool is_user_acct_coord(uid_t uid, char *account)
{
#if SC_SLURM_24
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid, account, false);
#else
	return assoc_mgr_is_user_acct_coord(acct_db_conn, uid, account);
#endif
}

// True when the job waits on a QOS or association limit (its state reason says so), the test
// _schedule() makes before acct_policy_job_runnable_pre_select().
inline bool held_by_qos_or_assoc(job_record_t *job)
{
#if SC_SLURM_24
	return job_state_reason_check(static_cast<job_state_reason>(job->state_reason),
	                              JSR_QOS_ASSOC);
#else
	return !acct_policy_job_runnable_state(job);
#endif
}

// select_nodes() for a scheduler start, as _schedule() calls it; 24.11 takes a job_node_select_t.
inline int select_nodes_to_start(job_record_t *job)
{
#if SC_SLURM_24
	job_node_select_t selection = {};
	selection.job_ptr = job;
	return select_nodes(&selection, false, false, SLURMDB_JOB_FLAG_SCHED);
#else
	return select_nodes(job, false, nullptr, nullptr, false, SLURMDB_JOB_FLAG_SCHED);
#endif
}

// A pending reason's name (as squeue prints it): job_reason_string until 22.05, then
// job_state_reason_string in src/common/job_state_reason.h.
inline const char *reason_name(uint32_t reason)
{
#if SC_SLURM_24
	return job_state_reason_string(static_cast<job_state_reason>(reason));
#else
	return job_reason_string(static_cast<job_state_reason>(reason));
#endif
}

// A job's GRES request that takes nothing from the node (--gres=NAME:no_consume): a request flag
// until 22.05; from 24.11 only the node's GRES is marked no_consume, and such a kind is not
// counted by the plan (a job asking for it is left to Slurm's checks).
inline bool gres_request_consumes(const gres_job_state_t *request)
{
#if SC_SLURM_24
	(void)request;
	return true;
#else
	return !(request->flags & GRES_NO_CONSUME);
#endif
}

// The uid and gid of a verified credential: one call from 24.11, two in 22.05.
inline void credential_ids(void *credential, uid_t *uid, gid_t *gid)
{
#if SC_SLURM_24
	auth_g_get_ids(credential, uid, gid);
#else
	*uid = auth_g_get_uid(credential);
	*gid = auth_g_get_gid(credential);
#endif
}

// auth/slurm (a token signed with slurm.key) exists from 23.11: not in 22.05.
#if SC_SLURM_24
inline constexpr bool kHasAuthSlurm = true;
inline constexpr int kAuthPluginSlurm = AUTH_PLUGIN_SLURM;
#else
inline constexpr bool kHasAuthSlurm = false;
inline constexpr int kAuthPluginSlurm = -1;
#endif

// The power plugin API is gone from 24.11.
inline void power_job_start(job_record_t *job)
{
#if SC_SLURM_24
	(void)job;
#else
	power_g_job_start(job);
#endif
}

} // namespace campaign::slurm
