// The figures write_plots draws: each one's data files and gnuplot commands, built from the
// runs' metrics. Internal to src/sim/report; no file access, no process.
#pragma once

#include "metrics/run_metrics.h"
#include "report/plots.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace campaign::sim::plot_detail
{

struct Figure {
	std::string name;   // the image's file name without extension
	std::string script; // gnuplot commands drawing it (after `set output`)
	std::vector<std::pair<std::string, std::string>> data; // (file name, contents)
};

// A gnuplot single-quoted string ('' inside).
std::string quoted(const std::string &text);

// Each figure, or nothing when no run has data for it.
std::optional<Figure> stretch_histogram_figure(const std::vector<RunMetrics> &runs,
                                               const PlotOptions &options);
std::optional<Figure> user_max_stretch_figure(const std::vector<RunMetrics> &runs,
                                              const PlotOptions &options);
std::optional<Figure> profile_max_stretch_figure(const std::vector<RunMetrics> &runs,
                                                 const PlotOptions &options);
std::optional<Figure> stretch_cdf_figure(const std::vector<RunMetrics> &runs,
                                         const PlotOptions &options);
std::optional<Figure> utilization_figure(const std::vector<RunMetrics> &runs,
                                         const PlotOptions &options);

} // namespace campaign::sim::plot_detail
