// `campsim replay-plan`: load the window, map and compress it, write the list and its notes.
#include "cli/replay_plan_command.h"

#include "cli/workload_loader.h"
#include "replay/replay_plan.h"

#include <cstdio>
#include <fstream>
#include <iostream>

namespace campaign::sim
{

int replay_plan_command(const CampsimOptions &options)
{
	auto loaded = load_workload(options);
	if (!loaded) {
		std::fprintf(stderr, "campsim: %s\n", loaded.error().c_str());
		return 1;
	}
	ReplayOptions replay;
	replay.nodes = options.replay_nodes;
	replay.cpus_per_node = options.replay_node_cpus;
	replay.compression = options.compression;
	replay.cpu_map = options.cpu_map == "identity" ? CpuMap::identity : CpuMap::scale;
	replay.wide = options.wide == "clamp" ? WideJobs::clamp : WideJobs::drop;
	replay.user_prefix = options.user_prefix;
	const Workload &workload = loaded.value().workload;
	auto plan = plan_replay(workload, replay);
	if (!plan) {
		std::fprintf(stderr, "campsim: %s\n", plan.error().c_str());
		return 1;
	}
	const std::string csv = replay_plan_csv(plan.value());
	// The notes go to stderr when the list goes to stdout, so the list stays a clean CSV.
	FILE *notes = options.out_dir.empty() ? stderr : stdout;
	std::fprintf(notes, "replay plan of %s: %zu of %zu jobs on %u nodes x %u CPUs\n",
	             workload.name.c_str(), plan.value().jobs.size(), workload.jobs.size(),
	             replay.nodes, replay.cpus_per_node);
	for (const std::string &note : plan.value().notes)
		std::fprintf(notes, "  note: %s\n", note.c_str());
	if (options.out_dir.empty()) {
		std::cout << csv;
		return 0;
	}
	std::ofstream out(options.out_dir);
	out << csv;
	out.close();
	if (!out) {
		std::fprintf(stderr, "campsim: %s: cannot write\n", options.out_dir.c_str());
		return 1;
	}
	return 0;
}

} // namespace campaign::sim
