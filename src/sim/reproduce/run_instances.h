// run_instances(): the experiments' instances spread over worker threads. Each instance is
// independent (its own workload, core and planner); results come back in instance order.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace campaign::sim
{

template <typename Summary>
std::vector<Summary> run_instances(uint32_t count, const std::function<Summary(uint32_t)> &one,
                                   const std::function<void(double)> &progress)
{
	std::vector<Summary> results(count);
	std::atomic<uint32_t> next{0}, done{0};
	std::mutex report;
	auto worker = [&]() {
		for (uint32_t index = next++; index < count; index = next++) {
			results[index] = one(index);
			const uint32_t finished = ++done;
			if (progress) {
				std::lock_guard<std::mutex> lock(report);
				progress(static_cast<double>(finished) / count);
			}
		}
	};
	const unsigned threads = std::max(1u, std::min(std::thread::hardware_concurrency(), count));
	std::vector<std::thread> pool;
	for (unsigned i = 1; i < threads; ++i)
		pool.emplace_back(worker);
	worker();
	for (std::thread &thread : pool)
		thread.join();
	return results;
}

} // namespace campaign::sim
