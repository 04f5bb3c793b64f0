// PeriodicWorker: the plugin thread loop with a stop flag and a timed condition wait.
#include "periodic_worker.h"

#include <exception>
#include <sys/prctl.h>

namespace campaign
{

void PeriodicWorker::start(std::string name, std::chrono::milliseconds period,
                           std::function<void()> pass, FailureReport report)
{
	stop();
	name_ = std::move(name);
	pass_ = std::move(pass);
	report_ = std::move(report);
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

void PeriodicWorker::run_pass() noexcept
{
	try {
		pass_();
		return;
	} catch (const std::exception &failure) {
		report(failure.what());
	} catch (...) {
		report("unknown exception");
	}
}

void PeriodicWorker::report(const char *what) noexcept
{
	try {
		if (report_)
			report_(name_, what);
	} catch (...) { // a report that throws is dropped: the thread goes on
	}
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
		run_pass();
		hold.lock();
		next_period = std::chrono::steady_clock::now() + period_;
	}
}

} // namespace campaign
