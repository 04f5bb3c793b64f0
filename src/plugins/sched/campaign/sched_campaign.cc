// sched/campaign: Slurm's sched plugin API (init, fini, sched_p_reconfig). init runs with all
// slurmctld write locks held, so it only parses parameters and starts the thread.
#include "slurm_api.h"

#include "campaign_scheduler.h"
#include "ctld_lock.h"
#include "guard.h"
#include "reconfigure_fallback.h"
#include "slurm_config.h"

#include "config/scheduler_parameters.h"
#include "runtime/periodic_worker.h"
#include "runtime/scheduler_metrics_board.h"

using namespace campaign;
using namespace campaign::slurm;

extern "C" {
__attribute__((visibility("default"))) extern const char plugin_name[] =
    "Campaign-aware schedule-based backfill plugin";
__attribute__((visibility("default"))) extern const char plugin_type[] = "sched/campaign";
__attribute__((visibility("default"))) extern const uint32_t plugin_version = SLURM_VERSION_NUMBER;
}

namespace
{

// An old campaign_mode name works, with a warning naming the new one.
void warn_old_names(const ParameterValues &parameters)
{
	auto config = scheduler_plan_config(parameters);
	if (config.ok() && !config.value().warning.empty())
		info("sched/campaign: warning: %s", config.value().warning.c_str());
}

struct PluginState {
	std::unique_ptr<CampaignScheduler> scheduler;
	PeriodicWorker worker;
	std::atomic<bool> reconfigure_requested{false};
	std::string state_dir;                      // StateSaveLocation, as init read it
	std::optional<std::string> good_parameters; // kept by the worker's first pass
};

constexpr const char *kGoodParametersFile = "campaign_sched_parameters.last";
PluginState *state = nullptr;

// The thread checks every 50 ms whether a pass is due (a job end or another change, a node
// done completing, or the period elapsed); campaign_min_gap_ms spaces the passes themselves.
// A check is two unlocked reads, as sched/backfill's _more_work().
constexpr std::chrono::milliseconds kPoll{50};

void apply_reconfigure()
{
	std::string text;
	{
		CtldLock hold(kReadConfig);
		text = scheduler_parameters_text();
	}
	auto parsed = scheduler_parameter_schema().parse(text);
	if (!parsed.ok()) {
		error("sched/campaign: reconfigure ignored, old parameters kept: %s",
		      parsed.error().c_str());
		return;
	}
	warn_old_names(parsed.value());
	state->scheduler->set_parameters(std::move(parsed).value());
}

void worker_pass()
{
	if (state->reconfigure_requested.exchange(false))
		apply_reconfigure();
	if (state->good_parameters) {
		remember_good_parameters(state->state_dir, kGoodParametersFile,
		                         *state->good_parameters);
		state->good_parameters.reset();
	}
	state->scheduler->tick();
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) int init(void)
{
	return guarded("sched/campaign init", SLURM_ERROR, [] {
		if (state)
			return SLURM_SUCCESS; // sched_g_init runs twice at startup
		std::string text = scheduler_parameters_text();
		auto parsed = scheduler_parameter_schema().parse(text);
		if (!parsed.ok() && started_by_reconfigure()) { // the last good string stays
			const std::optional<std::string> last =
			    last_good_parameters(kGoodParametersFile);
			auto old = scheduler_parameter_schema().parse(last.value_or(""));
			if (last && old.ok()) {
				error(
				    "sched/campaign: reconfigure ignored, old parameters kept: %s",
				    parsed.error().c_str());
				text = *last;
				parsed = std::move(old);
			}
		}
		if (!parsed.ok()) {
			error("sched/campaign: %s", parsed.error().c_str());
			return SLURM_ERROR;
		}
		warn_old_names(parsed.value());
		state = new PluginState();
		state->state_dir = state_save_location();
		state->good_parameters = text;
		state->scheduler = std::make_unique<CampaignScheduler>(std::move(parsed).value());
		state->worker.start("campsched", kPoll, worker_pass, log_worker_failure);
		info("sched/campaign: loaded (%s)", text.c_str());
		return SLURM_SUCCESS;
	});
}

__attribute__((visibility("default"))) int fini(void)
{
	return guarded("sched/campaign fini", SLURM_ERROR, [] {
		if (state) {
			state->worker.stop();
			delete state;
			state = nullptr;
			process_scheduler_metrics().clear(); // scampaign shows none, not stale ones
		}
		return SLURM_SUCCESS;
	});
}

__attribute__((visibility("default"))) int sched_p_reconfig(void)
{
	return guarded("sched_p_reconfig", SLURM_ERROR, [] {
		if (state) // called under all write locks: only flag it
			state->reconfigure_requested = true;
		return SLURM_SUCCESS;
	});
}

} // extern "C"
