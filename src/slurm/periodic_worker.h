// One long-lived plugin thread: runs a pass every period or sooner when woken, stops and joins
// in stop() (called from fini, before dlclose). Takes no Slurm lock itself.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace campaign::slurm
{

class PeriodicWorker
{
public:
	~PeriodicWorker() { stop(); }

	// Starts the thread; `pass` runs once per period (exceptions are caught and logged).
	void start(std::string name, std::chrono::milliseconds period, std::function<void()> pass);
	void set_period(std::chrono::milliseconds period);
	void wake(); // run the next pass now
	void stop(); // idempotent; joins the thread
	bool running() const { return thread_.joinable(); }

private:
	void loop();

	std::string name_;
	std::function<void()> pass_;
	std::thread thread_;
	std::mutex mutex_;
	std::condition_variable wakeup_;
	std::chrono::milliseconds period_{1000};
	bool stop_requested_ = false;
	bool wake_requested_ = false;
};

} // namespace campaign::slurm
