// priority/campaign: Slurm's priority plugin API over the campaign core. Entry points only:
// each catches every exception, and none but the worker thread takes a slurmctld lock.
#include "slurm_api.h"

#include "ctld_lock.h"
#include "guard.h"
#include "priority_factors.h"
#include "priority_ranker.h"
#include "priority_writer.h"
#include "reconfigure_fallback.h"
#include "run_tres_release.h"
#include "scampaign_service.h"
#include "slurm_config.h"
#include "usage_accounting.h"

#include "runtime/begin_wake.h"
#include "runtime/campaign_directory.h"
#include "runtime/periodic_worker.h"
#include "runtime/priority_plugin_parameters.h"
#include "util/parameters.h"

#include <cmath>

using namespace campaign;
using namespace campaign::slurm;

extern "C" {
__attribute__((visibility("default"))) extern const char plugin_name[] =
    "Campaign-aware fair priority plugin";
__attribute__((visibility("default"))) extern const char plugin_type[] = "priority/campaign";
__attribute__((visibility("default"))) extern const uint32_t plugin_version = SLURM_VERSION_NUMBER;
}

namespace
{

// Plugin state, created in init and destroyed in fini (never static objects: dlclose and
// backup-controller cycles must find nothing left over).
struct PluginState {
	std::unique_ptr<PriorityRanker> ranker;
	PeriodicWorker worker;
	ScampaignService scampaign;
	UsageAccounting usage;
	std::string state_dir; // StateSaveLocation, read by the worker thread on its first pass
	std::atomic<bool> reconfigure_requested{false};
	ParameterValues parameters; // as init parsed them, for the scampaign channel
	bool threads_started = false;
	std::optional<std::string> good_parameters; // kept by the worker's first pass
};
PluginState *state = nullptr;

constexpr const char *kGoodParametersFile = "campaign_priority_parameters.last";

std::chrono::milliseconds period_of(const PriorityRanker &ranker)
{
	return std::chrono::seconds(ranker.calc_period_s());
}

// Thread-side reconfigure: re-read PriorityParameters under the config read lock; a bad value
// is logged and the old values stay.
void apply_reconfigure()
{
	state->usage.request_reset_now(); // PriorityUsageResetPeriod=NOW, as multifactor does
	std::string text;
	{
		CtldLock hold(kReadConfig);
		text = priority_parameters_text();
	}
	auto parsed = priority_parameter_schema().parse(text);
	if (!parsed.ok()) {
		error("priority/campaign: reconfigure ignored, old parameters kept: %s",
		      parsed.error().c_str());
		return;
	}
	info("priority/campaign: parameters %s", parsed.value().describe().c_str());
	state->ranker->set_parameters(std::move(parsed).value());
	state->worker.set_period(period_of(*state->ranker));
}

// Association and QOS usage, every PriorityCalcPeriod (our calc_period only paces the ranking).
void account_usage()
{
	if (state->state_dir.empty()) {
		{
			CtldLock hold(kReadConfig);
			state->state_dir = state_save_location();
		}
		state->usage.restore(state->state_dir);
	}
	if (state->usage.catch_up(time(nullptr)))
		state->usage.save(state->state_dir);
}

// Jobs that become eligible at a begin time are ranked in that second, before sched/campaign
// (which holds them until then) would start them at their submit priority.
void wake_at_next_begin()
{
	const std::optional<int64_t> begin_s = state->ranker->next_begin_s();
	if (!begin_s)
		return;
	const std::optional<std::chrono::milliseconds> delay = begin_wake_delay(
	    std::chrono::system_clock::now(), *begin_s, state->ranker->calc_period_s());
	if (delay)
		state->worker.wake_at(std::chrono::steady_clock::now() + *delay);
}

void worker_pass()
{
	if (slurmctld_config.shutdown_time)
		return;
	if (state->reconfigure_requested.exchange(false))
		apply_reconfigure();
	account_usage();
	if (state->good_parameters) {
		remember_good_parameters(state->state_dir, kGoodParametersFile,
		                         *state->good_parameters);
		state->good_parameters.reset();
	}
	state->ranker->rank_pass();
	wake_at_next_begin();
	state->scampaign.publish(state->ranker->report(), state->ranker->private_jobs());
}

// The scampaign channel; a failure to listen is logged and leaves ranking untouched.
void start_scampaign(const ParameterValues &parameters)
{
	const ChannelSettings channel = channel_settings_from(parameters);
	if (channel.off())
		return;
	std::string address = channel.address;
	if (channel.per_controller()) { // each controller on its own SlurmctldHost address
		auto own = own_controller_address();
		if (!own.ok()) {
			error("priority/campaign: scampaign channel off: query_address=%s: %s",
			      channel.address.c_str(), own.error().c_str());
			return;
		}
		address = own.value();
	}
	Status listening = state->scampaign.start(address, channel.port, current_auth_settings());
	if (!listening.ok())
		error("priority/campaign: scampaign channel off: %s", listening.error().c_str());
	else
		info("priority/campaign: scampaign channel on %s:%u", address.c_str(),
		     static_cast<unsigned>(state->scampaign.port()));
}

// Parses PriorityParameters and creates the state; takes no lock and reads no job. In a
// slurmctld that a reconfigure started, a bad string leaves the last good one in force.
int create_state()
{
	std::string text = priority_parameters_text();
	auto parsed = priority_parameter_schema().parse(text);
	if (!parsed.ok() && started_by_reconfigure()) {
		const std::optional<std::string> last = last_good_parameters(kGoodParametersFile);
		if (auto old = priority_parameter_schema().parse(last.value_or(""));
		    last && old.ok()) {
			error("priority/campaign: reconfigure ignored, old parameters kept: %s",
			      parsed.error().c_str());
			text = *last;
			parsed = std::move(old);
		}
	}
	if (!parsed.ok()) {
		error("priority/campaign: %s", parsed.error().c_str());
		return SLURM_ERROR;
	}
	if (started_by_reconfigure())
		info("priority/campaign: parameters %s", parsed.value().describe().c_str());
	state = new PluginState();
	state->parameters = parsed.value();
	state->good_parameters = text;
	state->ranker = std::make_unique<PriorityRanker>(std::move(parsed).value());
	info("priority/campaign: loaded (PriorityParameters=%s)", text.c_str());
	return SLURM_SUCCESS;
}

// The scampaign channel and the worker thread, once per state.
void start_threads()
{
	if (state->threads_started)
		return;
	state->threads_started = true;
	start_scampaign(state->parameters);
	state->worker.start("campprio", period_of(*state->ranker), worker_pass, log_worker_failure);
	process_campaign_directory().set_ranking_waker(
	    [worker = &state->worker] { worker->wake(); });
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) int init(void)
{
	return guarded("priority/campaign init", SLURM_ERROR, [] {
		if (!in_slurmctld()) // a client such as sshare: no thread, no state
			return SLURM_SUCCESS;
		if (state)
			return SLURM_SUCCESS;
		const int rc = create_state();
#if !SC_SLURM_24
		if (rc ==
		    SLURM_SUCCESS) // 22.05 has no thread_start: init runs after the state is read
			start_threads();
#endif
		return rc;
	});
}

#if SC_SLURM_24
// From 24.11 init runs before read_slurm_conf under the config write lock, and thread_start
// after it, still under that lock: the thread waits for the lock on its first pass.
__attribute__((visibility("default"))) void priority_p_thread_start(void)
{
	guarded_void("priority_p_thread_start", [] {
		if (state)
			start_threads();
	});
}

// Called once the job state is read; Slurm adds the return value to its lowest priority. Our
// ranks are republished by the next pass, so no boost.
__attribute__((visibility("default"))) uint32_t priority_p_recover(uint32_t prio_boost)
{
	(void)prio_boost;
	return 0;
}
#endif

__attribute__((visibility("default"))) int fini(void)
{
	return guarded("priority/campaign fini", SLURM_ERROR, [] {
		if (state) {
			// Before the worker stops: sched/campaign asks no stopped worker for a
			// pass.
			process_campaign_directory().clear_ranking_waker();
			state->worker.stop();
			state->scampaign.stop();
			state->ranker->save_state();
			state->usage.save(state->state_dir);
			process_campaign_directory()
			    .clear(); // no stale campaigns for sched/campaign
			delete state;
			state = nullptr;
		}
		return SLURM_SUCCESS;
	});
}

__attribute__((visibility("default"))) uint32_t priority_p_set(uint32_t last_prio,
                                                               job_record_t *job_ptr)
{
	return guarded("priority_p_set", uint32_t{1}, [&] {
		if (!state)
			return last_prio >= 2 ? last_prio - 1 : uint32_t{1};
		uint32_t priority = priority_at_submit(job_ptr, last_prio);
		state->worker.wake();
		return priority;
	});
}

__attribute__((visibility("default"))) void priority_p_reconfig(bool assoc_clear)
{
	(void)assoc_clear;
	guarded_void("priority_p_reconfig", [] {
		// Called with and without locks: only flag it (doc/slurm-internals.md §1.2).
		if (state) {
			state->reconfigure_requested = true;
			state->worker.wake();
		}
	});
}

__attribute__((visibility("default"))) void priority_p_set_assoc_usage(slurmdb_assoc_rec_t *assoc)
{
	guarded_void("priority_p_set_assoc_usage", [&] { set_association_usage(assoc); });
}

// Required up to 24.11 (sshare called it in the client); 26.05 no longer asks for it.
#if !SC_SLURM_26
__attribute__((visibility("default"))) double priority_p_calc_fs_factor(long double usage_efctv,
                                                                        long double shares_norm)
{
	// Pure; sshare calls it in the client. Same formula as priority/basic.
	if (shares_norm <= 0.0L || std::fabs(static_cast<double>(shares_norm) - NO_VAL) < 1e-9)
		return 0.0;
	return std::pow(2.0, -static_cast<double>(usage_efctv / shares_norm));
}
#endif

#if SC_SLURM_24
__attribute__((visibility("default"))) list_t *priority_p_get_priority_factors_list(uid_t uid)
{
	return guarded("priority_p_get_priority_factors_list", static_cast<list_t *>(nullptr),
	               [&] { return priority_factors_list(uid); });
}
#else
__attribute__((visibility("default"))) list_t *
priority_p_get_priority_factors_list(priority_factors_request_msg_t *req_msg, uid_t uid)
{
	return guarded("priority_p_get_priority_factors_list", static_cast<list_t *>(nullptr),
	               [&] { return priority_factors_list(req_msg, uid); });
}
#endif

__attribute__((visibility("default"))) void priority_p_job_end(job_record_t *job_ptr)
{
	guarded_void("priority_p_job_end", [&] {
		release_unused_run_tres(job_ptr);
		if (state) { // charge its last stretch; re-rank soon, not only at the next
			     // calc_period
			state->usage.charge_job_end(job_ptr);
			state->worker.wake();
		}
	});
}

} // extern "C"
