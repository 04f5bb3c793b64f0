// Planner benchmark: full plan, incremental update after one early completion, and a rebuild of
// the same state, on 64 nodes x 32 CPUs with 1k, 10k and 50k pending jobs. Prints figures only.
#include "plan/planner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

using namespace campaign::plan;

namespace
{

constexpr int64_t now_s = 1'000'000;
constexpr int node_count = 64;
constexpr int32_t cpus_per_node = 32;
constexpr int64_t memory_per_node_mb = 128'000;

class Random
{
public:
	explicit Random(uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
	uint64_t below(uint64_t bound)
	{
		state_ ^= state_ << 13;
		state_ ^= state_ >> 7;
		state_ ^= state_ << 17;
		return state_ % bound;
	}

private:
	uint64_t state_;
};

Cluster make_cluster()
{
	Cluster cluster;
	for (int i = 0; i < node_count; ++i)
		cluster.nodes.push_back(
		    {"n" + std::to_string(i), cpus_per_node, memory_per_node_mb, NodeState::up});
	return cluster;
}

// Every node busy: one to four running jobs each, ending within the next day.
std::vector<RunningJob> make_running(Random &random)
{
	std::vector<RunningJob> running;
	JobId id = 1'000'000;
	for (NodeIndex node = 0; node < node_count; ++node) {
		int32_t cpus_left = cpus_per_node;
		while (cpus_left > 0) {
			const int32_t cpus = std::min<int32_t>(cpus_left, 1 << random.below(6));
			running.push_back(
			    RunningJob{id++,
			               {{node, cpus, cpus * 2000}},
			               now_s + 60 + static_cast<int64_t>(random.below(86400))});
			cpus_left -= cpus;
		}
	}
	return running;
}

// Mixed sizes (1 CPU to 4 nodes) and limits (10 min to 2 days); a fifth of the jobs are bound to
// one half of the machine (a partition); some exclusive; 200 campaigns.
std::vector<PendingJob> make_pending(Random &random, size_t count)
{
	static const int32_t cpu_sizes[] = {1, 1, 2, 4, 8, 16, 32, 64, 128};
	static const int64_t limits_s[] = {600, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400};
	std::vector<PendingJob> pending;
	for (size_t i = 0; i < count; ++i) {
		PendingJob job;
		job.id = i + 1;
		job.cpus = cpu_sizes[random.below(std::size(cpu_sizes))];
		job.limit_s = limits_s[random.below(std::size(limits_s))];
		job.memory_per_cpu_mb = 1000 * static_cast<int64_t>(1 + random.below(4));
		job.exclusive = job.cpus >= 32 && random.below(2) == 0;
		if (random.below(5) == 0) {
			const NodeIndex first = random.below(2) == 0 ? 0 : node_count / 2;
			for (NodeIndex node = first; node < first + node_count / 2; ++node)
				job.allowed_nodes.push_back(node);
		}
		job.campaign_id = 1 + random.below(200);
		pending.push_back(std::move(job));
	}
	return pending;
}

double elapsed_ms(std::chrono::steady_clock::time_point since)
{
	return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
	    .count();
}

void print(const std::string &name, double value, const char *unit)
{
	std::printf("%s %.3f %s\n", name.c_str(), value, unit);
}

// Submissions ranked last (the simulator's common case): 100 in a row on one copy, so the
// queue's growth is amortized as in a long run. Milliseconds per submission.
double submission_ms(const Planner &planner, Random &random, size_t pending_count)
{
	constexpr int submissions = 100;
	Planner grown = planner;
	const auto start = std::chrono::steady_clock::now();
	for (int i = 0; i < submissions; ++i) {
		PendingJob late = make_pending(random, 1).front();
		late.id = pending_count + 1 + i;
		(void)grown.job_submitted(late, now_s);
	}
	return elapsed_ms(start) / submissions;
}

void measure(ReservationMode mode, size_t pending_count)
{
	Random random(pending_count);
	const Cluster cluster = make_cluster();
	const std::vector<RunningJob> running = make_running(random);
	const std::vector<PendingJob> pending = make_pending(random, pending_count);
	PlannerConfig config;
	config.mode = mode;
	const std::string name =
	    std::string(to_string(mode)) + "_" + std::to_string(pending_count / 1000) + "k_";

	Planner planner(config);
	auto start = std::chrono::steady_clock::now();
	if (!planner.rebuild(cluster, running, pending, now_s).ok())
		return;
	const double full_ms = elapsed_ms(start);
	size_t reserved = 0;
	for (const PlannedJob &job : planner.queue())
		reserved += job.status == JobStatus::reserved;

	// One early completion, 30 s from now, of the running job that was to end last on its node
	// set; five different jobs, each on a fresh copy of the kept plan.
	double incremental_ms = 0, rebuild_ms = 0;
	constexpr int samples = 5;
	for (int sample = 0; sample < samples; ++sample) {
		const RunningJob &ending = running[(sample * 37) % running.size()];
		Planner kept = planner;
		start = std::chrono::steady_clock::now();
		(void)kept.job_ended(ending.id, now_s + 30);
		incremental_ms += elapsed_ms(start);
		std::vector<RunningJob> still_running;
		for (const RunningJob &job : running)
			if (job.id != ending.id)
				still_running.push_back(job);
		Planner fresh(config);
		start = std::chrono::steady_clock::now();
		(void)fresh.rebuild(cluster, still_running, pending, now_s + 30);
		rebuild_ms += elapsed_ms(start);
	}
	incremental_ms /= samples;
	rebuild_ms /= samples;

	const double submit_ms = submission_ms(planner, random, pending_count);
	Planner later = planner; // no event, the clock moves 30 s: what every simulator step pays
	start = std::chrono::steady_clock::now();
	(void)later.plan(now_s + 30);
	const double time_step_ms = elapsed_ms(start);
	print(name + "full_plan", full_ms, "ms");
	print(name + "jobs_placed_per_s", pending_count / (full_ms / 1000.0), "jobs/s");
	print(name + "reserved", static_cast<double>(reserved), "jobs");
	print(name + "incremental_early_end", incremental_ms, "ms");
	print(name + "rebuild_after_early_end", rebuild_ms, "ms");
	print(name + "incremental_speedup", rebuild_ms / std::max(incremental_ms, 1e-6), "x");
	print(name + "submit_ranked_last", submit_ms, "ms");
	print(name + "plan_after_30s_no_event", time_step_ms, "ms");
}

} // namespace

int main()
{
	std::printf("# planner benchmark: %d nodes x %d CPUs, every node busy at start\n",
	            node_count, cpus_per_node);
	for (ReservationMode mode :
	     {ReservationMode::conservative, ReservationMode::easy, ReservationMode::per_campaign})
		for (size_t pending_count : {1000, 10000, 50000})
			measure(mode, pending_count);
	return 0;
}
