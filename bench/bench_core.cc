// Core benchmark: full re-rank of 100k pending jobs (1,000 users, 10 domains) against std::sort
// of the same 100k (key, id) pairs, single submit/end events against a full re-rank, and bytes
// per job. Prints `name value unit` lines only; measures side by side in one run.
#include "policy/campaign_core.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <malloc.h>
#include <random>
#include <string>
#include <vector>

using namespace campaign;

namespace
{

constexpr int kJobs = 100000;
constexpr uint32_t kUsers = 1000;
constexpr int kDomains = 10;

double seconds_since(std::chrono::steady_clock::time_point start)
{
	return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values)
{
	std::sort(values.begin(), values.end());
	return values[values.size() / 2];
}

JobFields random_job(uint32_t job_id, int64_t submit_s, std::mt19937_64 &random)
{
	JobFields job;
	job.job_id = job_id;
	job.user_id = static_cast<uint32_t>(random() % kUsers);
	job.account = "account" + std::to_string(job.user_id % 50);
	job.partitions = {"part" + std::to_string(job.user_id % kDomains)};
	job.submit_s = submit_s;
	job.eligible_s = submit_s;
	job.cpus = 1 + static_cast<uint32_t>(random() % 64);
	job.limit = TimeLimit::of_seconds(60 + static_cast<int64_t>(random() % 86400));
	return job;
}

CampaignCore build_core(const std::string &parameters, std::mt19937_64 &random)
{
	CampaignCore core = CampaignCore::create(parameters).value();
	for (int domain = 0; domain < kDomains; domain++)
		(void)core.capacity({"part" + std::to_string(domain), 4096, 7 * 86400, 3600}, 0);
	for (int index = 0; index < kJobs; index++)
		(void)core.submit(random_job(static_cast<uint32_t>(index + 1), index / 100, random),
		                  index / 100);
	return core;
}

double rerank_s(CampaignCore &core, int64_t now_s, int repeats)
{
	std::vector<double> times;
	for (int run = 0; run < repeats; run++) {
		const auto start = std::chrono::steady_clock::now();
		const Ranking ranking = core.rank(now_s);
		times.push_back(seconds_since(start));
		if (ranking.order.size() < 1000)
			std::printf("unexpected ranking size %zu\n", ranking.order.size());
	}
	return median(times);
}

double pair_sort_s(int repeats, std::mt19937_64 &random)
{
	std::vector<std::pair<double, uint32_t>> pairs(kJobs);
	for (int index = 0; index < kJobs; index++)
		pairs[index] = {static_cast<double>(random() % 1000000) / 7.0,
		                static_cast<uint32_t>(index + 1)};
	std::vector<double> times;
	for (int run = 0; run < repeats; run++) {
		std::vector<std::pair<double, uint32_t>> copy = pairs;
		const auto start = std::chrono::steady_clock::now();
		std::sort(copy.begin(), copy.end());
		times.push_back(seconds_since(start));
	}
	return median(times);
}

// Median cost of one submit and of one end event, each followed by nothing else.
std::pair<double, double> event_s(CampaignCore &core, int64_t now_s, std::mt19937_64 &random)
{
	std::vector<double> submits, ends;
	for (uint32_t index = 0; index < 1001; index++) {
		const JobFields job = random_job(kJobs + 1 + index, now_s, random);
		auto start = std::chrono::steady_clock::now();
		(void)core.submit(job, now_s);
		submits.push_back(seconds_since(start));
		const uint32_t victim = 1 + static_cast<uint32_t>(random() % kJobs);
		(void)core.start(victim, now_s);
		start = std::chrono::steady_clock::now();
		(void)core.end(victim, now_s + 5);
		ends.push_back(seconds_since(start));
		now_s += 5;
	}
	return {median(submits), median(ends)};
}

void measure(const std::string &policy, double sort_s, std::mt19937_64 &random)
{
	const size_t heap_before = mallinfo2().uordblks + mallinfo2().hblkhd;
	CampaignCore core = build_core("policy=" + policy, random);
	const size_t heap_after = mallinfo2().uordblks + mallinfo2().hblkhd;
	const int64_t now_s = kJobs / 100 + 10;
	const double rank_s = rerank_s(core, now_s, 9);
	const auto [submit_s, end_s] = event_s(core, now_s, random);
	const double rank_after_s = rerank_s(core, now_s + 6000, 5);
	const std::string name = "core_" + policy;
	std::printf("%s_rerank_100k %.3f ms\n", name.c_str(), rank_s * 1e3);
	std::printf("%s_rerank_over_sort %.2f ratio\n", name.c_str(), rank_s / sort_s);
	std::printf("%s_submit_event_median %.2f us\n", name.c_str(), submit_s * 1e6);
	std::printf("%s_end_event_median %.2f us\n", name.c_str(), end_s * 1e6);
	std::printf("%s_rerank_over_submit %.0f ratio\n", name.c_str(), rank_s / submit_s);
	std::printf("%s_rerank_over_end %.0f ratio\n", name.c_str(), rank_s / end_s);
	std::printf("%s_rerank_after_events %.3f ms\n", name.c_str(), rank_after_s * 1e3);
	std::printf("%s_heap_bytes_per_job %.0f bytes\n", name.c_str(),
	            static_cast<double>(heap_after - heap_before) / kJobs);
	std::printf("%s_counted_bytes_per_job %.0f bytes\n", name.c_str(),
	            static_cast<double>(core.approximate_bytes()) / kJobs);
}

} // namespace

int main()
{
	std::mt19937_64 random(42);
	const double sort_s = pair_sort_s(9, random);
	std::printf("std_sort_100k_pairs %.3f ms\n", sort_s * 1e3);
	for (const char *policy : {"ostrich", "faircamp", "fifo"})
		measure(policy, sort_s, random);
	return 0;
}
