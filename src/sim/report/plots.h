// Plots of several runs' metrics with gnuplot: data files and a script in an output directory,
// then the `gnuplot` binary run on it. No metrics logic; gnuplot is optional.
#pragma once

#include "metrics/run_metrics.h"
#include "util/result.h"

#include <string>
#include <vector>

namespace campaign::sim
{

struct PlotOptions {
	std::string gnuplot = "gnuplot"; // a name looked up on PATH, or a path
	std::string format = "png";      // "png" (terminal pngcairo) or "svg"
	uint32_t width = 900;
	uint32_t height = 600;
	std::string title; // prefix of every title (e.g. the workload's name)
};

// The message write_plots returns when the gnuplot binary is not found.
inline constexpr const char *kGnuplotMissing =
    "gnuplot not found: install gnuplot-nox (plots skipped)";

// Writes into `directory` (made if missing) the data files, plots.gp, and, by running gnuplot,
// the images, one per figure, each with every run that has data for it:
//   stretch_histogram  campaigns per stretch interval per run (OStrich Fig. 2a)
//   user_max_stretch   per-user max campaign stretch per run (log scale)
//   profile_max_stretch per-profile mean of it (OStrich Fig. 2b; only with profiles)
//   stretch_cdf        CDF of the campaign stretch per run (log x)
//   utilization        busy fraction over time per run
// Returns the image paths. Without gnuplot the data and script are still written and the error
// is kGnuplotMissing; a failing gnuplot returns its log's tail.
Result<std::vector<std::string>> write_plots(const std::string &directory,
                                             const std::vector<RunMetrics> &runs,
                                             const PlotOptions &options);

// The gnuplot binary's path, or kGnuplotMissing.
Result<std::string> find_gnuplot(const std::string &program);

} // namespace campaign::sim
