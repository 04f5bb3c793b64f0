// `campsim run`: load, simulate each policy, score, print the table, write the files.
#include "cli/run_command.h"

#include "cli/workload_loader.h"
#include "engine/observed_run.h"
#include "report/comparison_table.h"
#include "report/plots.h"
#include "report/progress_bar.h"
#include "report/run_report.h"
#include "workload/offered_load.h"

#include <filesystem>
#include <fstream>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <iostream>
#include <optional>
#include <thread>

namespace campaign::sim
{

namespace
{

// Which runs cost most, first: conservative plans every pending job, easy and greedy search
// the whole queue, per_campaign walks only its candidates, no_backfill lists.
int cost_rank(BackfillKind backfill)
{
	switch (backfill) {
	case BackfillKind::conservative:
	case BackfillKind::slurm_backfill:
		return 0;
	case BackfillKind::easy:
	case BackfillKind::greedy:
		return 1;
	case BackfillKind::per_campaign:
		return 2;
	case BackfillKind::no_backfill:
		break;
	}
	return 3;
}

} // namespace

// Each policy's run is independent (its own Simulation, the workload only read), so with
// `parallel` > 1 that many run at once on threads; the results are the same, in policy order.
Result<std::vector<PolicyRun>> run_policies(const Workload &workload,
                                            const std::vector<PolicyChoice> &policies,
                                            const SimulationOptions &base,
                                            const MetricOptions &metric_options, bool progress,
                                            unsigned parallel)
{
	std::vector<std::optional<Result<PolicyRun>>> runs(policies.size());
	auto run_one = [&](size_t index) {
		const PolicyChoice &policy = policies[index];
		SimulationOptions options = base;
		options.priority = policy.priority;
		options.backfill = policy.backfill;
		if (options.dump_plan.to_s >= options.dump_plan.from_s) {
			const std::string label = policy.label();
			options.dump_plan.line = [label](int64_t now_s, const std::string &line) {
				std::fprintf(stderr, "campsim: %s plan at %lld %s\n", label.c_str(),
				             static_cast<long long>(now_s), line.c_str());
			};
		}
		std::unique_ptr<ProgressBar> bar;
		if (progress && parallel <= 1) { // bars of runs at once would overwrite each other
			bar = std::make_unique<ProgressBar>(policy.label(), 1000);
			options.progress = [&bar](double done) {
				bar->update(static_cast<uint64_t>(done * 1000));
			};
		}
		auto run = simulate(workload, options);
		if (bar)
			bar->finish();
		if (!run) {
			runs[index] = Result<PolicyRun>(Error{policy.label() + ": " + run.error()});
			return;
		}
		RunMetrics metrics = compute_metrics(workload, run.value(), metric_options);
		runs[index] =
		    Result<PolicyRun>(PolicyRun{std::move(run).value(), std::move(metrics)});
	};
	if (parallel <= 1 || policies.size() <= 1) {
		for (size_t index = 0; index < policies.size(); ++index) {
			run_one(index);
			if (!*runs[index])
				return Error{runs[index]->error()};
		}
	} else {
		// The costliest first (deep reservations plan the most), so that no long run
		// starts last while the other threads have nothing left.
		std::vector<size_t> order(policies.size());
		for (size_t index = 0; index < order.size(); ++index)
			order[index] = index;
		std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
			return cost_rank(policies[a].backfill) < cost_rank(policies[b].backfill);
		});
		std::atomic<size_t> next{0};
		std::vector<std::thread> workers;
		for (unsigned worker = 0; worker < std::min<size_t>(parallel, policies.size());
		     ++worker)
			workers.emplace_back([&] {
				for (size_t taken; (taken = next++) < order.size();)
					run_one(order[taken]);
			});
		for (std::thread &worker : workers)
			worker.join();
	}
	std::vector<PolicyRun> all;
	for (auto &run : runs) {
		if (!*run)
			return Error{run->error()};
		all.push_back(std::move(*run).value());
	}
	return all;
}

namespace
{

void print_input(const Workload &workload)
{
	const InputCounts &counts = workload.counts;
	std::printf("workload %s: %zu jobs on %u CPUs", workload.name.c_str(), workload.jobs.size(),
	            workload.machine_cpus);
	const auto number = [](uint64_t value) { return static_cast<unsigned long long>(value); };
	if (counts.lines > 0)
		std::printf(
		    " (%llu lines; dropped: %llu cancelled, %llu unknown run time, %llu "
		    "unknown CPUs, %llu unknown submit time, %llu outside the window, %llu "
		    "malformed, %llu all -1; "
		    "kept %llu with run time 0, %llu with limit 0 read as unknown, %llu with "
		    "status outside -1..5, %llu above their limit: %llu CPU-s cut at the "
		    "limit)",
		    number(counts.lines), number(counts.cancelled_dropped),
		    number(counts.unknown_runtime), number(counts.unknown_cpus),
		    number(counts.unknown_submit), number(counts.outside_window),
		    number(counts.malformed_skipped), number(counts.placeholder_dropped),
		    number(counts.zero_runtime), number(counts.zero_limit_unknown),
		    number(counts.status_outside_swf), number(counts.limit_below_runtime),
		    number(counts.cut_at_limit_cpu_s));
	if (counts.steps_dropped + counts.unfinished_dropped + counts.earlier_runs_dropped > 0)
		std::printf(
		    " (sacct: dropped %llu steps, %llu earlier runs of requeued jobs, %llu "
		    "unfinished at export; kept %llu array tasks, %llu arriving at Eligible)",
		    number(counts.steps_dropped), number(counts.earlier_runs_dropped),
		    number(counts.unfinished_dropped), number(counts.array_tasks),
		    number(counts.eligible_after_submit));
	std::printf("\n");
	for (const std::string &note : workload.notes)
		std::printf("  note: %s\n", note.c_str());
}

Status write_text(const std::string &path, const std::string &text)
{
	std::ofstream out(path);
	out << text;
	out.close();
	if (!out)
		return Error{path + ": cannot write"};
	return ok_status();
}

// <dir>/<label>.json and .jobs/.campaigns/.users.csv per run, comparison.txt and .csv.
Status write_report(const std::string &directory, const Workload &workload,
                    const std::vector<PolicyRun> &runs, const MetricOptions &options, bool plots)
{
	std::error_code error;
	std::filesystem::create_directories(directory, error);
	if (error)
		return Error{directory + ": " + error.message()};
	std::vector<RunMetrics> metrics;
	for (const PolicyRun &run : runs) {
		std::string stem = run.run.label;
		std::replace(stem.begin(), stem.end(), '/', '_');
		if (Status written = write_run_json(directory + "/" + stem + ".json", workload,
		                                    run.run, run.metrics, options);
		    !written)
			return written;
		if (auto written =
		        write_run_csv(directory, stem, workload, run.run, run.metrics, options);
		    !written)
			return Error{written.error()};
		metrics.push_back(run.metrics);
	}
	if (Status written =
	        write_text(directory + "/comparison.txt", comparison_table_text(metrics));
	    !written)
		return written;
	if (Status written =
	        write_text(directory + "/comparison.csv", comparison_table_csv(metrics));
	    !written)
		return written;
	if (!plots)
		return ok_status();
	auto images = write_plots(directory + "/plots", metrics, PlotOptions{});
	if (!images) // no gnuplot: the data and script are there; say so and go on
		std::fprintf(stderr, "campsim: plots: %s\n", images.error().c_str());
	return ok_status();
}

} // namespace

int run_command(const CampsimOptions &options)
{
	auto loaded = load_workload(options);
	if (!loaded) {
		std::fprintf(stderr, "campsim: %s\n", loaded.error().c_str());
		return 1;
	}
	if (options.load) {
		if (Status scaled = scale_to_load(loaded.value().workload, *options.load);
		    !scaled) {
			std::fprintf(stderr, "campsim: %s\n", scaled.error().c_str());
			return 1;
		}
	}
	const Workload &workload = loaded.value().workload;
	print_input(workload);
	MetricOptions metric_options;
	metric_options.user_profiles = loaded.value().user_profiles;
	metric_options.bounded_slowdown_tau_s = options.tau_s;
	metric_options.campaign_stretch_tau_s = options.tau_s;
	auto runs = run_policies(workload, options.policies, options.simulation, metric_options,
	                         options.progress, options.parallel);
	if (!runs) {
		std::fprintf(stderr, "campsim: %s\n", runs.error().c_str());
		return 1;
	}
	if (options.observed) {
		auto observed = observed_run(workload, options.simulation);
		if (!observed) {
			std::fprintf(stderr, "campsim: %s\n", observed.error().c_str());
			return 1;
		}
		RunMetrics scored = compute_metrics(workload, observed.value(), metric_options);
		runs.value().insert(runs.value().begin(),
		                    {std::move(observed).value(), std::move(scored)});
	}
	std::vector<RunMetrics> metrics;
	for (PolicyRun &run : runs.value()) {
		run.run.command = options.arguments;
		metrics.push_back(run.metrics);
	}
	std::cout << comparison_table_text(metrics);
	if (!options.out_dir.empty()) {
		if (Status written = write_report(options.out_dir, workload, runs.value(),
		                                  metric_options, options.plots);
		    !written) {
			std::fprintf(stderr, "campsim: %s\n", written.error().c_str());
			return 1;
		}
		std::printf("report written to %s\n", options.out_dir.c_str());
	}
	return 0;
}

} // namespace campaign::sim
