// Planner benchmark: full plan, incremental update after one early completion, and a rebuild of
// the same state, on 64 nodes x 32 CPUs with 1k, 10k and 50k pending jobs. Then the scale rows
// (issue 15 point 8): 1,000 nodes x 10,000 pending and 10,000 x 100,000, CPU and GPU nodes and
// jobs, a fifth of the nodes in a maintenance window, conservative (depth 1000) and
// per_campaign: full plan, steady-state update, peak memory, and PASS/FAIL per goal.
#include "plan/planner.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
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
	NodeSet halves[2];
	for (int half = 0; half < 2; ++half) {
		std::vector<NodeIndex> nodes;
		for (NodeIndex node = half * (node_count / 2); node < (half + 1) * (node_count / 2);
		     ++node)
			nodes.push_back(node);
		halves[half] = NodeSet(std::move(nodes));
	}
	std::vector<PendingJob> pending;
	for (size_t i = 0; i < count; ++i) {
		PendingJob job;
		job.id = i + 1;
		job.cpus = cpu_sizes[random.below(std::size(cpu_sizes))];
		job.limit_s = limits_s[random.below(std::size(limits_s))];
		job.memory_per_cpu_mb = 1000 * static_cast<int64_t>(1 + random.below(4));
		job.exclusive = job.cpus >= 32 && random.below(2) == 0;
		if (random.below(5) == 0) // one list per half, shared, as Slurm's partitions
			job.allowed_nodes = random.below(2) == 0 ? halves[0] : halves[1];
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

// The scale rows: a machine of `nodes` nodes, 48 CPUs and 256 GB each, every fourth one with
// 4 GPUs (GRES kind 0); every node busy with one to four jobs; 20 % of the nodes (a block) in a
// maintenance window from 6 h to 10 h from now (Cluster::unavailable); `pending` jobs, a
// quarter of them asking 1-4 GPUs per node (GPU nodes only), the rest 1 CPU to 4 nodes.
struct ScaleFigures {
	double full_ms = 0, update_ms = 0, peak_mb = 0;
	uint64_t plan_digest = 0; // of every job's status, start and nodes (only if asked)
	double full_cpu_ms = 0, update_cpu_ms = 0; // CPU time too: the machine is shared
	size_t reserved = 0;
};

// CPU time of this process (each case runs in its own child).
double process_cpu_ms()
{
	timespec now{};
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
	return static_cast<double>(now.tv_sec) * 1000.0 + static_cast<double>(now.tv_nsec) / 1e6;
}

double peak_rss_mb()
{
	rusage usage{};
	getrusage(RUSAGE_SELF, &usage);
	return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

// FNV-1a over every queued job's status, start and allocations: two builds of the planner plan
// alike when their digests are (campsim's machine is one node; this one has thousands).
uint64_t mix_plan(uint64_t digest, const Planner &planner)
{
	auto mix = [&digest](int64_t value) {
		digest = (digest ^ static_cast<uint64_t>(value)) * 1099511628211ull;
	};
	for (const PlannedJob &job : planner.queue()) {
		mix(static_cast<int64_t>(job.id));
		mix(static_cast<int64_t>(job.status));
		mix(job.start_s);
		for (const NodeAllocation &allocation : job.allocations) {
			mix(allocation.node);
			mix(allocation.cpus);
			mix(allocation.memory_mb);
			for (int32_t count : allocation.gres)
				mix(count);
		}
	}
	return digest;
}

ScaleFigures measure_scale(ReservationMode mode, int nodes, size_t pending_count,
                           bool with_digest = false)
{
	constexpr int32_t cpus = 48;
	constexpr int32_t gpus = 4;
	Random random(static_cast<uint64_t>(nodes) * 7 + pending_count);
	Cluster cluster;
	cluster.gres_kinds = {"gpu"};
	std::vector<NodeIndex> gpu_nodes, cpu_nodes;
	for (int i = 0; i < nodes; ++i) {
		NodeSpec node{"n" + std::to_string(i), cpus, 256'000, NodeState::up};
		if (i % 4 == 0) {
			node.gres[0] = gpus;
			gpu_nodes.push_back(i);
		} else {
			cpu_nodes.push_back(i);
		}
		cluster.nodes.push_back(std::move(node));
	}
	UnavailableWindow maintenance{{}, now_s + 6 * 3600, now_s + 10 * 3600};
	for (int i = 0; i < nodes / 5; ++i)
		maintenance.nodes.push_back(nodes / 2 + i - nodes / 10);
	cluster.unavailable.push_back(maintenance);

	std::vector<RunningJob> running;
	JobId id = 100'000'000;
	for (NodeIndex node = 0; node < nodes; ++node) {
		int32_t cpus_left = cpus;
		int32_t gpus_left = cluster.nodes[node].gres[0];
		while (cpus_left > 0) {
			const int32_t take = std::min<int32_t>(cpus_left, 6 << random.below(3));
			NodeAllocation allocation{node, take, take * 4000};
			if (gpus_left > 0) {
				allocation.gres[0] =
				    1 + static_cast<int32_t>(random.below(gpus_left));
				gpus_left -= allocation.gres[0];
			}
			running.push_back(
			    RunningJob{id++,
			               {allocation},
			               now_s + 60 + static_cast<int64_t>(random.below(86400))});
			cpus_left -= take;
		}
	}
	static const int32_t cpu_sizes[] = {1, 2, 4, 8, 16, 48, 96, 192};
	static const int64_t limits_s[] = {600, 1800, 3600, 4 * 3600, 12 * 3600, 86400, 2 * 86400};
	// One list per partition, shared by its jobs, as plan_snapshot makes them.
	const NodeSet gpu_partition(gpu_nodes), cpu_partition(cpu_nodes);
	std::vector<PendingJob> pending;
	for (size_t i = 0; i < pending_count; ++i) {
		PendingJob job;
		job.id = i + 1;
		job.limit_s = limits_s[random.below(std::size(limits_s))];
		job.campaign_id = 1 + random.below(pending_count / 50 + 1);
		if (random.below(4) == 0) { // GPU job: 1-4 GPUs per node on one or two GPU nodes
			job.gres_per_node[0] = 1 + static_cast<int32_t>(random.below(gpus));
			job.nodes_min = 1 + static_cast<int32_t>(random.below(2));
			job.cpus = job.nodes_min * 6 * job.gres_per_node[0];
			job.allowed_nodes = gpu_partition;
		} else {
			job.cpus = cpu_sizes[random.below(std::size(cpu_sizes))];
			job.nodes_min = std::max<int32_t>(1, job.cpus / cpus);
			job.memory_per_cpu_mb = 1000 * static_cast<int64_t>(1 + random.below(4));
			if (random.below(5) == 0)
				job.allowed_nodes = cpu_partition; // a CPU partition
		}
		pending.push_back(std::move(job));
	}

	PlannerConfig config;
	config.mode = mode;
	config.depth = 1000;
	ScaleFigures figures;
	Planner planner(config);
	auto start = std::chrono::steady_clock::now();
	double cpu_start_ms = process_cpu_ms();
	if (campaign::Status built = planner.rebuild(cluster, running, pending, now_s); !built) {
		std::printf("# scale rebuild failed: %s\n", built.error().c_str());
		return figures;
	}
	figures.full_ms = elapsed_ms(start);
	figures.full_cpu_ms = process_cpu_ms() - cpu_start_ms;
	if (with_digest)
		figures.plan_digest = mix_plan(1469598103934665603ull, planner);
	for (const PlannedJob &job : planner.queue())
		figures.reserved += job.status == JobStatus::reserved;
	// Steady state: five early completions in a row on the kept plan (conservative), or the
	// plan afresh on the kept machine after each (per_campaign: the PlanKeeper always does).
	constexpr int samples = 5;
	std::vector<RunningJob> still_running = running;
	start = std::chrono::steady_clock::now();
	cpu_start_ms = process_cpu_ms();
	for (int sample = 0; sample < samples; ++sample) {
		const size_t index = (static_cast<size_t>(sample) * 7919) % still_running.size();
		const JobId ending = still_running[index].id;
		still_running.erase(still_running.begin() + static_cast<std::ptrdiff_t>(index));
		const int64_t at_s = now_s + 30 * (sample + 1);
		if (mode == ReservationMode::per_campaign)
			(void)planner.replan(still_running, pending, at_s);
		else
			(void)planner.job_ended(ending, at_s);
		if (with_digest) // inside the timed loop: update figures include it then
			figures.plan_digest = mix_plan(figures.plan_digest, planner);
	}
	figures.update_ms = elapsed_ms(start) / samples;
	figures.update_cpu_ms = (process_cpu_ms() - cpu_start_ms) / samples;
	figures.peak_mb = peak_rss_mb();
	return figures;
}

// Each case in a child process, so its peak memory is its own (a child starts from the
// parent's resident size, small here), not the largest case's so far.
ScaleFigures measure_scale_apart(ReservationMode mode, int nodes, size_t pending_count)
{
	std::fflush(stdout);
	int channel[2];
	if (pipe(channel) != 0)
		return measure_scale(mode, nodes, pending_count);
	const pid_t child = fork();
	if (child == 0) {
		close(channel[0]);
		const ScaleFigures figures = measure_scale(mode, nodes, pending_count);
		const bool written = write(channel[1], &figures, sizeof figures) == sizeof figures;
		std::fflush(stdout); // its own lines: the parent's were flushed before the fork
		_exit(written ? 0 : 1);
	}
	close(channel[1]);
	ScaleFigures figures;
	if (child < 0 || read(channel[0], &figures, sizeof figures) != sizeof figures)
		std::printf("# scale case %d nodes failed\n", nodes);
	close(channel[0]);
	if (child > 0)
		waitpid(child, nullptr, 0);
	return figures;
}

void print_scale_case(const std::string &name, const ScaleFigures &figures)
{
	print(name + "full_plan", figures.full_ms, "ms");
	print(name + "full_plan_cpu", figures.full_cpu_ms, "ms");
	print(name + "update", figures.update_ms, "ms");
	print(name + "update_cpu", figures.update_cpu_ms, "ms");
}

// One case alone (`scale NODES PENDING [MODE [digest]]`): a same-shaped smaller machine to
// profile; `digest` also prints a digest of the plan after the full plan and each update, to
// compare two builds of the planner.
int measure_one_case(const std::string &nodes_text, const std::string &pending_text,
                     const std::string &mode_text, bool with_digest)
{
	char *nodes_end = nullptr, *pending_end = nullptr;
	const long nodes = std::strtol(nodes_text.c_str(), &nodes_end, 10);
	const long pending = std::strtol(pending_text.c_str(), &pending_end, 10);
	if (*nodes_end || nodes < 10 || *pending_end || pending < 1) {
		std::fprintf(stderr, "bench_planner: scale NODES PENDING: bad '%s' or '%s'\n",
		             nodes_text.c_str(), pending_text.c_str());
		return 2;
	}
	ReservationMode mode = ReservationMode::conservative;
	if (mode_text == "per_campaign")
		mode = ReservationMode::per_campaign;
	else if (mode_text != "conservative") {
		std::fprintf(stderr,
		             "bench_planner: unknown mode '%s' (conservative, per_campaign)\n",
		             mode_text.c_str());
		return 2;
	}
	const ScaleFigures figures =
	    measure_scale(mode, static_cast<int>(nodes), static_cast<size_t>(pending), with_digest);
	const std::string name = std::string("scale_") + to_string(mode) + "_" +
	                         std::to_string(nodes) + "n_" + std::to_string(pending) + "_";
	print_scale_case(name, figures);
	print(name + "reserved", static_cast<double>(figures.reserved), "jobs");
	print(name + "peak_rss", figures.peak_mb, "MB");
	if (with_digest)
		std::printf("%splan_digest %016llx\n", name.c_str(),
		            static_cast<unsigned long long>(figures.plan_digest));
	return 0;
}

void measure_scale_rows()
{
	struct Row {
		int nodes;
		size_t pending;
	};
	constexpr double goal_growth = 15, goal_full_ms = 10'000, goal_update_ms = 500,
	                 goal_peak_mb = 2048;
	auto verdict = [](bool pass) { return pass ? "PASS" : "FAIL"; };
	for (ReservationMode mode :
	     {ReservationMode::conservative, ReservationMode::per_campaign}) {
		ScaleFigures small, large;
		for (const Row row : {Row{1000, 10'000}, Row{10'000, 100'000}}) {
			const ScaleFigures figures =
			    measure_scale_apart(mode, row.nodes, row.pending);
			const std::string name = std::string("scale_") + to_string(mode) + "_" +
			                         std::to_string(row.nodes) + "n_" +
			                         std::to_string(row.pending / 1000) + "k_";
			print_scale_case(name, figures);
			print(name + "reserved", static_cast<double>(figures.reserved), "jobs");
			print(name + "peak_rss", figures.peak_mb, "MB");
			std::printf("%sgoals full_plan<=10s %s update<=0.5s %s peak<2GiB %s\n",
			            name.c_str(), verdict(figures.full_ms <= goal_full_ms),
			            verdict(figures.update_ms <= goal_update_ms),
			            verdict(figures.peak_mb < goal_peak_mb));
			// On CPU time too: a shared machine's load inflates wall time.
			std::printf("%sgoals_cpu full_plan<=10s %s update<=0.5s %s\n", name.c_str(),
			            verdict(figures.full_cpu_ms <= goal_full_ms),
			            verdict(figures.update_cpu_ms <= goal_update_ms));
			(row.nodes == 1000 ? small : large) = figures;
		}
		const double full_growth = large.full_ms / std::max(small.full_ms, 1e-6);
		const double update_growth = large.update_ms / std::max(small.update_ms, 1e-6);
		std::printf("scale_%s_growth full_plan %.1fx %s update %.1fx %s (goal <= %.0fx)\n",
		            to_string(mode), full_growth, verdict(full_growth <= goal_growth),
		            update_growth, verdict(update_growth <= goal_growth), goal_growth);
		// The same on CPU time: wall times on a shared machine grow with its load too.
		const double full_cpu_growth =
		    large.full_cpu_ms / std::max(small.full_cpu_ms, 1e-6);
		const double update_cpu_growth =
		    large.update_cpu_ms / std::max(small.update_cpu_ms, 1e-6);
		std::printf(
		    "scale_%s_growth_cpu full_plan %.1fx %s update %.1fx %s (goal <= %.0fx)\n",
		    to_string(mode), full_cpu_growth, verdict(full_cpu_growth <= goal_growth),
		    update_cpu_growth, verdict(update_cpu_growth <= goal_growth), goal_growth);
	}
}

} // namespace

int main(int argc, char **argv)
{
	const std::string only = argc > 1 ? argv[1] : "";
	if (only == "scale" && argc > 3) {
		if (argc > 5 && std::string(argv[5]) != "digest") {
			std::fprintf(stderr,
			             "bench_planner: unknown argument '%s' (digest or none)\n",
			             argv[5]);
			return 2;
		}
		return measure_one_case(argv[2], argv[3], argc > 4 ? argv[4] : "conservative",
		                        argc > 5);
	}
	if (only != "" && only != "scale" && only != "rows") {
		std::fprintf(stderr, "bench_planner: unknown argument '%s' (rows, scale or none)\n",
		             only.c_str());
		return 2;
	}
	if (only != "scale") {
		std::printf("# planner benchmark: %d nodes x %d CPUs, every node busy at start\n",
		            node_count, cpus_per_node);
		for (ReservationMode mode : {ReservationMode::conservative, ReservationMode::easy,
		                             ReservationMode::per_campaign})
			for (size_t pending_count : {1000, 10000, 50000})
				measure(mode, pending_count);
	}
	if (only != "rows") {
		std::printf(
		    "# scale: 1,000 nodes x 10k pending and 10,000 x 100k, a quarter GPU nodes "
		    "and GPU jobs, 20 %% of the nodes in a maintenance window, depth 1000\n");
		measure_scale_rows();
	}
	return 0;
}
