// `campsim reproduce NAME`: runs one fixed experiment and prints its report; exit 0 on PASS.
#include "cli/reproduce_command.h"

#include "report/progress_bar.h"
#include "reproduce/experiment_report.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace campaign::sim
{

namespace
{
// Where `reproduce` looks for a trace not given with --swf: CAMPSIM_TRACE_DIR, then the
// installed copy ($(pkgdatadir)/traces), then the source tree's data/traces (a run from the
// build tree before `make install`). Both directories are set by configure (src/sim/Makefile.am).
std::vector<std::string> trace_directories()
{
	const char *directory = std::getenv("CAMPSIM_TRACE_DIR");
	if (directory && *directory)
		return {directory};
	return {CAMPSIM_INSTALLED_TRACE_DIR, CAMPSIM_SOURCE_TRACE_DIR};
}

// The first directory holding `file`, or an error naming every place looked in.
Result<std::string> default_trace(const std::string &file)
{
	std::string looked;
	for (const std::string &directory : trace_directories()) {
		const std::string path = directory + "/" + file;
		if (std::filesystem::exists(path))
			return path;
		looked += (looked.empty() ? "" : ", ") + directory;
	}
	return Error{"trace " + file + " not found in " + looked +
	             " (give it with --swf or set CAMPSIM_TRACE_DIR)"};
}
} // namespace

int reproduce_command(const CampsimOptions &options)
{
	ReproduceOptions reproduce;
	reproduce.instances = options.instances;
	reproduce.trace_path = options.swf_path;
	if (reproduce.trace_path.empty() && options.experiment == "lpc-egee") {
		const Result<std::string> trace = default_trace("LPC-EGEE-2004-1.2-cln.swf.gz");
		if (!trace) {
			std::fprintf(stderr, "campsim: reproduce lpc-egee: %s\n",
			             trace.error().c_str());
			return 1;
		}
		reproduce.trace_path = trace.value();
	}
	std::unique_ptr<ProgressBar> bar;
	if (options.progress) {
		bar = std::make_unique<ProgressBar>(options.experiment, 1000);
		reproduce.progress = [&bar](double done) {
			bar->update(static_cast<uint64_t>(done * 1000));
		};
	}
	Result<ExperimentReport> report = Error{"unknown experiment '" + options.experiment +
	                                        "' (faircamp-zipf, ostrich-profiles, lpc-egee)"};
	if (options.experiment == "faircamp-zipf")
		report = reproduce_faircamp_zipf(reproduce);
	else if (options.experiment == "ostrich-profiles")
		report = reproduce_ostrich_profiles(reproduce);
	else if (options.experiment == "lpc-egee")
		report = reproduce_lpc_egee(reproduce);
	if (bar)
		bar->finish();
	if (!report) {
		std::fprintf(stderr, "campsim: reproduce %s: %s\n", options.experiment.c_str(),
		             report.error().c_str());
		return 1;
	}
	const std::string text = format_report(report.value());
	std::fputs(text.c_str(), stdout);
	if (!options.out_dir.empty()) {
		std::ofstream out(options.out_dir + "/reproduce-" + options.experiment + ".txt");
		out << text;
		if (!out) {
			std::fprintf(stderr, "campsim: cannot write to %s\n",
			             options.out_dir.c_str());
			return 1;
		}
	}
	return report.value().passed() ? 0 : 3;
}

} // namespace campaign::sim
