// Plots of several runs' metrics with gnuplot: writes the figures' data files and plots.gp into
// the output directory, then runs the `gnuplot` binary there (fork/exec, output to gnuplot.log).
#include "report/plots.h"

#include "report/plot_figures.h"
#include "report/text_format.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace campaign::sim
{
namespace
{

using plot_detail::Figure;

std::vector<Figure> figures(const std::vector<RunMetrics> &runs, const PlotOptions &options)
{
	std::vector<Figure> out;
	for (auto figure : {plot_detail::stretch_histogram_figure(runs, options),
	                    plot_detail::user_max_stretch_figure(runs, options),
	                    plot_detail::profile_max_stretch_figure(runs, options),
	                    plot_detail::stretch_cdf_figure(runs, options),
	                    plot_detail::utilization_figure(runs, options)})
		if (figure)
			out.push_back(std::move(*figure));
	return out;
}

std::string terminal_line(const PlotOptions &options)
{
	const std::string size =
	    std::to_string(options.width) + "," + std::to_string(options.height);
	if (options.format == "svg")
		return "set terminal svg size " + size + " noenhanced font 'Sans,11'\n";
	return "set terminal pngcairo size " + size + " noenhanced font 'Sans,10'\n";
}

std::string script_text(const std::vector<Figure> &figures, const PlotOptions &options,
                        const std::string &extension)
{
	std::string script =
	    "# campsim plots: run `gnuplot plots.gp` in this directory.\n" + terminal_line(options);
	for (const Figure &figure : figures)
		script += "\nreset\nset output " + plot_detail::quoted(figure.name + extension) +
		          "\n" + figure.script;
	return script + "unset output\n";
}

std::string log_tail(const std::string &path)
{
	std::ifstream log(path);
	std::stringstream text;
	text << log.rdbuf();
	const std::string all = text.str();
	return all.size() > 600 ? all.substr(all.size() - 600) : all;
}

// Runs `gnuplot plots.gp` in `directory`, its output in gnuplot.log there.
Status run_gnuplot(const std::string &gnuplot, const std::string &directory)
{
	const std::string log_path = directory + "/gnuplot.log";
	char *const argv[] = {const_cast<char *>(gnuplot.c_str()), const_cast<char *>("plots.gp"),
	                      nullptr};
	const pid_t child = fork();
	if (child < 0)
		return Error{std::string("cannot start gnuplot: fork: ") + std::strerror(errno)};
	if (child == 0) {
		const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (chdir(directory.c_str()) != 0 || log < 0)
			_exit(126);
		dup2(log, STDOUT_FILENO);
		dup2(log, STDERR_FILENO);
		execv(gnuplot.c_str(), argv);
		_exit(127);
	}
	int status = 0;
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR)
			return Error{std::string("waiting for gnuplot: ") + std::strerror(errno)};
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return ok_status();
	const std::string how = WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
	                                          : "signal " + std::to_string(WTERMSIG(status));
	return Error{"gnuplot failed (" + how + ") on " + directory +
	             "/plots.gp: " + log_tail(log_path)};
}

Status write_figure_data(const std::string &directory, const std::vector<Figure> &figures)
{
	for (const Figure &figure : figures)
		for (const auto &[file, text] : figure.data) {
			const Status written = write_text_file(directory + "/" + file, text);
			if (!written.ok())
				return written;
		}
	return ok_status();
}

} // namespace

Result<std::string> find_gnuplot(const std::string &program)
{
	if (program.find('/') != std::string::npos)
		return access(program.c_str(), X_OK) == 0
		           ? Result<std::string>(program)
		           : Result<std::string>(Error{kGnuplotMissing});
	const char *path = std::getenv("PATH");
	std::stringstream directories(path != nullptr ? path : "/usr/bin:/bin");
	std::string directory;
	while (std::getline(directories, directory, ':')) {
		const std::string candidate = (directory.empty() ? "." : directory) + "/" + program;
		struct stat info;
		if (stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
		    access(candidate.c_str(), X_OK) == 0)
			return candidate;
	}
	return Error{kGnuplotMissing};
}

Result<std::vector<std::string>> write_plots(const std::string &directory,
                                             const std::vector<RunMetrics> &runs,
                                             const PlotOptions &options)
{
	std::error_code failure;
	std::filesystem::create_directories(directory, failure);
	if (failure)
		return Error{"cannot make the plot directory " + directory + ": " +
		             failure.message()};
	const std::string extension = options.format == "svg" ? ".svg" : ".png";
	const std::vector<Figure> drawn = figures(runs, options);
	Status written = write_figure_data(directory, drawn);
	if (written.ok())
		written = write_text_file(directory + "/plots.gp",
		                          script_text(drawn, options, extension));
	if (!written.ok())
		return Error{written.error()};
	const Result<std::string> gnuplot = find_gnuplot(options.gnuplot);
	if (!gnuplot.ok())
		return Error{gnuplot.error()};
	const Status ran = run_gnuplot(gnuplot.value(), directory);
	if (!ran.ok())
		return Error{ran.error()};
	std::vector<std::string> images;
	for (const Figure &figure : drawn) {
		const std::string image = directory + "/" + figure.name + extension;
		struct stat info;
		if (stat(image.c_str(), &info) != 0 || info.st_size == 0)
			return Error{"gnuplot made no " + image + ": " +
			             log_tail(directory + "/gnuplot.log")};
		images.push_back(image);
	}
	return images;
}

} // namespace campaign::sim
