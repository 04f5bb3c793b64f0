// The figures write_plots draws: each one's data files and gnuplot commands, built from the
// runs' metrics. No file access, no process.
#include "report/plot_figures.h"

#include "report/text_format.h"

#include <algorithm>
#include <set>

namespace campaign::sim::plot_detail
{
namespace
{

constexpr size_t kMaxCdfPoints = 2000;

std::string label_of(const RunMetrics &run, size_t index)
{
	return run.label.empty() ? "run" + std::to_string(index + 1) : run.label;
}

std::string title_line(const PlotOptions &options, const std::string &what)
{
	return "set title " + quoted(options.title.empty() ? what : options.title + ": " + what) +
	       "\n";
}

// "plot" with one clause per (data file, run label), each `using` the given columns.
std::string plot_files(const std::vector<std::pair<std::string, std::string>> &files_and_titles,
                       const std::string &using_clause)
{
	std::string command = "plot";
	for (size_t i = 0; i < files_and_titles.size(); i++)
		command += std::string(i ? ", \\\n     " : " ") +
		           quoted(files_and_titles[i].first) + " using " + using_clause +
		           " title " + quoted(files_and_titles[i].second);
	return command + "\n";
}

// Clustered histogram of one data file: column 1 the category, then one column per title.
std::string clustered_plot(const std::string &file, const std::vector<std::string> &titles)
{
	std::string command = "plot";
	for (size_t i = 0; i < titles.size(); i++)
		command += std::string(i ? ", \\\n     ''" : " " + quoted(file)) + " using " +
		           std::to_string(i + 2) + (i ? "" : ":xtic(1)") + " title " +
		           quoted(titles[i]);
	return command + "\n";
}

std::string interval_label(const StretchInterval &interval)
{
	if (interval.high < 0)
		return ">=" + format_number(interval.low);
	return "[" + format_number(interval.low) + "," + format_number(interval.high) + ")";
}

// The CDF's points: every value when few, else kMaxCdfPoints evenly spaced ranks.
std::string cdf_points(std::vector<double> stretches)
{
	std::sort(stretches.begin(), stretches.end());
	const size_t n = stretches.size();
	const size_t points = std::min(n, kMaxCdfPoints);
	std::string text = "# campaign_stretch fraction_at_or_below\n";
	for (size_t j = 0; j < points; j++) {
		const size_t index = points == 1 ? n - 1 : j * (n - 1) / (points - 1);
		text += format_number(stretches[index]) + " " +
		        format_number(static_cast<double>(index + 1) / n) + "\n";
	}
	return text;
}

} // namespace

std::string quoted(const std::string &text)
{
	std::string out = "'";
	for (const char c : text) {
		if (c == '\'')
			out += '\'';
		out += c == '\n' ? ' ' : c;
	}
	return out + "'";
}

std::optional<Figure> stretch_histogram_figure(const std::vector<RunMetrics> &runs,
                                               const PlotOptions &options)
{
	std::vector<const RunMetrics *> with_data;
	std::vector<std::string> titles;
	for (size_t i = 0; i < runs.size(); i++)
		if (runs[i].campaigns_scored != 0) {
			with_data.push_back(&runs[i]);
			titles.push_back(label_of(runs[i], i));
		}
	if (with_data.empty())
		return std::nullopt;
	Figure figure{"stretch_histogram", "", {}};
	std::string data = "# interval, then campaigns per run\n";
	const std::vector<StretchInterval> intervals = stretch_intervals();
	for (size_t bin = 0; bin < intervals.size(); bin++) {
		data += "\"" + interval_label(intervals[bin]) + "\"";
		for (const RunMetrics *run : with_data)
			data += " " + std::to_string(bin < run->stretch_histogram.size()
			                                 ? run->stretch_histogram[bin].count
			                                 : 0);
		data += "\n";
	}
	figure.data.push_back({"stretch_histogram.dat", data});
	figure.script = title_line(options, "campaigns by stretch interval") +
	                "set style data histograms\nset style histogram clustered gap 1\n"
	                "set style fill solid 0.8 border -1\nset xlabel 'campaign stretch'\n"
	                "set ylabel 'campaigns'\nset yrange [0:*]\nset key top right\n" +
	                clustered_plot("stretch_histogram.dat", titles);
	return figure;
}

std::optional<Figure> user_max_stretch_figure(const std::vector<RunMetrics> &runs,
                                              const PlotOptions &options)
{
	Figure figure{"user_max_stretch", "", {}};
	std::vector<std::pair<std::string, std::string>> files;
	for (size_t i = 0; i < runs.size(); i++) {
		std::string data = "# user max_campaign_stretch\n";
		bool any = false;
		for (const UserMetrics &user : runs[i].users)
			if (user.campaigns != 0) {
				data += std::to_string(user.user) + " " +
				        format_number(user.max_campaign_stretch) + "\n";
				any = true;
			}
		if (!any)
			continue;
		const std::string file = "user_max_stretch." + std::to_string(i + 1) + ".dat";
		figure.data.push_back({file, data});
		files.push_back({file, label_of(runs[i], i)});
	}
	if (files.empty())
		return std::nullopt;
	figure.script = title_line(options, "max campaign stretch per user") +
	                "set logscale y\nset xlabel 'user'\nset ylabel 'max campaign stretch'\n"
	                "set key top right\n" +
	                plot_files(files, "1:2 with points pointsize 0.8");
	return figure;
}

std::optional<Figure> profile_max_stretch_figure(const std::vector<RunMetrics> &runs,
                                                 const PlotOptions &options)
{
	std::set<std::string> names;
	for (const RunMetrics &run : runs)
		for (const ProfileMetrics &profile : run.profiles)
			names.insert(profile.profile);
	if (names.empty())
		return std::nullopt;
	std::string data = "# profile, then the mean of per-user max campaign stretch per run\n";
	for (const std::string &name : names) {
		data += "\"" + file_stem(name) + "\"";
		for (const RunMetrics &run : runs) {
			double value = 0;
			for (const ProfileMetrics &profile : run.profiles)
				if (profile.profile == name)
					value = profile.mean_max_campaign_stretch;
			data += " " + format_number(value);
		}
		data += "\n";
	}
	std::vector<std::string> titles;
	for (size_t i = 0; i < runs.size(); i++)
		titles.push_back(label_of(runs[i], i));
	Figure figure{"profile_max_stretch", "", {{"profile_max_stretch.dat", data}}};
	figure.script = title_line(options, "mean max campaign stretch per user profile") +
	                "set style data histograms\nset style histogram clustered gap 1\n"
	                "set style fill solid 0.8 border -1\nset logscale y\n"
	                "set ylabel 'mean of per-user max stretch'\nset key top right\n" +
	                clustered_plot("profile_max_stretch.dat", titles);
	return figure;
}

std::optional<Figure> stretch_cdf_figure(const std::vector<RunMetrics> &runs,
                                         const PlotOptions &options)
{
	Figure figure{"stretch_cdf", "", {}};
	std::vector<std::pair<std::string, std::string>> files;
	for (size_t i = 0; i < runs.size(); i++) {
		if (runs[i].campaigns.empty())
			continue;
		std::vector<double> stretches;
		stretches.reserve(runs[i].campaigns.size());
		for (const CampaignMetrics &campaign : runs[i].campaigns)
			stretches.push_back(campaign.stretch);
		const std::string file = "stretch_cdf." + std::to_string(i + 1) + ".dat";
		figure.data.push_back({file, cdf_points(std::move(stretches))});
		files.push_back({file, label_of(runs[i], i)});
	}
	if (files.empty())
		return std::nullopt;
	figure.script = title_line(options, "campaign stretch CDF") +
	                "set logscale x\nset xlabel 'campaign stretch'\n"
	                "set ylabel 'fraction of campaigns'\nset yrange [0:1]\n"
	                "set key bottom right\n" +
	                plot_files(files, "1:2 with steps linewidth 2");
	return figure;
}

std::optional<Figure> utilization_figure(const std::vector<RunMetrics> &runs,
                                         const PlotOptions &options)
{
	Figure figure{"utilization", "", {}};
	std::vector<std::pair<std::string, std::string>> files;
	for (size_t i = 0; i < runs.size(); i++) {
		if (runs[i].utilization_series.empty())
			continue;
		std::string data = "# t_hours busy_fraction (bins of " +
		                   format_number(runs[i].utilization_bin_s) + " s)\n";
		for (const UtilizationSample &sample : runs[i].utilization_series)
			data += format_number(sample.t_s / 3600) + " " +
			        format_number(sample.busy_fraction) + "\n";
		const std::string file = "utilization." + std::to_string(i + 1) + ".dat";
		figure.data.push_back({file, data});
		files.push_back({file, label_of(runs[i], i)});
	}
	if (files.empty())
		return std::nullopt;
	figure.script = title_line(options, "utilization over time") +
	                "set xlabel 'time (hours)'\nset ylabel 'busy fraction'\n"
	                "set yrange [0:1.05<*]\nset key bottom right\n" +
	                plot_files(files, "1:2 with steps");
	return figure;
}

} // namespace campaign::sim::plot_detail
