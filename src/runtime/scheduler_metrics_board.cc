// The process-wide scheduler metrics board.
#include "runtime/scheduler_metrics_board.h"

namespace campaign
{

void SchedulerMetricsBoard::publish(const SchedulerMetrics &metrics)
{
	std::lock_guard<std::mutex> hold(mutex_);
	metrics_ = metrics;
}

std::optional<SchedulerMetrics> SchedulerMetricsBoard::latest() const
{
	std::lock_guard<std::mutex> hold(mutex_);
	return metrics_;
}

void SchedulerMetricsBoard::clear()
{
	std::lock_guard<std::mutex> hold(mutex_);
	metrics_.reset();
}

SchedulerMetricsBoard &process_scheduler_metrics()
{
	static SchedulerMetricsBoard board;
	return board;
}

} // namespace campaign
