// record_cycle: mirrors backfill.c's _do_diag_stats and its per-cycle counters.
#include "backfill_stats.h"

#include <ctime>

namespace campaign::slurm
{

void record_cycle(const CycleFigures &figures)
{
	diag_stats_t &stats = slurmctld_diag_stats;
	stats.bf_cycle_counter++;
	stats.bf_cycle_sum += figures.cycle_us;
	stats.bf_cycle_last = figures.cycle_us;
	stats.bf_cycle_max = std::max(stats.bf_cycle_max, figures.cycle_us);
	stats.bf_last_depth = figures.queue_length;
	stats.bf_last_depth_try = figures.depth_tried;
	stats.bf_depth_sum += figures.queue_length;
	stats.bf_depth_try_sum += figures.depth_tried;
	stats.bf_queue_len = figures.queue_length;
	stats.bf_queue_len_sum += figures.queue_length;
	stats.bf_table_size = figures.plan_records;
	stats.bf_table_size_sum += figures.plan_records;
	stats.backfilled_jobs += figures.jobs_started;
	stats.last_backfilled_jobs += figures.jobs_started;
	stats.bf_when_last_cycle = time(nullptr);
}

namespace
{

void set_cycle_active(bool active)
{
	slurm_mutex_lock(&check_bf_running_lock);
	slurmctld_diag_stats.bf_active = active ? 1 : 0;
	if (!active)
		wake_cycle_waiters();
	slurm_mutex_unlock(&check_bf_running_lock);
}

} // namespace

ActiveCycle::ActiveCycle()
{
	set_cycle_active(true);
}

void ActiveCycle::end()
{
	if (active_)
		set_cycle_active(false);
	active_ = false;
}

} // namespace campaign::slurm
