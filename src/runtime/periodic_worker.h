// One long-lived plugin thread: runs a pass every period or sooner when woken, stops and joins
// in stop() (called from fini, before dlclose). Slurm-free (the pass takes any lock it needs), so
// its timing is unit-tested (test_periodic_worker).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace campaign
{

class PeriodicWorker
{
public:
	~PeriodicWorker() { stop(); }

	// What a pass that threw is reported with: the worker's name and the exception's text.
	using FailureReport = std::function<void(const std::string &name, const std::string &what)>;

	// Starts the thread; `pass` runs once per period. A pass that throws is reported and the
	// worker goes on (a plugin thread must not end, nor an exception leave it).
	void start(std::string name, std::chrono::milliseconds period, std::function<void()> pass,
	           FailureReport report);
	void set_period(std::chrono::milliseconds period);
	void wake(); // run the next pass now
	// Run a pass at `when` too, if that is before the next one (a begin time); any pass
	// forgets it, so each pass says again when it wants the next.
	void wake_at(std::chrono::steady_clock::time_point when);
	void stop(); // idempotent; joins the thread
	bool running() const { return thread_.joinable(); }

private:
	void loop();
	void run_pass() noexcept;
	void report(const char *what) noexcept;

	std::string name_;
	std::function<void()> pass_;
	FailureReport report_;
	std::thread thread_;
	std::mutex mutex_;
	std::condition_variable wakeup_;
	std::chrono::milliseconds period_{1000};
	bool stop_requested_ = false;
	bool wake_requested_ = false;
	std::optional<std::chrono::steady_clock::time_point> wake_at_;
};

} // namespace campaign
