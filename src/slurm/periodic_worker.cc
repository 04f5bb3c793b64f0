// PeriodicWorker: the plugin thread loop with a stop flag and a timed condition wait.
#include "periodic_worker.h"

#include "guard.h"

#include <sys/prctl.h>

namespace campaign::slurm
{

void PeriodicWorker::start(std::string name, std::chrono::milliseconds period,
                           std::function<void()> pass)
{
	stop();
	name_ = std::move(name);
	pass_ = std::move(pass);
	period_ = period;
	stop_requested_ = false;
	wake_requested_ = false;
	thread_ = std::thread([this] { loop(); });
}

void PeriodicWorker::set_period(std::chrono::milliseconds period)
{
	std::lock_guard<std::mutex> hold(mutex_);
	period_ = period;
}

void PeriodicWorker::wake()
{
	{
		std::lock_guard<std::mutex> hold(mutex_);
		wake_requested_ = true;
	}
	wakeup_.notify_one();
}

void PeriodicWorker::wake_at(std::chrono::steady_clock::time_point when)
{
	{
		std::lock_guard<std::mutex> hold(mutex_);
		if (!wake_at_ || when < *wake_at_)
			wake_at_ = when;
	}
	wakeup_.notify_one();
}

void PeriodicWorker::stop()
{
	{
		std::lock_guard<std::mutex> hold(mutex_);
		stop_requested_ = true;
	}
	wakeup_.notify_one();
	if (thread_.joinable())
		thread_.join();
}

void PeriodicWorker::loop()
{
	prctl(PR_SET_NAME, name_.substr(0, 15).c_str(), 0, 0, 0);
	std::unique_lock<std::mutex> hold(mutex_);
	auto next_period = std::chrono::steady_clock::now() + period_;
	while (!stop_requested_) {
		const auto until = wake_at_ && *wake_at_ < next_period ? *wake_at_ : next_period;
		// A wake_at earlier than `until` ends the wait too, to wait again for it.
		wakeup_.wait_until(hold, until, [this, until] {
			return stop_requested_ || wake_requested_ ||
			       (wake_at_ && *wake_at_ < until);
		});
		if (stop_requested_)
			break;
		const auto now = std::chrono::steady_clock::now();
		if (!wake_requested_ && now < next_period && !(wake_at_ && now >= *wake_at_))
			continue;
		wake_requested_ = false;
		wake_at_.reset();
		hold.unlock();
		guarded_void(name_.c_str(), pass_);
		hold.lock();
		next_period = std::chrono::steady_clock::now() + period_;
	}
}

} // namespace campaign::slurm
