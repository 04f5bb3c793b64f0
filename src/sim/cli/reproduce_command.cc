// `campsim reproduce NAME`: runs one fixed experiment and prints its report; exit 0 on PASS.
#include "cli/reproduce_command.h"

#include "report/progress_bar.h"
#include "reproduce/experiment_report.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>

namespace campaign::sim
{

namespace
{
std::string default_trace(const char *file)
{
	const char *directory = std::getenv("CAMPSIM_TRACE_DIR");
	return std::string(directory ? directory : "../shared/traces") + "/" + file;
}
} // namespace

int reproduce_command(const CampsimOptions &options)
{
	ReproduceOptions reproduce;
	reproduce.instances = options.instances;
	reproduce.trace_path = options.swf_path.empty()
	                           ? default_trace("LPC-EGEE-2004-1.2-cln.swf.gz")
	                           : options.swf_path;
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
